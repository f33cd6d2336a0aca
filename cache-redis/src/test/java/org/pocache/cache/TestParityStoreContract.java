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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.pocache.testkit.redis.RedisServerFixture;
import org.pocache.testkit.redis.RespClient;

/**
 * What every {@link ParityStore} promises, checked on the Redis store and on the
 * in-memory fake alike, so tests that use the fake test what production does.
 */
@RunWith(Parameterized.class)
public class TestParityStoreContract {
  private static RedisServerFixture redis;

  @Parameterized.Parameters(name = "{0}")
  public static Collection<Object[]> stores() {
    return Arrays.asList(new Object[][] {{"redis"}, {"in-memory"}});
  }

  private final String kind;
  private ParityStore store;

  public TestParityStoreContract(String kind) {
    this.kind = kind;
  }

  @BeforeClass
  public static void startRedis() throws Exception {
    redis = RedisServerFixture.builder().start();
  }

  @AfterClass
  public static void stopRedis() throws Exception {
    if (redis != null) {
      redis.close();
    }
  }

  @Before
  public void open() throws Exception {
    if (kind.equals("redis")) {
      try (RespClient c = redis.client()) {
        c.call("FLUSHALL");
      }
      store = StoreTesting.connect(StoreTesting.settings(redis.host() + ":" + redis.port()));
    } else {
      store = new InMemoryParityStore("test:");
    }
  }

  @After
  public void close() {
    store.close();
  }

  @Test
  public void valuesRoundTripAndMissesAreNull() throws Exception {
    ParityKey k = store.key(7, 1, 0, 0, 0);
    assertNull(store.get(k));
    assertFalse(store.exists(k));
    ByteBuffer p = StoreTesting.payload(300 << 10, 1);
    store.put(k, StoreTesting.crcs(4), p.duplicate());
    assertTrue(store.exists(k));
    assertArrayEquals(p.array(), StoreTesting.bytes(store.get(k)));
    ParityValue[] both = store.getAll(Arrays.asList(k, store.key(7, 1, 0, 1, 0)));
    assertEquals(1002, both[0].dataCrc(2));
    assertNull(both[1]);
    assertTrue(store.storedBytes(7) >= 300 << 10);
    store.delete(k);
    assertNull(store.get(k));
  }

  @Test
  public void asynchronousPutsLandAndDigestsMatchTheStoredValues() throws Exception {
    ParityKey a = store.key(8, 1, 0, 0, 0);
    store.putAsync(a, StoreTesting.crcs(4), StoreTesting.payload(4096, 2)).get();
    assertArrayEquals(StoreTesting.payload(4096, 2).array(), StoreTesting.bytes(store.get(a)));
    List<ParityKey> keys = Arrays.asList(store.key(9, 1, 0, 0, 0), store.key(9, 1, 0, 1, 0));
    byte[][] digests = store.putAll(keys, Arrays.asList(StoreTesting.crcs(4), StoreTesting.crcs(4)),
        Arrays.asList(StoreTesting.payload(100, 3), StoreTesting.payload(200, 4)));
    assertEquals(ParityValue.DIGEST_BYTES, digests[1].length);
    assertEquals(0, store.inFlightBytes());
    assertEquals(2, store.deleteFile(9, 1, 1, 2, 1));
    assertNull(store.getAll(keys)[0]);
    assertEquals(0, store.storedBytes(9));
  }

  @Test
  public void aDamagedValueIsReportedAndDeletedNeverReturned() throws Exception {
    ParityKey k = store.key(10, 1, 0, 0, 0);
    store.put(k, StoreTesting.crcs(4), StoreTesting.payload(4096, 5));
    damage(k);
    try {
      store.getAll(Collections.singletonList(k));
      fail("a damaged value was returned");
    } catch (CorruptParityException expected) {
      // reported
    }
    assertFalse("a damaged value stayed", store.exists(k));
  }

  @Test
  public void theIndexKeepsEntriesByFileIdUntilCleared() throws Exception {
    ParityStore.ManagerIndexStore index = store.index();
    index.put(1, new byte[] {1});
    index.put(2, new byte[] {2});
    index.put(1, new byte[] {3});
    assertArrayEquals(new byte[] {3}, index.load().get(1L));
    index.remove(2);
    assertEquals(Collections.singleton(1L), index.load().keySet());
    index.clear();
    assertTrue(index.load().isEmpty());
    String id = store.server().runId();
    assertFalse(id.isEmpty());
    assertEquals(id, store.server().runId());
    assertEquals(0, store.server().maxMemory()); // unlimited
  }

  private void damage(ParityKey k) throws Exception {
    if (store instanceof InMemoryParityStore) {
      byte[] v = ((InMemoryParityStore) store).rawGet(k);
      v[v.length - 1] ^= 1;
      ((InMemoryParityStore) store).rawPut(k, v);
    } else {
      try (RespClient c = redis.client()) {
        c.call("SETRANGE", k.bytes(), "4000", "z");
      }
    }
  }
}
