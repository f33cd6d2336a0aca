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
package org.pocache.hdfs.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.lang3.StringUtils;
import org.junit.Test;
import org.pocache.manager.protocol.ReadReport;

/** The skip policy of proactive reads: history of late reads, probes, and the Manager's list. */
public class TestSlowSources {
  private static final List<String> A = Collections.singletonList("dn-a:9866");
  private static final List<String> B = Collections.singletonList("dn-b:9866");

  /** The first late read of a DataNode, and the first read while it is listed, say so at INFO once each. */
  @Test
  public void theFirstLateReadAndTheFirstListingOfEachDataNodeAreLoggedOnce() {
    org.apache.log4j.Logger.getLogger(PoCacheFileSystem.class).setLevel(org.apache.log4j.Level.INFO);
    org.apache.hadoop.test.GenericTestUtils.LogCapturer log = org.apache.hadoop.test.GenericTestUtils.LogCapturer
        .captureLogs(org.slf4j.LoggerFactory.getLogger(PoCacheFileSystem.class));
    try {
      Set<String> listed = new HashSet<>();
      SlowSources s = new SlowSources(() -> listed);
      for (int i = 0; i < 5; i++) {
        s.served(A, true);
        s.served(A, false);
        s.served(B, false);
        s.judging();
      }
      listed.add("dn-c:9866");
      for (int i = 0; i < 5; i++) {
        assertTrue(s.judging());
      }
      String out = log.getOutput();
      assertEquals(out, 1,
          StringUtils.countMatches(out, "a read of DataNode dn-a:9866 came late for this client (not listed"));
      assertEquals(out, 0, StringUtils.countMatches(out, "dn-b:9866"));
      assertEquals(out, 1,
          StringUtils.countMatches(out, "DataNode dn-c:9866 is on the Manager's straggler list (from its heartbeats)"));
    } finally {
      log.stopCapturing();
    }
  }

  @Test
  public void aDataNodeLateThreeOfFourTimesIsSkippedAndProbed() {
    Set<String> listed = new HashSet<>();
    SlowSources s = new SlowSources(() -> listed);
    assertFalse("nothing known yet", s.judging());
    s.served(A, true);
    s.served(A, false);
    s.served(A, true);
    assertTrue(s.judging());
    assertFalse("three outcomes are not a window", s.skip(A));
    s.served(A, true); // late 3 of the last 4
    int skips = 0;
    int probes = 0;
    for (int i = 0; i < 3 * SlowSources.PROBE_EVERY; i++) {
      if (s.skip(A)) {
        skips++;
      } else {
        probes++;
        s.served(A, true); // the probe was late again
      }
    }
    assertEquals(3, probes);
    assertEquals(3 * (SlowSources.PROBE_EVERY - 1), skips);
    assertEquals(skips, s.skipped());
    assertFalse("B has no history", s.skip(B));
  }

  /**
   * Listed on its heartbeats alone: listed, not on clients' reads, not backlogged, and not
   * late in this client's own last reads (the Manager's word in its history does not count).
   */
  @Test
  public void aDataNodeIsListedOnHeartbeatsAloneUntilClientsOrThisClientsReadsFindItSlow() {
    Set<String> listed = new HashSet<>();
    Set<String> byClients = new HashSet<>();
    SlowSources s = new SlowSources(() -> listed, () -> byClients);
    assertFalse("not listed", s.listedOnHeartbeatsAlone(A));
    listed.add(A.get(0));
    assertTrue(s.listedOnHeartbeatsAlone(A));
    s.skip(A); // the list's word enters A's history
    assertTrue("the Manager's word is not this client's", s.listedOnHeartbeatsAlone(A));
    s.served(A, false);
    assertTrue("on time for this client", s.listedOnHeartbeatsAlone(A));
    s.served(A, true);
    assertFalse("late in this client's own reads", s.listedOnHeartbeatsAlone(A));
    listed.add(B.get(0));
    byClients.add(B.get(0));
    assertFalse("listed on clients' reads", s.listedOnHeartbeatsAlone(B));
    byClients.clear();
    Runnable[] ends = new Runnable[SlowSources.MAX_BACKLOG];
    for (int i = 0; i < ends.length; i++) {
      ends[i] = s.abandoned(B);
    }
    assertFalse("backlogged", s.listedOnHeartbeatsAlone(B));
    for (Runnable end : ends) {
      end.run();
    }
    assertTrue(s.listedOnHeartbeatsAlone(B));
  }

