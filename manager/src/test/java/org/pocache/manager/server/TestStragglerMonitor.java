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
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.Test;
import org.pocache.csac.detect.Detectors;
import org.pocache.csac.detect.StragglerDetector;
import org.pocache.manager.PoCacheConfigKeys;

/**
 * Heartbeats (a DataNode's own read time) and client observations (the whole read
 * as a client saw it) are judged apart: each finds its own stragglers, and neither
 * makes a healthy DataNode look slow next to the other.
 */
public class TestStragglerMonitor {
  private static final long MIB = 1 << 20;
  /** Half of a 3 s heartbeat interval, as the Manager sets it. */
  private static final long GAP = 1500;
  private final AtomicLong now = new AtomicLong(1_000_000);

  private StragglerMonitor monitor() {
    return new StragglerMonitor(detector(), TestStragglerMonitor::detector, 60_000, 3000, now::get);
  }

  /** Two clients (users on hosts of their own) that saw the same. */
  private static void observe(StragglerMonitor m, String dn, long bytes, double millis) throws IOException {
    m.observe("alice@10.0.0.1", dn, bytes, millis);
    m.observe("bob@10.0.0.2", dn, bytes, millis);
  }

  private static StragglerDetector detector() {
    return Detectors.create(PoCacheConfigKeys.STRAGGLER_DETECTOR_KEY, "median-mad", 3, 10_000, 60_000, 0.3);
  }

  /** {@code mibPerSecond} as bytes and milliseconds for 8 MiB. */
  private static double millisFor(double mibPerSecond) {
    return 8 * 1000.0 / mibPerSecond;
  }

