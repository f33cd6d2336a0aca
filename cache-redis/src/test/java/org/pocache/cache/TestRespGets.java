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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.pocache.testkit.redis.RedisServerFixture;
import org.pocache.testkit.redis.RespClient;

/**
 * Parity reads over the store's own RESP connections ({@code dfs.pocache.redis.resp.get.enabled})
 * against a real redis-server: the same values as through Jedis, in the same pieces, a
 * missing value a miss, Redis's error replies and a stalled Redis store errors, and the
 * connection in step after an error reply.
 */
public class TestRespGets {
  private static final int PIECE = 256 << 10; // RedisParityStore's GETRANGE piece

  private static Map<String, String> settings(RedisServerFixture r, boolean resp) {
    Map<String, String> m = StoreTesting.settings(r.host() + ":" + r.port());
    m.put(RedisSettings.RESP_GET_KEY, Boolean.toString(resp));
    return m;
  }

  @Test
  public void readsWhatJedisReadsInTheSamePieces() throws Exception {
    int[] sizes = {1, 4096, PIECE - 64, PIECE, PIECE + 1, (1 << 20) + 3};
    try (RedisServerFixture redis = RedisServerFixture.builder().start()) {
      List<ParityKey> keys = new ArrayList<>();
      try (RedisParityStore store = StoreTesting.connect(settings(redis, false))) {
        for (int i = 0; i < sizes.length; i++) {
          ParityKey k = store.key(3, 1, 0, i, 0);
          store.put(k, StoreTesting.crcs(4), StoreTesting.payload(sizes[i], i));
          keys.add(k);
        }
        keys.add(2, store.key(3, 1, 0, 99, 0)); // never written: a miss between hits
      }
      ParityValue[] viaJedis;
      try (RedisParityStore store = StoreTesting.connect(settings(redis, false))) {
        viaJedis = store.getAll(keys);
      }
      try (RedisParityStore store = StoreTesting.connect(settings(redis, true))) {
        for (int round = 0; round < 2; round++) { // the second round on the kept connection
          ParityValue[] own = store.getAll(keys);
          assertTrue("Jedis's client made for reads", !store.jedisClientMade());
          assertEquals(keys.size(), own.length);
          for (int i = 0; i < keys.size(); i++) {
            if (viaJedis[i] == null) {
              assertNull("value " + i, own[i]);
              continue;
            }
            assertArrayEquals("value " + i, StoreTesting.bytes(viaJedis[i]), StoreTesting.bytes(own[i]));
          }
        }
      }
    }
  }

  @Test
  public void anErrorReplyNamesRedisReasonAndTheConnectionStaysInStep() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         RespClient raw = redis.client();
         RedisParityStore store = StoreTesting.connect(settings(redis, true))) {
      ParityKey good = store.key(4, 1, 0, 0, 0);
      ParityKey list = store.key(4, 1, 0, 1, 0);
      store.put(good, StoreTesting.crcs(4), StoreTesting.payload(100, 1));
      raw.call("RPUSH", list.bytes(), "x".getBytes("UTF-8")); // not a string: STRLEN answers WRONGTYPE
      try {
        store.getAll(Arrays.asList(list, good));
        fail("a read of a list's key succeeded");
      } catch (ParityStoreException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("WRONGTYPE"));
      }
      // Another value on the same connection: a reply of the failed call left unread would come first.
      ParityKey other = store.key(4, 1, 0, 2, 0);
      store.put(other, StoreTesting.crcs(4), StoreTesting.payload(200, 2));
      ParityValue[] v = store.getAll(Arrays.asList(other, good));
      assertArrayEquals(StoreTesting.payload(200, 2).array(), StoreTesting.bytes(v[0]));
      assertArrayEquals(StoreTesting.payload(100, 1).array(), StoreTesting.bytes(v[1]));
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
        raw.call("CLIENT", "PAUSE", "2000", "ALL"); // Redis answers no client for 2 s
        long start = System.nanoTime();
        try {
          store.getAll(Arrays.asList(k));
          fail("a read from a paused Redis succeeded");
        } catch (ParityStoreException e) {
          assertTrue(e.getMessage(), e.getMessage().contains("did not respond for 300 ms"));
        }
        assertTrue("the read waited out the pause", System.nanoTime() - start < 1_800_000_000L);
        raw.call("CLIENT", "UNPAUSE");
        assertArrayEquals(StoreTesting.payload(1 << 20, 1).array(),
            StoreTesting.bytes(store.getAll(Arrays.asList(k))[0]));
      }
    }
  }
}
