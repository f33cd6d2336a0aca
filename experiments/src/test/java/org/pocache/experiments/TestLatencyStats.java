package org.pocache.experiments;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TestLatencyStats {
  @Test
  public void nearestRankPercentiles() {
    double[] v = new double[100];
    for (int i = 0; i < 100; i++) {
      v[i] = 100 - i; // 100 .. 1, unsorted on purpose
    }
    LatencyStats s = new LatencyStats(v);
    assertEquals(50.5, s.mean(), 1e-9);
    assertEquals(50, s.percentile(50), 0);
    assertEquals(95, s.percentile(95), 0);
    assertEquals(99, s.percentile(99), 0);
    assertEquals(100, s.percentile(100), 0);
    LatencyStats one = new LatencyStats(new double[] {7});
    assertEquals(7, one.percentile(50), 0);
    assertEquals(7, one.percentile(99), 0);
  }

  @Test(expected = IllegalArgumentException.class)
  public void emptyIsRejected() {
    new LatencyStats(new double[0]);
  }
}