  @Test
  public void aClientsSlowerViewOfAHealthyDataNodeIsNotComparedWithHeartbeats() throws IOException {
    StragglerMonitor m = monitor();
    for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3", "dn4", "dn5")) {
      m.heartbeat(dn, 8 * MIB, millisFor(64), 8); // every disk at 64 MiB/s
    }
    // A client saw two of them at 30 MiB/s (network, queueing): half the disk rate,
    // which next to the other four DataNodes' heartbeats would look like a straggler.
    observe(m, "dn0", 8 * MIB, millisFor(30));
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    observe(m, "dn1", 8 * MIB, millisFor(31));
    observe(m, "dn2", 8 * MIB, millisFor(29));
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
  }

  @Test
  public void eachSourceFindsItsOwnStraggler() throws IOException {
    StragglerMonitor m = monitor();
    for (int round = 0; round < StragglerMonitor.CONFIRMATIONS; round++) {
      now.addAndGet(GAP);
      for (String dn : Arrays.asList("dn0", "dn2", "dn3", "dn4", "dn5")) { // dn1 runs no plugin
        m.heartbeat(dn, 8 * MIB, millisFor(dn.equals("dn4") ? 6.4 : 64), 8); // dn4: a slow disk
      }
    }
    assertEquals(Collections.singletonList("dn4"), m.getStragglers().dataNodes);
    // Clients see dn1 at a tenth of the others, and nothing of its own says otherwise.
    for (int round = 0; round <= StragglerMonitor.CONFIRMATIONS; round++) {
      now.addAndGet(GAP);
      observe(m, "dn0", 8 * MIB, millisFor(30));
      observe(m, "dn1", 8 * MIB, millisFor(3));
      observe(m, "dn2", 8 * MIB, millisFor(31));
      observe(m, "dn3", 8 * MIB, millisFor(29));
    }
    assertEquals(Arrays.asList("dn1", "dn4"), m.getStragglers().dataNodes);
    assertEquals("median-mad", m.getStragglers().detector);
    // Operators see which source flagged each one.
    assertEquals(Collections.singletonList("dn4"), m.getStragglers().byHeartbeats);
    assertEquals(Collections.singletonList("dn1"), m.getStragglers().byClientReads);
  }

  /**
   * Clients that share a DataNode each see it slow; its heartbeats, at the others' pace,
   * tell busy from slow. Once its heartbeats stop (stuck behind a bad link), client
   * reads list it on their own.
   */
  @Test
  public void aBusyDataNodeItsHeartbeatsVouchForIsNotListedOnClientReads() throws IOException {
    StragglerMonitor m = monitor();
    for (int round = 0; round <= StragglerMonitor.CONFIRMATIONS; round++) {
      now.addAndGet(GAP);
      for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3")) {
        m.heartbeat(dn, 8 * MIB, millisFor(64), 8);
      }
      observe(m, "dn0", 8 * MIB, millisFor(30));
      observe(m, "dn1", 8 * MIB, millisFor(3)); // five readers share it
      observe(m, "dn2", 8 * MIB, millisFor(31));
      observe(m, "dn3", 8 * MIB, millisFor(29));
    }
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    for (int round = 0; round < 4; round++) { // dn1's heartbeats stop for 6 s
      now.addAndGet(GAP);
      for (String dn : Arrays.asList("dn0", "dn2", "dn3")) {
        m.heartbeat(dn, 8 * MIB, millisFor(64), 8);
      }
      observe(m, "dn0", 8 * MIB, millisFor(30));
      observe(m, "dn1", 8 * MIB, millisFor(3));
      observe(m, "dn2", 8 * MIB, millisFor(31));
    }
    now.addAndGet(1);
    assertEquals(Collections.singletonList("dn1"), m.getStragglers().dataNodes);
  }

  /**
   * When every DataNode's readers compute as fast as they read (MapReduce tasks), the
   * heartbeats measure the readers: a straggler's, at its one reader's pace, looks like
   * its peers' and is not flagged. It sends no faster than its clients get, so it does
   * not vouch for itself against the clients that wait on it.
   */
  @Test
  public void aDataNodeSendingAtItsSlowClientsPaceIsNotVouchedFor() throws IOException {
    StragglerMonitor m = monitor();
    for (int round = 0; round <= StragglerMonitor.CONFIRMATIONS; round++) {
      now.addAndGet(GAP);
      m.heartbeat("dn0", 8 * MIB, millisFor(1.0), 8);
      m.heartbeat("dn1", 8 * MIB, millisFor(0.9), 8);
      m.heartbeat("dn2", 8 * MIB, millisFor(0.8), 8); // the straggler, at the pace of slow consumers
      m.heartbeat("dn3", 8 * MIB, millisFor(1.1), 8);
      m.heartbeat("dn4", 8 * MIB, millisFor(0.95), 8);
      observe(m, "dn0", 8 * MIB, millisFor(8));
      observe(m, "dn1", 8 * MIB, millisFor(7.5));
      observe(m, "dn2", 8 * MIB, millisFor(0.8));
      observe(m, "dn3", 8 * MIB, millisFor(8.2));
    }
    assertEquals(Collections.emptyList(), m.getStragglers().byHeartbeats);
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().byClientReads);
  }

  /** One heartbeat interval (3 s later) of five DataNodes, dn2 at {@code dn2Rate} MiB/s, the rest at 64. */
  private void interval(StragglerMonitor m, double dn2Rate) throws IOException {
    now.addAndGet(3000);
    for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3", "dn4")) {
      m.heartbeat(dn, 8 * MIB, millisFor(dn.equals("dn2") ? dn2Rate : 64), 8);
    }
  }

  /**
   * One slow interval of a healthy DataNode (two readers sharing it, a long read ending
   * in that interval) does not list it: every reader of its blocks would go to parity.
   */
  @Test
  public void oneSlowSampleDoesNotListADataNode() throws IOException {
    StragglerMonitor m = monitor();
    interval(m, 24); // flagged, but not far enough below the others to be sure
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    interval(m, 64); // its next interval is normal
    interval(m, 24); // slow again, once
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    interval(m, 24); // and again: a straggler
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
  }

  /** A few short reads are no sample: they time the first packets, not the rate. */
  @Test
  public void aHeartbeatOfAFewShortReadsIsNotJudged() throws IOException {
    StragglerMonitor m = monitor();
    interval(m, 64);
    now.addAndGet(3000);
    for (String dn : Arrays.asList("dn0", "dn1", "dn3", "dn4")) {
      m.heartbeat(dn, 8 * MIB, millisFor(64), 8);
    }
    m.heartbeat("dn2", 640 << 10, 280, 2); // 2.2 MiB/s, but only 280 ms of it
    m.heartbeat("dn2", 640 << 10, 280, 2);
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    m.heartbeat("dn2", 640 << 10, 1000, 2); // a whole second busy for that little: slow
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
  }

  /**
   * A heartbeat at a fifth of the others' rate or less lists its DataNode at once: a
   * tenth-speed DataNode is listed one heartbeat after its first wholly slow interval.
   */
  @Test
  public void oneFarSlowerHeartbeatListsADataNodeAtOnce() throws IOException {
    StragglerMonitor m = monitor();
    interval(m, 64);
    interval(m, 16); // a quarter of the others: flagged, not severe
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    interval(m, 64);
    interval(m, 6.4);
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
    interval(m, 64);
    interval(m, 64);
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    // Clients' views never list on one sample: clients sharing a DataNode each see it slow.
    for (String dn : Arrays.asList("dn0", "dn1", "dn3")) {
      observe(m, dn, 8 * MIB, millisFor(30));
    }
    now.addAndGet(GAP);
    observe(m, "dn9", 8 * MIB, millisFor(1)); // no heartbeats of its own to vouch for it
    assertEquals(Collections.emptyList(), m.getStragglers().byClientReads);
  }

  /**
   * Flagged samples that arrive together (a client's report of reads under way and the
   * report of the stream that ends them) are one confirmation, not two.
   */
  @Test
  public void flaggedSamplesInOneBurstConfirmOnce() throws IOException {
    StragglerMonitor m = monitor();
    for (String dn : Arrays.asList("dn0", "dn1", "dn3")) {
      observe(m, dn, 8 * MIB, millisFor(30));
    }
    observe(m, "dn2", 8 * MIB, millisFor(3));
    now.addAndGet(1);
    observe(m, "dn2", 8 * MIB, millisFor(3));
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    now.addAndGet(GAP);
    observe(m, "dn2", 8 * MIB, millisFor(3));
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
  }

  /**
   * Nor does one normal sample take a straggler off the list (an interval in which
   * every DataNode was slow, a heartbeat that waited behind the straggler's backlog);
   * two in a row do, and so does silence for the report expiry.
   */
  @Test
  public void aStragglerLeavesTheListAfterTwoNormalSamplesOrSilence() throws IOException {
    StragglerMonitor m = monitor();
    interval(m, 6.4);
    interval(m, 6.4);
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
    interval(m, 64);
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
    interval(m, 6.4); // slow again: the normal one was a fluke
    interval(m, 64);
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
    interval(m, 64); // two in a row: recovered
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);

    interval(m, 6.4);
    interval(m, 6.4);
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
    now.addAndGet(60_000); // dn2 goes quiet (it serves nothing), the others keep reporting
    for (String dn : Arrays.asList("dn0", "dn1", "dn3", "dn4")) {
      m.heartbeat(dn, 8 * MIB, millisFor(64), 8);
    }
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
    now.addAndGet(1);
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
  }

  @Test
  public void shortClientSamplesAreIgnoredAndBadOnesNamed() throws IOException {
    StragglerMonitor m = monitor();
    observe(m, "dn0", StragglerMonitor.MIN_CLIENT_SAMPLE_BYTES - 1, 1000); // too short to time: not a sample
    observe(m, "dn1", 8 * MIB, millisFor(30));
    observe(m, "dn2", 8 * MIB, millisFor(30));
    assertTrue(m.getStragglers().dataNodes.isEmpty()); // two samples: below the minimum of three
    try {
      observe(m, "dn3", 8 * MIB, -1);
      fail("a negative read time was accepted");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("dn3") && e.getMessage().contains("read report"));
    }
    try {
      m.heartbeat("", 1, 1, 1);
      fail("a heartbeat without a DataNode was accepted");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("without a DataNode"));
    }
  }

  @Test(expected = IllegalArgumentException.class)
  public void oneDetectorCannotServeBothSources() {
    StragglerDetector d = detector();
    new StragglerMonitor(d, () -> d, 60_000, 3000, now::get);
  }

  /**
   * One user who invents reads (the victim served 2 MiB in 100 s, the others 64 MiB in
   * 0.1 s, one report every 200 ms) lists nobody, however long it goes on, and does not
   * change what an honest client's reads of the victim count for.
   */
  @Test
  public void oneUsersForgedSlowReportsListNobody() throws IOException {
    StragglerMonitor m = monitor();
    for (int call = 0; call < 500; call++) { // 100 s of forged reports
      now.addAndGet(200);
      m.observe("mallory@10.0.0.9", "dn2", 2 * MIB, 100_000);
      for (String dn : Arrays.asList("dn0", "dn1", "dn3", "dn4")) {
        m.observe("mallory@10.0.0.9", dn, 64 * MIB, 100);
      }
      if (call % 10 == 0) { // an honest client reads every DataNode at one pace
        for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3", "dn4")) {
          m.observe("bob@10.0.0.2", dn, 8 * MIB, millisFor(64));
        }
      }
      assertEquals("listed after " + (call + 1) + " forged reports", Collections.emptyList(),
          m.getStragglers().dataNodes);
    }
  }

  /** Client reads list a DataNode once two clients each list it on their own reads; one is not enough. */
  @Test
  public void aSecondClientConfirmsWhatTheFirstSaw() throws IOException {
    StragglerMonitor m = monitor();
    for (int round = 0; round <= StragglerMonitor.CONFIRMATIONS; round++) {
      now.addAndGet(GAP);
      for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3")) {
        m.observe("alice@10.0.0.1", dn, 8 * MIB, millisFor(dn.equals("dn2") ? 3 : 30));
      }
    }
    assertEquals("one client's word", Collections.emptyList(), m.getStragglers().dataNodes);
    for (int round = 0; round <= StragglerMonitor.CONFIRMATIONS; round++) {
      now.addAndGet(GAP);
      for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3")) {
        m.observe("alice@10.0.0.3", dn, 8 * MIB, millisFor(dn.equals("dn2") ? 3 : 30)); // same user, other host
      }
    }
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().byClientReads);
  }

  /**
   * One client's view is borne out by the DataNode's own heartbeat when it sent no faster
   * than that client got (tasks on one host, all the same client, reading a straggler at
   * its pace); a heartbeat that sent far more than the client claims does not bear it out.
   */
  @Test
  public void oneClientListsADataNodeItsOwnHeartbeatsBearOut() throws IOException {
    StragglerMonitor m = monitor();
    for (int round = 0; round <= StragglerMonitor.CONFIRMATIONS; round++) {
      now.addAndGet(GAP);
      for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3", "dn4")) {
        m.heartbeat(dn, 8 * MIB, millisFor(dn.equals("dn2") ? 0.8 : 1.0), 8); // all at their readers' pace
      }
      for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3")) {
        m.observe("tasks@10.0.0.1", dn, 8 * MIB, millisFor(dn.equals("dn2") ? 0.8 : 8));
      }
    }
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().byClientReads);

    StragglerMonitor forged = monitor();
    for (int round = 0; round <= StragglerMonitor.CONFIRMATIONS; round++) {
      now.addAndGet(GAP);
      for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3", "dn4")) {
        forged.heartbeat(dn, 8 * MIB, millisFor(1.0), 8);
      }
      forged.observe("mallory@10.0.0.9", "dn2", 2 * MIB, 100_000); // 0.02 MiB/s, against its heartbeat's 1
      for (String dn : Arrays.asList("dn0", "dn1", "dn3")) {
        forged.observe("mallory@10.0.0.9", dn, 64 * MIB, 100);
      }
    }
    assertEquals(Collections.emptyList(), forged.getStragglers().dataNodes);
  }
}
