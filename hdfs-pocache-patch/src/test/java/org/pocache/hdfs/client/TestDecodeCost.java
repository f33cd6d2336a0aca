package org.pocache.hdfs.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** The bound on how long a proactive read waits for a piece rather than decoding it. */
public class TestDecodeCost {
  private static final long MIB = 1 << 20;

  @Test
  public void theWaitFollowsMeasuredDecodesAndIsCapped() {
    for (int i = 0; i < 60; i++) {
      ProactiveReader.DecodeCost.measured(4 * MIB, 2_000_000); // 2 ms per 4 MiB
    }
    long fourMiB = ProactiveReader.DecodeCost.expectedNanos(4 * MIB);
    assertTrue("expected about 2 ms, got " + fourMiB + " ns", Math.abs(fourMiB - 2_000_000) < 20_000);
    assertEquals(fourMiB / 4, ProactiveReader.DecodeCost.expectedNanos(MIB), 1_000);
    assertEquals("nothing to decode, nothing to wait for", 0, ProactiveReader.DecodeCost.expectedNanos(0));
    assertEquals(ProactiveReader.DecodeCost.MAX_GRACE_NANOS, ProactiveReader.DecodeCost.expectedNanos(1L << 40));
    ProactiveReader.DecodeCost.measured(0, 5); // not a sample
    ProactiveReader.DecodeCost.measured(MIB, 0);
    assertEquals(fourMiB, ProactiveReader.DecodeCost.expectedNanos(4 * MIB));
  }
}