  /**
   * A DataNode still running {@link SlowSources#MAX_BACKLOG} reads that parity made
   * unnecessary is skipped outright, with no probes, until one of them ends; pieces
   * with several replicas are not counted.
   */
  @Test
  public void aDataNodeWithABacklogOfAbandonedReadsIsSkippedWithoutProbes() {
    SlowSources s = new SlowSources(Collections::emptySet);
    assertFalse(s.judging());
    Runnable[] ends = new Runnable[SlowSources.MAX_BACKLOG];
    for (int i = 0; i < ends.length; i++) {
      assertFalse("backlog " + i, s.skip(A));
      ends[i] = s.abandoned(A);
    }
    assertTrue("a backlog is something to judge", s.judging());
    for (int i = 0; i < 4 * SlowSources.PROBE_EVERY; i++) {
      assertTrue("no probe while the backlog stands (" + i + ")", s.skip(A));
    }
    assertFalse("B has no backlog", s.skip(B));
    assertEquals(null, s.abandoned(Arrays.asList("dn-a:9866", "dn-b:9866")));
    ends[0].run();
    assertFalse("one ended: below the backlog", s.skip(A));
    ends[1].run();
    assertEquals(0, s.backlog());
    assertFalse(s.judging());
  }

  /**
   * One late read of a DataNode (a pause on busy cores) is cleared by its on-time reads of
   * short ranges too: a client whose positional reads never cover whole substripes would
   * otherwise suspect it, and race every read, for as long as it lives.
   */
  @Test
  public void shortReadsOnTimeClearALateOne() {
    SlowSources s = new SlowSources(Collections::emptySet);
    s.served(A, true);
    assertTrue(s.suspect(A));
    for (int i = 0; i < SlowSources.WINDOW - 1; i++) {
      s.onTime(A);
      assertTrue("on time " + (i + 1) + " of " + SlowSources.WINDOW, s.suspect(A));
    }
    s.onTime(A);
    assertFalse("a window on time", s.suspect(A));
    assertFalse(s.judging());
  }

  @Test
  public void shortReadsOnTimeDoNotOverruleTheList() {
    Set<String> listed = new HashSet<>(A);
    SlowSources s = new SlowSources(() -> listed);
    for (int i = 0; i < 2 * SlowSources.WINDOW; i++) {
      s.onTime(A);
    }
    assertTrue("still listed", s.suspect(A));
  }

  @Test
  public void anOnTimeProbeClearsTheHistory() {
    SlowSources s = new SlowSources(Collections::emptySet);
    for (int i = 0; i < 4; i++) {
      s.served(A, true);
    }
    assertTrue(s.skip(A));
    s.served(A, false); // e.g. read after all because its skip rested on stale history
    assertFalse(s.skip(A));
    assertFalse("a cleared history is forgotten", s.judging());
  }

  @Test
  public void twoLateOfFourIsNotEnough() {
    SlowSources s = new SlowSources(Collections::emptySet);
    s.served(A, true);
    s.served(A, false);
    s.served(A, true);
    s.served(A, false);
    assertFalse(s.skip(A));
  }

  @Test
  public void theManagersListSkipsOnlyWhenEveryReplicaIsOnIt() {
    Set<String> listed = new HashSet<>(Arrays.asList("dn-a:9866"));
    SlowSources s = new SlowSources(() -> listed);
    assertTrue(s.judging());
    assertTrue(s.skip(A));
    assertFalse("a healthy replica may serve it", s.skip(Arrays.asList("dn-a:9866", "dn-b:9866")));
    listed.add("dn-b:9866");
    assertTrue(s.skip(Arrays.asList("dn-a:9866", "dn-b:9866")));
    assertFalse("no location, no judgement", s.skip(Collections.<String>emptyList()));
  }

