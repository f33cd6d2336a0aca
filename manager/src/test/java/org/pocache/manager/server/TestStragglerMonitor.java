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
  private final AtomicLong now = new AtomicLong(1_000_000);

  private StragglerMonitor monitor() {
    return new StragglerMonitor(detector(), detector(), 60_000, now::get);
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
    m.observe("dn0", 8 * MIB, millisFor(30));
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    m.observe("dn1", 8 * MIB, millisFor(31));
    m.observe("dn2", 8 * MIB, millisFor(29));
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
  }

  @Test
  public void eachSourceFindsItsOwnStraggler() throws IOException {
    StragglerMonitor m = monitor();
    for (int round = 0; round < StragglerMonitor.CONFIRMATIONS; round++) {
      for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3", "dn4", "dn5")) {
        m.heartbeat(dn, 8 * MIB, millisFor(dn.equals("dn4") ? 6.4 : 64), 8); // dn4: a slow disk
      }
    }
    assertEquals(Collections.singletonList("dn4"), m.getStragglers().dataNodes);
    // dn1's disk is fine, but clients see it at a tenth of the others (a bad link).
    for (int round = 0; round <= StragglerMonitor.CONFIRMATIONS; round++) {
      m.observe("dn0", 8 * MIB, millisFor(30));
      m.observe("dn1", 8 * MIB, millisFor(3));
      m.observe("dn2", 8 * MIB, millisFor(31));
      m.observe("dn3", 8 * MIB, millisFor(29));
    }
    assertEquals(Arrays.asList("dn1", "dn4"), m.getStragglers().dataNodes);
    assertEquals("median-mad", m.getStragglers().detector);
    // Operators see which source flagged each one.
    assertEquals(Collections.singletonList("dn4"), m.getStragglers().byHeartbeats);
    assertEquals(Collections.singletonList("dn1"), m.getStragglers().byClientReads);
  }

  /**
   * One slow interval of a healthy DataNode (two readers sharing it, a long read ending
   * in that interval) does not list it: every reader of its blocks would go to parity.
   */
  @Test
  public void oneSlowSampleDoesNotListADataNode() throws IOException {
    StragglerMonitor m = monitor();
    for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3", "dn4")) {
      m.heartbeat(dn, 8 * MIB, millisFor(dn.equals("dn2") ? 6.4 : 64), 8);
    }
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    m.heartbeat("dn2", 8 * MIB, millisFor(64), 8); // its next interval is normal
    m.heartbeat("dn2", 8 * MIB, millisFor(6.4), 8); // slow again, once
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);
    m.heartbeat("dn2", 8 * MIB, millisFor(6.4), 8); // and again: a straggler
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
    for (int round = 0; round < StragglerMonitor.CONFIRMATIONS; round++) {
      for (String dn : Arrays.asList("dn0", "dn1", "dn2", "dn3", "dn4")) {
        m.heartbeat(dn, 8 * MIB, millisFor(dn.equals("dn2") ? 6.4 : 64), 8);
      }
    }
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
    m.heartbeat("dn2", 8 * MIB, millisFor(64), 8);
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
    m.heartbeat("dn2", 8 * MIB, millisFor(6.4), 8); // slow again: the normal one was a fluke
    m.heartbeat("dn2", 8 * MIB, millisFor(64), 8);
    assertEquals(Collections.singletonList("dn2"), m.getStragglers().dataNodes);
    m.heartbeat("dn2", 8 * MIB, millisFor(64), 8); // two in a row: recovered
    assertEquals(Collections.emptyList(), m.getStragglers().dataNodes);

    m.heartbeat("dn2", 8 * MIB, millisFor(6.4), 8);
    m.heartbeat("dn2", 8 * MIB, millisFor(6.4), 8);
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
    m.observe("dn0", StragglerMonitor.MIN_CLIENT_SAMPLE_BYTES - 1, 1000); // too short to time: not a sample
    m.observe("dn1", 8 * MIB, millisFor(30));
    m.observe("dn2", 8 * MIB, millisFor(30));
    assertTrue(m.getStragglers().dataNodes.isEmpty()); // two samples: below the minimum of three
    try {
      m.observe("dn3", 8 * MIB, -1);
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
    new StragglerMonitor(d, d, 60_000, now::get);
  }
}
