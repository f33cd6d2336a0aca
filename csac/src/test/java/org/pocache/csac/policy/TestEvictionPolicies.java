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
package org.pocache.csac.policy;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** Each policy's defining behaviour, driven the way CSAC drives it. */
public class TestEvictionPolicies {

  /** Reads id; on a miss inserts it (weight 1), evicting while over capacity; returns the evicted id or -1. */
  private static long read(EvictionPolicy p, java.util.Set<Long> cache, int capacity, long id) {
    return readWeighted(p, cache, capacity, id, 1);
  }

  @Test
  public void lruEvictsTheLeastRecent() {
    Lru p = new Lru();
    java.util.Set<Long> c = new java.util.HashSet<>();
    read(p, c, 3, 1);
    read(p, c, 3, 2);
    read(p, c, 3, 3);
    read(p, c, 3, 1);
    assertEquals(2, read(p, c, 3, 4));
    assertEquals(3, p.victim(-1));
    assertEquals(1, p.victim(3)); // never the protected file
  }

  @Test
  public void lfuKeepsTheFrequentAndAgesOut() {
    Lfu p = new Lfu();
    java.util.Set<Long> c = new java.util.HashSet<>();
    for (int i = 0; i < 5; i++) {
      read(p, c, 2, 1); // file 1 read 5 times
    }
    read(p, c, 2, 2);
    assertEquals(2, read(p, c, 2, 3)); // 2 (count 1) goes, not 1
    // Aging: newcomers that keep coming eventually displace a file that was only popular once.
    long evictedOne = -1;
    for (long id = 10; id < 40 && evictedOne != 1; id++) {
      read(p, c, 2, id);
      if (read(p, c, 2, id) == 1) {
        evictedOne = 1;
      }
      if (!c.contains(1L)) {
        evictedOne = 1;
      }
    }
    assertEquals(1, evictedOne);
  }

  /** A popular file evicted by a burst of newcomers comes back with its count, ahead of them. */
  @Test
  public void lfuRemembersCountsOfEvictedFiles() {
    Lfu p = new Lfu();
    java.util.Set<Long> c = new java.util.HashSet<>();
    for (int i = 0; i < 4; i++) {
      read(p, c, 1, 1); // file 1: four reads
    }
    p.onEvict(1); // made room for something else
    c.remove(1L);
    read(p, c, 2, 2);
    read(p, c, 2, 2); // file 2: two reads
    read(p, c, 2, 1); // file 1 again: admitted with its five reads, not as a newcomer with one
    assertEquals(2, read(p, c, 2, 3)); // the two-read file goes, not file 1
  }

  @Test
  public void lfuHistoryIsBoundedByHalvingCounts() {
    Lfu p = new Lfu(4);
    for (long id = 1; id <= 5; id++) {
      p.onAccess(id, false); // one read each: halved to 0 and forgotten at the fifth
    }
    assertEquals(0, p.historySize());
    for (int i = 0; i < 4; i++) {
      p.onAccess(9, false);
    }
    for (long id = 10; id <= 13; id++) {
      p.onAccess(id, false);
    }
    assertEquals(1, p.historySize()); // file 9 keeps half its count; the one-read files are gone
  }

  /**
   * A one-block file's parity protects a block, a four-block file's four: with equal reads
   * the one-block file goes first, and it takes more than four times the reads to stay.
   */
  @Test
  public void benefitPerByteWeighsTheDataTheParityProtects() {
    BenefitPerByte p = new BenefitPerByte();
    p.onAccess(1, false);
    p.onInsert(1, 1, 1); // one block of parity for one block of data
    p.onAccess(4, false);
    p.onInsert(4, 1, 4); // one block of parity for four
    assertEquals(1, p.victim(-1));
    for (int i = 0; i < 3; i++) {
      p.onAccess(1, true); // four reads of file 1 weigh as much as one of file 4: ties go by recency
    }
    assertEquals(4, p.victim(-1));
    p.onAccess(4, true);
    assertEquals(1, p.victim(-1));
    for (int i = 0; i < 5; i++) {
      p.onAccess(1, true); // nine reads against two reads of four blocks' worth
    }
    assertEquals(4, p.victim(-1));
    assertEquals(1, p.victim(4)); // never the protected file
  }