  @Test
  public void observationsAreReportedOnceTheyReachTheManagersMinimum() {
    SlowSources s = new SlowSources(Collections::emptySet);
    s.observed(A, 600 << 10, 0, 5_000_000);
    s.observed(B, 2 << 20, 0, 40_000_000);
    s.observed(Arrays.asList("dn-a:9866", "dn-b:9866"), 8 << 20, 0, 1); // which replica served is unknown
    List<ReadReport.Observation> first = s.drainObservations();
    assertEquals(1, first.size());
    assertEquals("dn-b:9866", first.get(0).getDataNode());
    assertEquals(2 << 20, first.get(0).getBytes());
    assertEquals(40.0, first.get(0).getMillis(), 1e-9);
    s.observed(A, 600 << 10, 10_000_000, 17_000_000); // A now has 1.2 MiB in 12 ms
    List<ReadReport.Observation> second = s.drainObservations();
    assertEquals(1, second.size());
    assertEquals("dn-a:9866", second.get(0).getDataNode());
    assertEquals(1200 << 10, second.get(0).getBytes());
    assertEquals(12.0, second.get(0).getMillis(), 1e-9);
    assertTrue(s.drainObservations().isEmpty());
  }

  @Test
  public void concurrentReadsOfOneDataNodeCountItsBusyTimeOnce() {
    SlowSources s = new SlowSources(Collections::emptySet);
    // Four 1 MiB reads at once, each taking 40 ms: the DataNode delivered 4 MiB in 40 ms.
    for (int r = 0; r < 4; r++) {
      s.observed(A, 1 << 20, r * 1_000_000L, 40_000_000L + r * 1_000_000L);
    }
    // Then one more after a pause: idle time between reads is not the DataNode's.
    s.observed(A, 1 << 20, 100_000_000L, 110_000_000L);
    List<ReadReport.Observation> o = s.drainObservations();
    assertEquals(1, o.size());
    assertEquals(5 << 20, o.get(0).getBytes());
    assertEquals(53.0, o.get(0).getMillis(), 1e-9); // 0-43 ms and 100-110 ms
  }

  @Test
  public void aLongReadInFlightIsReportedBeforeItEnds() {
    SlowSources s = new SlowSources(Collections::emptySet);
    long t0 = System.nanoTime();
    Runnable end = s.reading(A, 4 << 20);
    // The read began between t0 and now (a busy machine may pause between the two).
    double began = (System.nanoTime() - t0) / 1e6;
    assertTrue("too young to count", s.drainObservations(t0 + 500_000_000L).isEmpty());
    // Still under way after 5 s: at most 4 MiB in 5 s, reported, and again 5 s later.
    List<ReadReport.Observation> o =
        s.drainObservations(t0 + 5_000_000_000L);
    assertEquals(1, o.size());
    assertEquals(4 << 20, o.get(0).getBytes());
    assertEquals(5000.0 - began / 2, o.get(0).getMillis(), began / 2 + 0.001);
    o = s.drainObservations(t0 + 10_000_000_000L);
    assertEquals(10000.0 - began / 2, o.get(0).getMillis(), began / 2 + 0.001);
    end.run();
    assertTrue("an ended read is no longer in flight", s.drainObservations(t0 + 20_000_000_000L).isEmpty());
    assertEquals(null, s.reading(Arrays.asList("dn-a:9866", "dn-b:9866"), 1 << 20));
  }

  @Test
  public void manySpansAreFoldedWithoutLosingTime() {
    ReadObservations.Busy b = new ReadObservations.Busy();
    for (int r = 0; r < 2000; r++) {
      b.add(1000, r * 10L, r * 10L + 5); // 5 ns busy in every 10
    }
    long[] t = b.takeIfAtLeast(1, 0);
    assertEquals(2_000_000, t[0]);
    assertEquals(10_000, t[1]);
    assertEquals(null, b.takeIfAtLeast(1, 0));
  }

  @Test
  public void replicatedPiecesLeaveNoHistory() {
    SlowSources s = new SlowSources(Collections::emptySet);
    List<String> both = Arrays.asList("dn-a:9866", "dn-b:9866");
    for (int i = 0; i < 8; i++) {
      s.served(both, true);
    }
    assertFalse(s.judging());
    assertFalse(s.skip(A));
  }

