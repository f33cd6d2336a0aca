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
package org.pocache.csac;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.Test;
import org.pocache.csac.policy.Policies;

/** Algorithm 1 and its guards, over every eviction policy. */
public class TestCsac {
  private final AtomicLong now = new AtomicLong();

  private Csac csac(long capacity, String eviction, double thetaP) {
    return csac(capacity, "cache-upon-access", eviction, thetaP, Long.MAX_VALUE);
  }

  private Csac csac(long capacity, String admission, String eviction, double thetaP, long exclusiveLimit) {
    return csac(capacity, admission, eviction, thetaP, exclusiveLimit, false);
  }

  private Csac csac(long capacity, String admission, String eviction, double thetaP, long exclusiveLimit,
      boolean keepStragglerFiles) {
    return new Csac(capacity, Policies.admission("a", admission, capacity, 1000),
        Policies.eviction("e", eviction, capacity), Policies.prediction("p", "recency", 1000), thetaP,
        exclusiveLimit, keepStragglerFiles ? Policies.eviction("e", eviction, capacity) : null, now::get);
  }

  private static FileRef file(long id, long weight, String... dns) {
    return new FileRef(id, weight, dns.length == 0 ? new String[] {"dn" + (id % 7)} : dns);
  }

  @Test
  public void queryAndUpdateFollowAlgorithm1() {
    Csac c = csac(3, "lru", 0);
    FileRef a = file(1, 1);
    assertEquals(Decision.SHOULD_CACHE, c.query(a)); // S empty, cache-upon-access
    assertEquals(Collections.emptyList(), c.update(a, Decision.SHOULD_CACHE));
    assertEquals(Decision.CACHED, c.query(a));
    c.update(file(2, 1), Decision.SHOULD_CACHE);
    c.update(file(3, 1), Decision.SHOULD_CACHE);
    c.update(a, Decision.CACHED); // a is now most recent
    assertEquals(Arrays.asList(2L), c.update(file(4, 1), Decision.SHOULD_CACHE));
    assertEquals(0, c.available());
    assertTrue(c.accountingHolds());

    // With a straggler, only files on it are admitted.
    c.setStragglers(Collections.singleton("slow"));
    assertEquals(Decision.SHOULD_NOT_CACHE, c.query(file(5, 1, "ok1", "ok2")));
    assertEquals(Decision.SHOULD_CACHE, c.query(file(6, 1, "ok1", "slow")));
    assertEquals(Decision.CACHED, c.query(a));
    // Heavier files evict as many files as needed, in policy order.
    assertEquals(3, c.update(file(7, 3, "slow"), Decision.SHOULD_CACHE).size());
    assertTrue(c.isCached(7));
    assertTrue(c.accountingHolds());
  }

  @Test
  public void aFileHeavierThanTheCacheIsNeverAdmitted() {
    Csac c = csac(4, "lru", 0);
    c.update(file(1, 2), Decision.SHOULD_CACHE);
    FileRef huge = file(9, 5, "slow");
    c.setStragglers(Collections.singleton("slow"));
    assertEquals(Decision.SHOULD_NOT_CACHE, c.query(huge));
    assertEquals(Collections.emptyList(), c.update(huge, Decision.SHOULD_CACHE));
    assertEquals(Collections.emptyList(), c.insert(huge));
    assertTrue("nothing was evicted for it", c.isCached(1));
  }

  @Test
  public void aNeverClearingFalsePositiveStopsBlockingAdmissionAfterTheLimit() {
    Csac c = csac(10, "cache-upon-access", "lru", 0, 60_000);
    c.setStragglers(Collections.singleton("ghost"));
    FileRef normal = file(1, 1, "dn1");
    assertEquals(Decision.SHOULD_NOT_CACHE, c.query(normal));
    now.addAndGet(59_999);
    c.setStragglers(Collections.singleton("ghost")); // re-reported, unchanged: the clock keeps running
    assertEquals(Decision.SHOULD_NOT_CACHE, c.query(normal));
    now.addAndGet(1);
    assertEquals(Decision.SHOULD_CACHE, c.query(normal));
    // A new straggler restarts the exclusive period.
    c.setStragglers(Arrays.asList("ghost", "dn9"));
    assertEquals(Decision.SHOULD_NOT_CACHE, c.query(normal));
    c.setStragglers(Collections.<String>emptyList());
    assertEquals(Decision.SHOULD_CACHE, c.query(normal));
  }

  @Test
  public void prefetchTakesPredictedStragglerFilesUpToThetaPTimesT() {
    Csac c = csac(10, "lru", 0.4);
    Map<Long, FileRef> files = new HashMap<>();
    for (long id = 1; id <= 8; id++) {
      files.put(id, file(id, 1, id % 2 == 0 ? "slow" : "dn" + id));
      c.update(files.get(id), Decision.SHOULD_NOT_CACHE); // read, not cached
    }
    c.update(files.get(8L), Decision.SHOULD_CACHE); // 8 is cached already
    assertFalse(c.hasNewStragglers());
    assertTrue(c.setStragglers(Collections.singleton("slow")));
    assertTrue(c.hasNewStragglers());
    List<FileRef> p = c.prefetch(files::get, 1000);
    assertFalse(c.hasNewStragglers());
    // Most recent first, on "slow", not cached, at most 0.4 x 10 = 4 of weight: 6, 4, 2.
    assertEquals(Arrays.asList(6L, 4L, 2L), ids(p));
    FileRef heavy = new FileRef(20, 3, "slow");
    files.put(20L, heavy);
    c.update(heavy, Decision.SHOULD_NOT_CACHE);
    // 20 (weight 3) is now the most recent; 3 + 1 for file 6 is exactly the budget of 4.
    assertEquals(Arrays.asList(20L, 6L), ids(c.prefetch(files::get, 1000)));
  }

