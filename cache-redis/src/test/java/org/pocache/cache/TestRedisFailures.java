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
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * Redis dies in the middle of batch reads and writes: the calls fail (they do not
 * hang), the breaker opens and then fails calls without touching the network, and
 * once Redis is back the same store works again.
 */
public class TestRedisFailures {

  @Test
  public void redisKilledMidBatchThenRestarted() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (RedisServerFixture redis = RedisServerFixture.builder().start()) {
      Map<String, String> m = StoreTesting.settings(redis.host() + ":" + redis.port());
      try (RedisParityStore store = StoreTesting.connect(m)) {
        List<ParityKey> keys = new ArrayList<>();
        List<int[]> crcs = new ArrayList<>();
        List<ByteBuffer> payloads = new ArrayList<>();
        for (int j = 0; j < 64; j++) {
          keys.add(store.key(1, 1, 0, j, 0));
          crcs.add(StoreTesting.crcs(4));
          payloads.add(StoreTesting.payload(1 << 20, j));
        }
        store.putAll(keys, crcs, payloads);
        // Batches run in a loop while Redis is killed; each call must end (with an
        // exception) instead of hanging: Future.get bounds the wait.
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        Future<Exception> reader = pool.submit(() -> loopUntilFailure(() -> store.getAll(keys), reads));
        Future<Exception> writer = pool.submit(() -> loopUntilFailure(() -> {
          store.putAll(keys, crcs, payloads);
          return null;
        }, writes));
        long running = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (reads.get() < 2 || writes.get() < 2) { // both loops under way
          assertTrue("the batch loops did not start", System.nanoTime() < running);
          Thread.yield();
        }
        redis.stop();
        Exception r = reader.get(30, TimeUnit.SECONDS);
        Exception w = writer.get(30, TimeUnit.SECONDS);
        assertTrue(String.valueOf(r), r instanceof CacheUnavailableException);
        assertTrue(String.valueOf(w), w instanceof CacheUnavailableException);

        // With Redis down, failures open the breaker; then calls fail without waiting for the network.
        for (int i = 0; i < 5 && !store.breakerOpen(); i++) {
          try {
            store.get(keys.get(0));
          } catch (CacheUnavailableException expected) {
            // counting failures
          }
        }
        assertTrue("breaker open", store.breakerOpen());
        try {
          store.get(keys.get(0));
          fail("served while the breaker is open");
        } catch (CacheUnavailableException e) {
          assertTrue(e.getMessage(), e.getMessage().contains("circuit breaker is open"));
        }

        // Redis returns (empty: persistence is off). The same store recovers by itself.
        redis.start();
        ParityKey k = store.key(2, 1, 0, 0, 0);
        ByteBuffer p = StoreTesting.payload(4096, 9);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
          try {
            store.put(k, StoreTesting.crcs(4), p);
            break;
          } catch (CacheUnavailableException stillOpen) {
            if (System.nanoTime() > deadline) {
              throw new AssertionError("store did not recover after Redis came back", stillOpen);
            }
            Thread.sleep(50);
          }
        }
        assertArrayEquals(p.array(), StoreTesting.bytes(store.get(k)));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private interface Batch {
    Object run() throws ParityStoreException;
  }

  private static Exception loopUntilFailure(Batch b, AtomicInteger rounds) {
    while (true) {
      try {
        b.run();
        rounds.incrementAndGet();
      } catch (ParityStoreException | RuntimeException e) {
        return e;
      }
    }
  }
}