  /** On files whose parity all protect the same multiple of itself, benefit orders as LFU does. */
  @Test
  public void benefitPerByteOrdersAsLfuOnFilesOfOneSize() {
    BenefitPerByte b = new BenefitPerByte();
    Lfu l = new Lfu();
    java.util.Set<Long> cb = new java.util.HashSet<>();
    java.util.Set<Long> cl = new java.util.HashSet<>();
    java.util.SplittableRandom r = new java.util.SplittableRandom(7);
    for (int i = 0; i < 5_000; i++) {
      long id = (long) Math.floor(Math.pow(r.nextDouble(), 3) * 200); // skewed
      long eb = readWeighted(b, cb, 20, id, 4);
      long el = read(l, cl, 20, id);
      assertEquals("read " + i + " of file " + id, el, eb);
    }
  }

  /** {@link #read} with a data weight for every file. */
  private static long readWeighted(EvictionPolicy p, java.util.Set<Long> cache, int capacity, long id, long data) {
    boolean hit = cache.contains(id);
    p.onAccess(id, hit);
    long evicted = -1;
    if (!hit) {
      if (cache.size() >= capacity) {
        evicted = p.victim(id);
        assertTrue(p.name() + " offered " + evicted + " not in " + cache, cache.remove(evicted));
        p.onEvict(evicted);
      }
      cache.add(id);
      p.onInsert(id, 1, data);
    }
    return evicted;
  }

  @Test
  public void arcResistsAScanOfOneTimeReads() {
    Arc p = new Arc(4);
    java.util.Set<Long> c = new java.util.HashSet<>();
    for (int round = 0; round < 3; round++) {
      read(p, c, 4, 1);
      read(p, c, 4, 2);
    }
    for (long id = 100; id < 130; id++) {
      read(p, c, 4, id); // a scan
    }
    assertTrue("frequent files survive the scan: " + c, c.contains(1L) && c.contains(2L));
  }

  @Test
  public void arcGhostHitsMoveTheTarget() {
    // With c = 2, |T1| + |B1| <= c leaves no room for a ghost after two new files; use c = 4.
    Arc p = new Arc(4);
    java.util.Set<Long> c = new java.util.HashSet<>();
    for (long id = 1; id <= 4; id++) {
      read(p, c, 4, id);
    }
    read(p, c, 4, 2);                 // 2 moves to T2
    assertEquals(1, read(p, c, 4, 5)); // T1 is over its target 0: its oldest, 1, goes to B1
    double before = p.target();
    read(p, c, 4, 1);                 // ghost hit in B1: favour recency
    assertTrue(p.target() > before);
    assertTrue(c.contains(1L));
  }

  @Test
  public void s3fifoEvictsOneHitWondersFirst() {
    S3Fifo p = new S3Fifo(10);
    java.util.Set<Long> c = new java.util.HashSet<>();
    for (long id = 1; id <= 10; id++) {
      read(p, c, 10, id);
    }
    read(p, c, 10, 1); // 1 is read again while in the small queue
    read(p, c, 10, 2);
    for (long id = 100; id < 108; id++) {
      read(p, c, 10, id);
    }
    assertTrue("re-read files stay: " + c, c.contains(1L) && c.contains(2L));
  }

  @Test
  public void everyPolicyNeverOffersTheProtectedFile() {
    for (String name : Policies.EVICTION) {
      EvictionPolicy p = Policies.eviction("k", name, 1);
      p.onAccess(5, false);
      p.onInsert(5, 1);
      assertEquals(name, -1, p.victim(5));
      assertEquals(name, 5, p.victim(6));
    }
  }
}
