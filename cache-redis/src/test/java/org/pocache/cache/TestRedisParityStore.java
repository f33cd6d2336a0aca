/*
 * Copyright 2026 the POCache for HDFS authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.pocache.cache;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.Test;
import org.pocache.testkit.redis.RedisServerFixture;
import org.pocache.testkit.redis.RespClient;

/** The store against a real standalone redis-server: data, corruption, security, capacity, settings. */
public class TestRedisParityStore {

  private static String hosts(RedisServerFixture r) {
    return r.host() + ":" + r.port();
  }

  @Test
  public void putGetMissDeleteAndBatches() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         RedisParityStore store = StoreTesting.connect(StoreTesting.settings(hosts(redis)))) {
      ParityKey k = store.key(7, 1, 0, 0, 0);
      assertNull(store.get(k));
      ByteBuffer p = StoreTesting.payload(1 << 20, 1);
      store.put(k, StoreTesting.crcs(4), p);
      ParityValue v = store.get(k);
      assertArrayEquals(p.array(), StoreTesting.bytes(v));
      assertEquals(1001, v.dataCrc(1));
      store.delete(k);
      assertNull(store.get(k));

      List<ParityKey> keys = new ArrayList<>();
      List<int[]> crcs = new ArrayList<>();
      List<ByteBuffer> payloads = new ArrayList<>();
      for (int j = 0; j < 8; j++) {
        keys.add(store.key(8, 2, 0, j, 0));
        crcs.add(StoreTesting.crcs(4));
        payloads.add(StoreTesting.payload(64 << 10, j));
      }
      store.putAll(keys, crcs, payloads);
      List<ParityKey> ask = new ArrayList<>(keys);
      ask.add(store.key(8, 2, 0, 99, 0)); // a miss in the batch
      ParityValue[] got = store.getAll(ask);
      for (int j = 0; j < 8; j++) {
        assertArrayEquals(payloads.get(j).array(), StoreTesting.bytes(got[j]));
      }
      assertNull(got[8]);
      assertTrue(store.storedBytes(8) > 8 * (64 << 10));
      assertEquals(8, store.deleteFile(8, 2, 1, 8, 1)); // exactly the keys that existed
      assertNull(store.getAll(keys)[3]);
      assertEquals(0, store.storedBytes(8));
    }
  }

  @Test
  public void largeValuesAreReadInPiecesAndCheckedWhole() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         RedisParityStore store = StoreTesting.connect(StoreTesting.settings(hosts(redis)));
         RespClient raw = redis.client()) {
      // Around the piece size: one byte under and over a piece once the header is added,
      // several pieces, and a small value in the same batch.
      int h = ParityValue.headerBytes(4);
      int[] sizes = {RedisParityStore.GET_CHUNK - h, RedisParityStore.GET_CHUNK - h + 1, (1 << 20) + 17, 4096};
      List<ParityKey> keys = new ArrayList<>();
      List<ByteBuffer> payloads = new ArrayList<>();
      for (int i = 0; i < sizes.length; i++) {
        keys.add(store.key(11, 1, 0, i, 0));
        payloads.add(StoreTesting.payload(sizes[i], 40 + i));
        store.put(keys.get(i), StoreTesting.crcs(4), payloads.get(i));
      }
      List<ParityKey> ask = new ArrayList<>(keys);
      ask.add(1, store.key(11, 1, 0, 99, 0)); // a miss among them
      ParityValue[] got = store.getAll(ask);
      assertNull(got[1]);
      for (int i = 0; i < sizes.length; i++) {
        ParityValue v = got[i == 0 ? 0 : i + 1];
        assertEquals(sizes[i], v.payloadLength());
        assertArrayEquals(payloads.get(i).array(), StoreTesting.bytes(v));
        byte[] copied = new byte[sizes[i] + 3];
        v.copyPayloadTo(copied, 3);
        assertArrayEquals(payloads.get(i).array(), Arrays.copyOfRange(copied, 3, copied.length));
      }
      // Damage in the third piece of the large value is found, and the value deleted.
      raw.call("SETRANGE", keys.get(2).bytes(), Integer.toString(2 * RedisParityStore.GET_CHUNK + 5), "z");
      try {
        store.getAll(Arrays.asList(keys.get(3), keys.get(2)));
        fail("a value damaged in its third piece was returned");
      } catch (CorruptParityException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("payload checksum mismatch"));
      }
      assertNull("a damaged value is deleted", raw.call("GET", keys.get(2).bytes()));
    }
  }

  @Test
  public void damageBehindTheStoresBackIsNeverReturned() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         RedisParityStore store = StoreTesting.connect(StoreTesting.settings(hosts(redis)));
         RespClient raw = redis.client()) {
      ParityKey k = store.key(9, 3, 1, 2, 0);
      // SETRANGE over the payload.
      store.put(k, StoreTesting.crcs(4), StoreTesting.payload(4096, 2));
      raw.call("SETRANGE", k.bytes(), "500", "x");
      expectCorrupt(store, k, "payload checksum mismatch");
      assertNull("a damaged value is deleted", raw.call("GET", k.bytes()));
      // SETRANGE over the header.
      store.put(k, StoreTesting.crcs(4), StoreTesting.payload(4096, 2));
      raw.call("SETRANGE", k.bytes(), "20", "\u0001");
      expectCorrupt(store, k, "header checksum mismatch");
      // Truncated by a foreign SET.
      store.put(k, StoreTesting.crcs(4), StoreTesting.payload(4096, 2));
      byte[] whole = (byte[]) raw.call("GET", k.bytes());
      raw.call("SET", k.bytes(), Arrays.copyOf(whole, whole.length - 1));
      expectCorrupt(store, k, "payload length");
      // A value of another generation and of another file copied under this key.
      ParityKey older = store.key(9, 2, 1, 2, 0);
      store.put(older, StoreTesting.crcs(4), StoreTesting.payload(4096, 3));
      raw.call("SET", k.bytes(), raw.call("GET", older.bytes()));
      expectCorrupt(store, k, "generation 2");
      ParityKey other = store.key(10, 3, 1, 2, 0);
      store.put(other, StoreTesting.crcs(4), StoreTesting.payload(4096, 4));
      raw.call("SET", k.bytes(), raw.call("GET", other.bytes()));
      expectCorrupt(store, k, "file 10");
      // And in a batch.
      store.put(k, StoreTesting.crcs(4), StoreTesting.payload(4096, 2));
      raw.call("SETRANGE", k.bytes(), "1000", "y");
      try {
        store.getAll(Arrays.asList(other, k));
        fail("batch returned a damaged value");
      } catch (CorruptParityException expected) {
        assertTrue(expected.getMessage().contains("checksum"));
      }
    }
  }

  private static void expectCorrupt(RedisParityStore store, ParityKey k, String what) throws Exception {
    try {
      store.get(k);
      fail("returned a damaged value, expected: " + what);
    } catch (CorruptParityException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(what));
    }
  }

  @Test
  public void passwordAndAclUser() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().password("s3cret")
        .config("user", "pocache", "on", ">pocache-pw", "~test:*", "+@all").start()) {
      Map<String, String> m = StoreTesting.settings(hosts(redis));
      m.put(RedisSettings.PASSWORD_KEY, "s3cret");
      try (RedisParityStore store = StoreTesting.connect(m)) {
        ParityKey k = store.key(1, 1, 0, 0, 0);
        store.put(k, StoreTesting.crcs(2), StoreTesting.payload(100, 1));
        assertEquals(100, store.get(k).payloadLength());
      }
      m.put(RedisSettings.USER_KEY, "pocache");
      m.put(RedisSettings.PASSWORD_KEY, "pocache-pw");
      try (RedisParityStore store = StoreTesting.connect(m)) {
        ParityKey k = store.key(1, 1, 0, 0, 0);
        assertEquals(100, store.get(k).payloadLength());
      }
      m.put(RedisSettings.PASSWORD_KEY, "wrong");
      try (RedisParityStore store = StoreTesting.connect(m)) {
        fail("connected with a wrong password: " + store);
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage(), e.getMessage().startsWith(RedisSettings.HOSTS_KEY));
      }
    }
  }

  @Test
  public void asyncPutsAreBoundedAndComplete() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start()) {
      Map<String, String> m = StoreTesting.settings(hosts(redis));
      m.put(RedisSettings.ASYNC_MAX_BYTES_KEY, Integer.toString(2 << 20));
      try (RedisParityStore store = StoreTesting.connect(m)) {
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (int j = 0; j < 20; j++) {
          fs.add(store.putAsync(store.key(5, 1, 0, j, 0), StoreTesting.crcs(4), StoreTesting.payload(1 << 20, j)));
          assertTrue("in flight " + store.inFlightBytes(), store.inFlightBytes() <= 2 << 20);
        }
        for (CompletableFuture<Void> f : fs) {
          f.get();
        }
        assertEquals(0, store.inFlightBytes());
        assertArrayEquals(StoreTesting.payload(1 << 20, 19).array(), StoreTesting.bytes(store.get(store.key(5, 1, 0, 19,
            0))));
      }
    }
  }

  /** What the Manager checks its capacity against (TestCacheService covers the refusal). */
  @Test
  public void maxmemoryIsRead() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().config("maxmemory", "64mb")
        .config("maxmemory-policy", "noeviction").start();
         RedisParityStore store = StoreTesting.connect(StoreTesting.settings(hosts(redis)))) {
      assertEquals(64L << 20, store.server().maxMemory());
    }
  }

  @Test
  public void badSettingsNameTheKey() {
    expect(RedisSettings.HOSTS_KEY + ": port 70000 of 'h:70000' is out of range 1-65535",
        RedisSettings.HOSTS_KEY, "h:70000");
    expect(RedisSettings.HOSTS_KEY + " entries must be host:port, got 'justahost'", RedisSettings.HOSTS_KEY,
        "justahost");
    expect(RedisSettings.TOPOLOGY_KEY + " must be standalone or cluster, got 'sentinel'", RedisSettings.TOPOLOGY_KEY,
        "sentinel");
    expect(RedisSettings.TLS_KEY + " is true but " + RedisSettings.TRUSTSTORE_KEY
        + " is not set: give the trust store holding Redis's CA certificate", RedisSettings.TLS_KEY, "true");
    expect(RedisSettings.READ_TIMEOUT_KEY + " must be in [1, 600000], got 0", RedisSettings.READ_TIMEOUT_KEY, "0");
    expect(RedisSettings.PREFIX_KEY + ": key prefix 'a{' must not contain braces, whitespace or control characters"
        + " (found '{' at 1)", RedisSettings.PREFIX_KEY, "a{");
    // A cluster seed that does not answer.
    Map<String, String> m = StoreTesting.settings("127.0.0.1:1");
    m.put(RedisSettings.TOPOLOGY_KEY, "cluster");
    try (RedisParityStore s = StoreTesting.connect(m)) {
      fail("connected to nothing: " + s);
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(RedisSettings.HOSTS_KEY + " = [127.0.0.1:1]"));
    }
  }

  private static void expect(String message, String key, String value) {
    Map<String, String> m = StoreTesting.settings("127.0.0.1:6379");
    m.put(key, value);
    try {
      RedisSettings.from(m::get);
      fail("accepted " + key + "=" + value);
    } catch (IllegalArgumentException e) {
      assertEquals(message, e.getMessage());
    }
  }
}