  @Test
  public void aListedDataNodeIsProbedAndAnOnTimeReadOverrulesTheList() {
    Set<String> listed = new HashSet<>(Arrays.asList("dn-a:9866"));
    SlowSources s = new SlowSources(() -> listed);
    s.served(B, false); // this client's clock knows another DataNode's pace
    for (int i = 1; i < SlowSources.PROBE_EVERY; i++) {
      assertTrue("skip " + i, s.skip(A));
    }
    assertFalse("the " + SlowSources.PROBE_EVERY + "th is a probe", s.skip(A));
    s.served(A, false); // it was on time: recovered, whatever the Manager still says
    assertEquals(Collections.emptySet(), s.listed());
    for (int i = 0; i < 2 * SlowSources.PROBE_EVERY; i++) {
      assertFalse(s.skip(A));
      s.served(A, false);
    }
    s.served(A, true); // late again while listed: the list counts again
    assertEquals(listed, s.listed());
    assertTrue(s.skip(A));
    listed.clear(); // the Manager dropped it, but this client saw it late itself
    assertTrue(s.skip(A));
  }

  /**
   * A task that has read only the listed DataNode has timed nothing else: its own clock
   * was set by that DataNode's pace, so reads it calls on time do not overrule the list.
   * Once it has read another DataNode on time they do.
   */
  @Test
  public void onTimeOverrulesTheListOnlyWithAnotherDataNodeToCompareWith() {
    Set<String> listed = new HashSet<>();
    SlowSources s = new SlowSources(() -> listed);
    s.served(A, false); // streamed before the Manager listed it
    listed.add("dn-a:9866");
    for (int i = 0; i < 4; i++) {
      s.served(A, false);
    }
    assertEquals("nothing to compare with: the list stands", listed, s.listed());
    assertTrue(s.judging());
    s.served(B, false);
    s.served(A, false);
    assertEquals(Collections.emptySet(), s.listed());
    assertFalse("a DataNode this client overruled does not make its reads judge", s.judging());
  }

  @Test
  public void aDataNodeSkippedOnlyForTheListIsReadOnceTheManagerDropsIt() {
    Set<String> listed = new HashSet<>(Arrays.asList("dn-b:9866"));
    SlowSources s = new SlowSources(() -> listed);
    assertTrue(s.skip(B));
    listed.clear();
    assertFalse(s.skip(B));
    assertFalse("nothing left to judge", s.judging());
  }

  @Test
  public void piecesWhoseEveryReplicaIsListedAreProbedToo() {
    Set<String> listed = new HashSet<>(Arrays.asList("dn-a:9866", "dn-b:9866"));
    SlowSources s = new SlowSources(() -> listed);
    List<String> both = Arrays.asList("dn-a:9866", "dn-b:9866");
    int probes = 0;
    for (int i = 0; i < 2 * SlowSources.PROBE_EVERY; i++) {
      probes += s.skip(both) ? 0 : 1;
    }
    assertEquals(2, probes);
  }
  /**
   * Only this client's own late reads count toward {@code lateByOwnReads}, which lets a
   * listed DataNode's piece take the last parity piece: the Manager's word alone (a
   * suspect history, filled as if late) does not, and an on-time read clears it.
   */
  @Test
  public void lateByOwnReadsCountsThisClientsReadsOnly() {
    Set<String> listed = new HashSet<>(Arrays.asList("dn-a:9866"));
    SlowSources s = new SlowSources(() -> listed);
    assertTrue("the list's word skips", s.skip(A));
    assertFalse("but it is not this client's own", s.lateByOwnReads(A));
    s.served(A, true);
    s.served(A, true);
    assertFalse("two of its own reads late", s.lateByOwnReads(A));
    s.served(A, true);
    assertTrue("three of its own reads late", s.lateByOwnReads(A));
    s.served(A, false); // the straggler moved on
    assertFalse(s.lateByOwnReads(A));
    assertFalse("B was never read", s.lateByOwnReads(B));
    assertFalse("replicated pieces are not judged", s.lateByOwnReads(Arrays.asList("dn-a:9866", "dn-b:9866")));
  }
}
