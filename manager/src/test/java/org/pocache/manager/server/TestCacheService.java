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
package org.pocache.manager.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import org.junit.Test;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.DescriptorLookup;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ReadReport;

/**
 * The Manager's decisions on fakes (see {@link ManagerHarness}): what is served, when
 * it stops being served, and what Redis is left holding. No cluster, no redis-server,
 * no waiting: time moves when a test moves it.
 */
public class TestCacheService {

  @Test
  public void aCommittedWriteIsServedAndItsIndexEntryIsInRedis() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      ParityDescriptor d = h.writeCached("/a", 4);
      DescriptorLookup r = h.service.getDescriptor("/a");
      assertTrue(r.getDecision(), r.hasParity());
      assertEquals(d.getGeneration(), r.getParity().getGeneration());
      assertEquals(4 * ManagerHarness.BLOCK, r.getParity().getLength());
      h.tick(); // the index write runs on the housekeeping thread
      assertTrue(h.store.index().load().containsKey(d.getFileId()));
      assertEquals(1, h.service.metrics().hits.get());
    }
  }

  @Test
  public void aCommitRepeatedAfterItsAnswerWasLostIsAcknowledged() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      FileInfo open = h.namespace.put("/w", 0, false);
      ManagerHarness.ReservationOrRefusal r = h.admit("/w");
      assertNotNull(r.refusal, r.reservation);
      FileInfo f = h.namespace.put("/w", 4 * ManagerHarness.BLOCK, true, open.id);
      long bytes = h.storeParity(r.reservation.getParity(), f.length);
      h.service.commit(r.reservation.getId(), f.id, f.length, bytes, null);
      // The writer did not get the answer and asks again: the Manager says yes, not "no longer open".
      h.service.commit(r.reservation.getId(), f.id, f.length, bytes, null);
      assertTrue(h.service.getDescriptor("/w").hasParity());
      try {
        h.service.commit(r.reservation.getId(), f.id, f.length - 1, bytes, null);
        fail("a repeated commit with another length was acknowledged");
      } catch (IOException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("is no longer open: committed"));
      }
      try {
        h.service.abort(r.reservation.getId(), "the writer gave up");
        fail("a committed reservation was aborted");
      } catch (IOException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("is no longer open: committed"));
      }
      assertTrue(h.service.getDescriptor("/w").hasParity());
    }
  }

  @Test
  public void nothingIsServedWhileRedisIsDownAndServingResumesByItself() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      h.writeCached("/a", 4);
      h.store.setAvailable(false);
      h.tick();
      assertFalse(h.service.ready());
      DescriptorLookup r = h.service.getDescriptor("/a");
      assertFalse(r.hasParity());
      assertEquals("CACHE_UNAVAILABLE", r.getDecision());
      h.namespace.put("/b", 0, false);
      assertNull(h.admit("/b").reservation); // no admissions either
      h.store.setAvailable(true);
      h.tick();
      assertTrue(h.service.getDescriptor("/a").hasParity());
    }
  }

  @Test
  public void aRedisRestartDropsEverythingAndDeletesWhatItBringsBack() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      ParityDescriptor d = h.writeCached("/a", 4);
      h.store.restart();
      h.storeParity(d, 4 * ManagerHarness.BLOCK); // as a persisted Redis may bring old values back
      h.tick();
      assertEquals(1, h.service.metrics().redisRestarts.get());
      assertFalse(h.service.getDescriptor("/a").hasParity());
      assertEquals("old values survived the restart", 0, h.store.valueCount(d.getFileId()));
    }
  }

  @Test
  public void aRestartedManagerKeepsWhatIsStillTrueAndDropsTheRest() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      ParityDescriptor same = h.writeCached("/same", 4);
      ParityDescriptor changed = h.writeCached("/changed", 4);
      ParityDescriptor lost = h.writeCached("/lost", 4);
      h.tick();
      h.stopService();
      h.namespace.put("/changed", 4 * ManagerHarness.BLOCK, true, changed.getFileId()); // rewritten meanwhile
      h.store.delete(h.store.key(lost.getFileId(), lost.getGeneration(), 0, 0, 0)); // a key gone from Redis
      h.start();
      assertTrue(h.service.ready());
      assertTrue(h.service.getDescriptor("/same").hasParity());
      assertEquals(same.getGeneration(), h.service.getDescriptor("/same").getParity().getGeneration());
      assertFalse(h.service.getDescriptor("/changed").hasParity());
      assertFalse(h.service.getDescriptor("/lost").hasParity());
      assertEquals(0, h.store.valueCount(changed.getFileId()));
      assertFalse(h.store.index().load().containsKey(lost.getFileId()));
    }
  }

  @Test
  public void reservationsExpireWhenTheClockPassesTheirTtl() throws Exception {
    try (ManagerHarness h = new ManagerHarness(PoCacheConfigKeys.MANAGER_RESERVATION_TTL_KEY, "60000")) {
      h.namespace.put("/w", 0, false);
      ManagerHarness.ReservationOrRefusal r = h.admit("/w");
      assertNotNull(r.refusal, r.reservation);
      h.advance(59_999);
      h.tick();
      assertEquals(1, h.service.getReport().getReservations());
      h.advance(1);
      h.tick();
      assertEquals(0, h.service.getReport().getReservations());
      assertEquals(1, h.service.metrics().expiredReservations.get());
      FileInfo f = h.namespace.put("/w", ManagerHarness.BLOCK, true, r.reservation.getParity().getFileId());
      try {
        h.service.commit(r.reservation.getId(), f.id, f.length, 1, null);
        fail("committed an expired reservation");
      } catch (IOException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("is no longer open: expired"));
      }
    }
  }

  @Test
  public void aReservationGrowsWithItsFileAndEvictsForIt() throws Exception {
    long capacity = 4 * ManagerHarness.BLOCK; // room for the parity of 4 stripes at m = 1
    try (ManagerHarness h = new ManagerHarness(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(capacity))) {
      ParityDescriptor old = h.writeCached("/old", 12); // 3 stripes of parity
      FileInfo open = h.namespace.put("/growing", 0, false);
      assertNotNull(h.admit("/growing").reservation); // one stripe: fits beside /old
      assertTrue(h.service.getDescriptor("/old").hasParity());
      h.namespace.put("/growing", 8 * ManagerHarness.BLOCK, false, open.id); // 2 stripes written, a third begun
      h.tick();
      assertFalse("the older file kept its parity", h.service.getDescriptor("/old").hasParity());
      assertEquals(0, h.store.valueCount(old.getFileId()));
    }
  }

  /**
   * The default eviction (benefit) weighs what a file's parity protects: a block of parity
   * for four blocks of data outstays a block for two, though the two-block file came later
   * (LRU would evict the four-block file). The Manager hands CSAC each file's length.
   */
  @Test
  public void theDefaultEvictionKeepsTheParityThatProtectsMoreData() throws Exception {
    long capacity = 2 * ManagerHarness.BLOCK;
    try (ManagerHarness h = new ManagerHarness(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(capacity))) {
      h.writeCached("/four", 4);
      h.writeCached("/two", 2);
      h.writeCached("/next", 4); // a block of parity more than there is room for
      assertTrue("the four-block file kept its parity", h.service.getDescriptor("/four").hasParity());
      assertFalse("the two-block file lost its parity", h.service.getDescriptor("/two").hasParity());
    }
  }

  @Test
  public void deletedFilesLoseTheirParityInTheSweepAndOnAsking() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      ParityDescriptor a = h.writeCached("/dir/a", 4);
      ParityDescriptor b = h.writeCached("/dir/b", 4);
      h.namespace.delete("/dir/a");
      h.tick(); // the sweep's first round visits every cached file
      assertEquals(0, h.store.valueCount(a.getFileId()));
      assertFalse(h.store.index().load().containsKey(a.getFileId()));
      h.namespace.delete("/dir/b");
      assertEquals("/dir: parity of 1 deleted file dropped", h.service.forgetDeleted("/dir"));
      h.tick();
      assertEquals(0, h.store.valueCount(b.getFileId()));
    }
  }

  @Test
  public void aFileCsacAdmitsOnReadGoesToTheReaderAndBackToTheWorkerOnAbort() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      h.file("/r", 4);
      DescriptorLookup r = h.service.getDescriptor("/r", true);
      assertEquals("FILLING", r.getDecision());
      assertTrue(r.hasFill());
      assertTrue(h.filler.taken().isEmpty());
      h.service.abort(r.getFill().getId(), "the reader did not read it all");
      assertEquals(1, h.filler.taken().size());
      assertEquals(r.getFill().getParity().getGeneration(), h.filler.taken().get(0).getGeneration());
    }
  }

  /**
   * A file shorter than dfs.pocache.cache.read.min.blocks (its parity as large as its data)
   * is filled on a read miss only while a straggler holds one of its blocks.
   */
  @Test
  public void aShortFileIsFilledOnReadOnlyWhileAStragglerHoldsIt() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      h.file("/short", 1); // its one block on 127.0.0.1:9866
      h.file("/long", 4);
      DescriptorLookup r = h.service.getDescriptor("/short", true);
      assertEquals("SHORT_FILE", r.getDecision());
      assertFalse(r.hasFill());
      assertTrue(h.filler.taken().isEmpty());
      assertEquals("FILLING", h.service.getDescriptor("/long", true).getDecision());

      for (int round = 0; round < StragglerMonitor.CONFIRMATIONS + 1; round++) {
        h.now.addAndGet(2000);
        for (int port = 9866; port <= 9870; port++) {
          double millis = port == 9866 ? 8000 / 6.4 : 8000 / 64.0; // 8 MiB at 6.4 or 64 MiB/s
          h.stragglers.heartbeat("127.0.0.1:" + port, 8L << 20, millis, 8);
        }
      }
      h.tick();
      assertEquals(java.util.Collections.singletonList("127.0.0.1:9866"), h.stragglers.getStragglers().dataNodes);
      assertEquals("FILLING", h.service.getDescriptor("/short", true).getDecision());
    }
    try (ManagerHarness h = new ManagerHarness(PoCacheConfigKeys.CACHE_READ_MIN_BLOCKS_KEY, "1")) {
      h.file("/short", 1);
      assertEquals("FILLING", h.service.getDescriptor("/short", true).getDecision());
    }
  }

  @Test
  public void aFillTheWorkerRefusesEndsAtOnce() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      h.filler.accept = false;
      h.file("/r", 4);
      assertEquals("FILLING", h.service.getDescriptor("/r").getDecision());
      assertEquals(0, h.service.getReport().getReservations());
      assertEquals(1, h.service.getReport().getFailedFills());
    }
  }

  @Test
  public void aReportOfCorruptParityDropsItOnlyForTheGenerationReported() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      ParityDescriptor d = h.writeCached("/a", 4);
      h.service.reportRead(new ReadReport(d.getFileId(), d.getGeneration() - 1, ReadReport.Outcome.PARITY_CORRUPT));
      assertTrue(h.service.getDescriptor("/a").hasParity());
      h.service.reportRead(new ReadReport(d.getFileId(), d.getGeneration(), ReadReport.Outcome.PARITY_CORRUPT));
      assertFalse(h.service.getDescriptor("/a").hasParity());
      h.tick();
      assertEquals(0, h.store.valueCount(d.getFileId()));
    }
  }

  @Test
  public void protectedParityIsDroppedOnAReportOnlyIfTheManagerFindsItBad() throws Exception {
    try (ManagerHarness h = new ManagerHarness(PoCacheConfigKeys.PARITY_PROTECTION_KEY, "integrity")) {
      h.namespace.put("/p", 0, false);
      ManagerHarness.ReservationOrRefusal r = h.admit("/p");
      FileInfo f = h.namespace.put("/p", 4 * ManagerHarness.BLOCK, true, r.reservation.getParity().getFileId());
      try {
        h.service.commit(r.reservation.getId(), f.id, f.length, 1, null);
        fail("protected parity committed without digests");
      } catch (IOException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("protected parity needs the digests of its values"));
      }
      assertEquals(0, h.service.getReport().getReservations());
    }
  }

  @Test
  public void aCapacityAboveRedisMaxmemoryIsRefusedUntilRedisHasRoom() throws Exception {
    org.pocache.cache.InMemoryParityStore store = new org.pocache.cache.InMemoryParityStore();
    store.setMaxMemory(1 << 20);
    try (ManagerHarness h = new ManagerHarness(store, PoCacheConfigKeys.CACHE_CAPACITY_KEY, "2097152")) {
      assertFalse(h.service.ready());
      assertFalse(h.service.getReport().isRedisHealthy());
      store.setMaxMemory(4 << 20);
      h.tick();
      assertTrue(h.service.ready());
    }
  }

  @Test
  public void anOperatorsEvictDropsParityAndReservationsAlike() throws Exception {
    try (ManagerHarness h = new ManagerHarness()) {
      ParityDescriptor d = h.writeCached("/a", 4);
      String said = h.service.evict("/a");
      assertTrue(said, said.startsWith("/a: evicted (CACHED, "));
      assertEquals("/a: not cached", h.service.evict("/a"));
      h.tick();
      assertEquals(0, h.store.valueCount(d.getFileId()));
      assertEquals(0, h.service.getReport().getFilesCached());
    }
  }
}