  private static List<Long> ids(List<FileRef> l) {
    Long[] out = new Long[l.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = l.get(i).id();
    }
    return Arrays.asList(out);
  }

  @Test
  public void filesOnAStragglerAreEvictedLastWhenKept() {
    for (String e : Policies.EVICTION) {
      for (boolean keep : new boolean[] {false, true}) {
        Csac c = csac(4, "cache-upon-access", e, 0, Long.MAX_VALUE, keep);
        // Four popular files on healthy DataNodes fill the cache.
        for (int round = 0; round < 5; round++) {
          for (long id = 1; id <= 4; id++) {
            FileRef f = file(id, 1, "ok" + id);
            c.update(f, c.query(f));
          }
        }
        c.setStragglers(Collections.singleton("slow"));
        // Four files on the straggler are read twice over, each read followed by reads of the
        // healthy files.
        int stragglerMisses = 0;
        for (int round = 0; round < 2; round++) {
          for (long id = 11; id <= 14; id++) {
            FileRef f = file(id, 1, "ok1", "slow");
            Decision d = c.query(f);
            stragglerMisses += d == Decision.CACHED ? 0 : 1;
            c.update(f, d);
            for (long h = 1; h <= 4; h++) {
              FileRef healthy = file(h, 1, "ok" + h);
              c.update(healthy, c.query(healthy));
            }
            assertTrue(e + " keep=" + keep, c.accountingHolds());
          }
        }
        if (keep) {
          assertEquals(e + ": only the first reads of the straggler's files miss", 4, stragglerMisses);
          for (long id = 1; id <= 4; id++) {
            assertFalse(e + ": healthy file " + id + " evicted first", c.isCached(id));
          }
          // With the cache full of kept files, the next one on the straggler evicts one of them.
          FileRef next = file(15, 1, "slow");
          assertEquals(e, 1, c.update(next, c.query(next)).size());
          assertTrue(c.isCached(15));
          // The straggler recovers: kept files go back to the eviction policy, and a healthy file
          // is admitted in place of one of them.
          c.setStragglers(Collections.<String>emptyList());
          assertEquals(e, 0, c.keptFiles());
          FileRef healthy = file(1, 1, "ok1");
          assertEquals(e, 1, c.update(healthy, c.query(healthy)).size());
          assertTrue(e + " accounting", c.accountingHolds());
        } else if (e.equals("lru")) {
          // The paper's G_e alone: LRU keeps the healthy files read since and evicts the
          // straggler's, so their second reads meet the straggler too.
          assertEquals(8, stragglerMisses);
        }
      }
    }
  }

  @Test
  public void randomWorkloadsKeepTheAccountingRightForEveryPolicy() {
    for (String e : Policies.EVICTION) {
      for (String a : Policies.ADMISSION) {
        for (boolean keep : new boolean[] {false, true}) {
          Random r = new Random(e.hashCode() ^ a.hashCode());
          Csac c = csac(50, a, e, 0.3, 1000, keep);
          for (int i = 0; i < 20_000; i++) {
            now.addAndGet(10);
            if (i % 500 == 0) {
              c.setStragglers(r.nextBoolean() ? Collections.<String>emptyList()
                  : Collections.singleton("dn" + r.nextInt(7)));
            }
            long id = (long) Math.abs(r.nextGaussian() * 60);
            FileRef f = file(id, 1 + id % 5);
            if (r.nextInt(100) == 0) {
              c.remove(id);
              continue;
            }
            Decision d = c.query(f);
            List<Long> evicted = c.update(f, d);
            assertFalse(e + "/" + a + "/" + keep + ": admitted file evicted itself", evicted.contains(id));
            for (long v : evicted) {
              assertFalse(c.isCached(v));
            }
            if (d == Decision.SHOULD_CACHE) {
              assertTrue(e + "/" + a, c.isCached(id));
            }
            assertTrue(e + "/" + a + " at step " + i, c.accountingHolds());
          }
        }
      }
    }
  }

  @Test
  public void badArgumentsAreNamed() {
    expect("cache capacity T must be > 0, got 0", () -> csac(0, "lru", 0));
    expect("prefetch ratio theta_p must be in [0, 1], got 1.5", () -> csac(10, "lru", 1.5));
    expect("prefetch ratio theta_p must be in [0, 1], got NaN", () -> csac(10, "lru", Double.NaN));
    expect("dfs.pocache.csac.eviction: unknown policy 'mru'; known: lru, lfu, arc, s3fifo, benefit",
        () -> Policies.eviction("dfs.pocache.csac.eviction", "mru", 10));
    expect("dfs.pocache.csac.admission: unknown policy 'never'; known: cache-upon-access, tinylfu, size-aware",
        () -> Policies.admission("dfs.pocache.csac.admission", "never", 10, 10));
    expect("weight of file 3 must be > 0, got 0", () -> new FileRef(3, 0, "dn1"));
  }

  private static void expect(String message, Runnable r) {
    try {
      r.run();
      fail("accepted: " + message);
    } catch (IllegalArgumentException e) {
      assertEquals(message, e.getMessage());
    }
  }
}
