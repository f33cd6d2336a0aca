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
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.Test;
import org.pocache.testkit.redis.RedisServerFixture;
import org.pocache.testkit.redis.RespClient;

/**
 * Parity SETs over the store's own RESP connections ({@link RespSetConnections})
 * against a real redis-server: the same bytes as through Jedis, Redis's error
 * replies and a stalled Redis surface as store errors, and connections neither
 * leak nor outlive a failure.
 */
public class TestRespSets {

  private static Map<String, String> settings(RedisServerFixture r, boolean resp) {
    Map<String, String> m = StoreTesting.settings(r.host() + ":" + r.port());
    m.put(RedisSettings.RESP_SET_KEY, Boolean.toString(resp));
    return m;
  }

  /** Connections Redis has from clients named pocache (the store's Jedis pool and its own SET connections). */
  private static int pocacheConnections(RespClient raw) throws Exception {
    int n = 0;
    for (String line : raw.callString("CLIENT", "LIST").split("\n")) {
      if (line.contains(" name=pocache ")) {
        n++;
      }
    }
    return n;
  }

  /**
   * A store that only uploads (a writer's) never makes Jedis's client: the connect is
   * checked on a connection of the store's own, which it does not keep, and the client is
   * made at the first call that needs it.
   */
  @Test
  public void aStoreThatOnlyUploadsNeverMakesJedissClient() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         RespClient raw = redis.client()) {
      try (RedisParityStore store = StoreTesting.connect(settings(redis, true))) {
        assertEquals("the connect's check connection is kept", 0, pocacheConnections(raw));
        ParityKey k = store.key(4, 1, 0, 0, 0);
        store.put(k, StoreTesting.crcs(4), StoreTesting.payload(1000, 1));
        store.putAsync(store.key(4, 1, 0, 1, 0), StoreTesting.crcs(4), StoreTesting.payload(5000, 2)).get();
        assertTrue(raw.call("GET", k.bytes()) instanceof byte[]);
        assertTrue("Jedis's client made for uploads", !store.jedisClientMade());
        assertEquals(1000, store.get(k).payloadLength());
        assertTrue(store.jedisClientMade());
      }
      try (RedisParityStore store = StoreTesting.connect(settings(redis, false))) {
        assertTrue("SETs through Jedis: its client is checked at connect", store.jedisClientMade());
      }
    }
  }

  @Test
  public void storesExactlyWhatJedisStores() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         RespClient raw = redis.client()) {
      int[] sizes = {0, 1, 4096, (1 << 20) + 3};
      List<byte[]> viaJedis = new ArrayList<>();
      try (RedisParityStore store = StoreTesting.connect(settings(redis, false))) {
        for (int i = 0; i < sizes.length; i++) {
          ParityKey k = store.key(3, 1, 0, i, 0);
          store.put(k, StoreTesting.crcs(4), StoreTesting.payload(sizes[i], i));
          viaJedis.add((byte[]) raw.call("GET", k.bytes()));
          raw.call("DEL", k.bytes());
        }
      }
      try (RedisParityStore store = StoreTesting.connect(settings(redis, true))) {
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
          fs.add(store.putAsync(store.key(3, 1, 0, i, 0), StoreTesting.crcs(4), StoreTesting.payload(sizes[i], i)));
        }
        for (CompletableFuture<Void> f : fs) {
          f.get();
        }
        for (int i = 0; i < sizes.length; i++) {
          ParityKey k = store.key(3, 1, 0, i, 0);
          assertArrayEquals("value " + i, viaJedis.get(i), (byte[]) raw.call("GET", k.bytes()));
          assertArrayEquals(StoreTesting.payload(sizes[i], i).array(), StoreTesting.bytes(store.get(k)));
        }
      }
    }
  }

  @Test
  public void anErrorReplyNamesRedisReasonAndKeepsTheConnection() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().config("maxmemory", "4mb")
        .config("maxmemory-policy", "noeviction").start();
         RespClient raw = redis.client();
         RedisParityStore store = StoreTesting.connect(settings(redis, true))) {
      store.put(store.key(4, 1, 0, 0, 0), StoreTesting.crcs(4), StoreTesting.payload(1 << 20, 1));
      int before = pocacheConnections(raw);
      try {
        for (int j = 1; j < 16; j++) { // fills the 4 MB until Redis refuses
          store.put(store.key(4, 1, 0, j, 0), StoreTesting.crcs(4), StoreTesting.payload(1 << 20, j));
        }
        fail("Redis took 16 MiB under a 4 MB maxmemory");
      } catch (CacheUnavailableException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("OOM"));
      }
      assertEquals("the connection that got the error reply is reused", before, pocacheConnections(raw));
      raw.call("FLUSHALL");
      ParityKey k = store.key(4, 1, 0, 0, 0);
      store.put(k, StoreTesting.crcs(4), StoreTesting.payload(100, 7));
      assertArrayEquals(StoreTesting.payload(100, 7).array(), StoreTesting.bytes(store.get(k)));
    }
  }

  @Test
  public void aStalledRedisTimesOutAndTheStoreRecovers() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         RespClient raw = redis.client()) {
      Map<String, String> m = settings(redis, true);
      m.put(RedisSettings.READ_TIMEOUT_KEY, "300");
      try (RedisParityStore store = StoreTesting.connect(m)) {
        ParityKey k = store.key(6, 1, 0, 0, 0);
        store.put(k, StoreTesting.crcs(4), StoreTesting.payload(1 << 20, 1));
        raw.call("CLIENT", "PAUSE", "2000", "WRITE"); // Redis reads the SET but answers nothing for 2 s
        long start = System.nanoTime();
        try {
          store.putAsync(k, StoreTesting.crcs(4), StoreTesting.payload(1 << 20, 2)).get();
          fail("a SET to a paused Redis succeeded");
        } catch (ExecutionException e) {
          assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof CacheUnavailableException);
          assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("did not respond for 300 ms"));
        }
        assertTrue("the SET waited out the pause", System.nanoTime() - start < 1_800_000_000L);
        raw.call("CLIENT", "UNPAUSE");
        // Another key: Redis may still run the abandoned SET once unpaused.
        ParityKey k2 = store.key(6, 1, 0, 1, 0);
        ByteBuffer p = StoreTesting.payload(1 << 20, 3);
        store.put(k2, StoreTesting.crcs(4), p);
        assertArrayEquals(p.array(), StoreTesting.bytes(store.get(k2)));
      }
    }
  }

  @Test
  public void connectionsAreBoundedAndClosedWithTheStore() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         RespClient raw = redis.client()) {
      Map<String, String> m = settings(redis, true);
      m.put(RedisSettings.POOL_MAX_KEY, "4"); // two upload threads
      try (RedisParityStore store = StoreTesting.connect(m)) {
        int jedisOnly = pocacheConnections(raw);
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (int j = 0; j < 200; j++) {
          fs.add(store.putAsync(store.key(8, 1, j / 16, j % 16, 0), StoreTesting.crcs(4),
              StoreTesting.payload(64 << 10, j)));
        }
        for (CompletableFuture<Void> f : fs) {
          f.get();
        }
        int during = pocacheConnections(raw);
        assertTrue("SET connections " + (during - jedisOnly), during - jedisOnly >= 1 && during - jedisOnly <= 2);
      }
      for (int i = 0; i < 50 && pocacheConnections(raw) > 0; i++) {
        Thread.sleep(20); // Redis notices closed sockets on its next event loop turn
      }
      assertEquals(0, pocacheConnections(raw));
    }
  }

  @Test
  public void aWrongPasswordIsReportedByRedisWords() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().password("s3cret").start()) {
      Map<String, String> m = settings(redis, true);
      m.put(RedisSettings.PASSWORD_KEY, "s3cret");
      try (RedisParityStore store = StoreTesting.connect(m)) {
        try (RespClient raw = redis.client()) {
          raw.call("CONFIG", "SET", "requirepass", "changed"); // the password changes under a running client
          ParityKey k = store.key(9, 1, 0, 0, 0);
          try {
            store.put(k, StoreTesting.crcs(2), StoreTesting.payload(10, 1));
            fail("SET with a stale password succeeded");
          } catch (CacheUnavailableException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("Redis refused AUTH: WRONGPASS"));
          }
        }
      }
    }
  }
}
