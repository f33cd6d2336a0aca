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
package org.pocache.csac.detect;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.util.Collections;
import java.util.Random;
import java.util.Set;
import org.junit.Test;

public class TestDetectors {
  private static final long MIB = 1 << 20;

  /** n DataNodes at ~100 MiB/s with jitter, dn0 at {@code slowRate} MiB/s; one interval each at time t. */
  private static void interval(StragglerDetector d, int n, double slowRate, long t, Random r) {
    for (int i = 0; i < n; i++) {
      double rate = i == 0 ? slowRate : 100 * (1 + 0.02 * r.nextGaussian());
      d.report("dn" + i, (long) (rate * MIB), 1000, t);
    }
  }

  @Test
  public void threeSigmaCannotFlagOneStragglerAmongTenOrFewer() {
    for (int n = 3; n <= 10; n++) {
      ThreeSigma d = new ThreeSigma(3, 60_000, 60_000);
      interval(d, n, 0.001, 0, new Random(n)); // as slow as it gets
      assertEquals("n = " + n, Collections.emptySet(), d.stragglers(0));
    }
    // The arithmetic behind it: one point among n is at most sqrt(n - 1) sigmas from the mean.
    double[] worst = new double[10];
    worst[0] = -1e9;
    double mean = worst[0] / 10;
    double var = 0;
    for (double x : worst) {
      var += (x - mean) * (x - mean);
    }
    assertEquals(3.0, (mean - worst[0]) / Math.sqrt(var / 10), 1e-9);
  }

  @Test
  public void threeSigmaFlagsAClearStragglerAmongThirteen() {
    ThreeSigma d = new ThreeSigma(3, 60_000, 60_000);
    interval(d, 13, 10, 0, new Random(1));
    assertEquals(Collections.singleton("dn0"), d.stragglers(0));
  }

  @Test
  public void medianMadFindsAStragglerAmongFewAndIgnoresJitter() {
    MedianMad d = new MedianMad(3, 60_000, 60_000, 0.3);
    interval(d, 4, 20, 0, new Random(2));
    assertEquals(Collections.singleton("dn0"), d.stragglers(0));
    MedianMad calm = new MedianMad(3, 60_000, 60_000, 0.3);
    interval(calm, 13, 85, 0, new Random(3)); // 15% below the others: jitter, not a straggler
    assertEquals(Collections.emptySet(), calm.stragglers(0));
  }

  /**
   * Heartbeat rates (MiB/s) of five DataNodes in one interval on the multi-process
   * cluster, DataNode 1 shaped to a tenth: the healthy ones spread by a factor of
   * two, which on a linear scale put the bar below zero.
   */
  @Test
  public void medianMadFindsAStragglerAmongWidelySpreadHealthyRates() {
    double[][] intervals = {{0.59, 4.74, 7.28, 4.27, 9.12}, {0.83, 10.52, 8.83, 5.82, 6.19},
        {0.76, 7.56, 4.89}}; // only three served anything: the straggler's distance is half the deviations
    for (double[] rates : intervals) {
      MedianMad d = new MedianMad(3, 60_000, 60_000, 0.75);
      for (int i = 0; i < rates.length; i++) {
        d.report("dn" + i, (long) (rates[i] * MIB), 1000, 0);
      }
      assertEquals(java.util.Arrays.toString(rates), Collections.singleton("dn0"), d.stragglers(0));
    }
    // A healthy DataNode at half the median (two readers sharing it) is not flagged.
    MedianMad d = new MedianMad(3, 60_000, 60_000, 0.75);
    double[] healthy = {3.3, 6.1, 7.5, 8.0, 11.6};
    for (int i = 0; i < healthy.length; i++) {
      d.report("dn" + i, (long) (healthy[i] * MIB), 1000, 0);
    }
    assertEquals(Collections.emptySet(), d.stragglers(0));
  }

  @Test
  public void reportsExpireAndRecoveryClears() {
    MedianMad d = new MedianMad(3, 10_000, 30_000, 0.3);
    Random r = new Random(4);
    interval(d, 5, 5, 0, r);
    assertEquals(Collections.singleton("dn0"), d.stragglers(0));
    // dn0 goes quiet (no samples); the others keep reporting. Its last sample (t = 0)
    // stays fresh until 10 s, so it is last flagged then; the report expires 30 s later.
    for (long t = 5_000; t <= 45_000; t += 5_000) {
      for (int i = 1; i < 5; i++) {
        d.report("dn" + i, 100 * MIB, 1000, t);
      }
      Set<String> s = d.stragglers(t);
      assertEquals("t = " + t, t <= 40_000 ? Collections.singleton("dn0") : Collections.emptySet(), s);
    }
    // A fresh normal sample clears a flag at once.
    interval(d, 5, 5, 50_000, r);
    assertEquals(Collections.singleton("dn0"), d.stragglers(50_000));
    interval(d, 5, 100, 51_000, r);
    assertEquals(Collections.emptySet(), d.stragglers(51_000));
  }

  /**
   * When every reader is stuck on the straggler, the other DataNodes go quiet; their
   * last rates stay the reference (until the report expiry), so the straggler's own
   * fresh samples still flag it, and a fast one still clears it.
   */
  @Test
  public void quietDataNodesStayTheReference() {
    MedianMad d = new MedianMad(3, 10_000, 60_000, 0.75);
    for (int i = 0; i < 5; i++) {
      d.report("dn" + i, i == 0 ? 10 * MIB : 100 * MIB, 1000, 0);
    }
    assertEquals(Collections.singleton("dn0"), d.stragglers(0));
    for (long t = 3_000; t <= 57_000; t += 3_000) {
      d.report("dn0", 10 * MIB, 1000, t); // only dn0 is read
      assertEquals("t = " + t, Collections.singleton("dn0"), d.stragglers(t));
      assertEquals(0.1, d.rateOverPeers("dn0", t), 1e-9);
    }
    d.report("dn0", 100 * MIB, 1000, 58_000);
    assertEquals(Collections.emptySet(), d.stragglers(58_000));
    // Past the report expiry the quiet ones are no reference: too few samples to judge.
    d.report("dn0", 10 * MIB, 1000, 61_000);
    assertEquals(Double.NaN, d.rateOverPeers("dn0", 61_000), 0);
    assertEquals(Collections.emptySet(), d.stragglers(61_000));
  }

  @Test
  public void tooFewOrIdleSamplesFlagNothing() {
    ThreeSigma d = new ThreeSigma(5, 60_000, 60_000);
    interval(d, 4, 1, 0, new Random(5));
    assertEquals(Collections.emptySet(), d.stragglers(0));
    MedianMad m = new MedianMad(3, 60_000, 60_000, 0.3);
    m.report("idle", 0, 0, 0); // served nothing: not a sample at rate 0
    m.report("a", 100, 1, 0);
    m.report("b", 100, 1, 0);
    assertEquals(Collections.emptySet(), m.stragglers(0));
  }

  @Test
  public void noneListsNoDataNodeHoweverSlow() {
    StragglerDetector d = Detectors.create("k", "none", 3, 10_000, 10_000, 0.75);
    assertEquals("none", d.name());
    for (int round = 0; round < 3; round++) {
      d.report("a", 100_000_000L, 1000, round * 1000L);
      d.report("b", 100_000_000L, 1000, round * 1000L);
      d.report("c", 100_000_000L, 1000, round * 1000L);
      d.report("slow", 1_000_000L, 1000, round * 1000L);
    }
    assertEquals(Collections.emptySet(), d.stragglers(3000));
    // the same samples list the slow one under median-mad: the test could fail
    StragglerDetector m = Detectors.create("k", "median-mad", 3, 10_000, 10_000, 0.75);
    for (int round = 0; round < 3; round++) {
      m.report("a", 100_000_000L, 1000, round * 1000L);
      m.report("b", 100_000_000L, 1000, round * 1000L);
      m.report("c", 100_000_000L, 1000, round * 1000L);
      m.report("slow", 1_000_000L, 1000, round * 1000L);
    }
    assertEquals(Collections.singleton("slow"), m.stragglers(3000));
  }

  @Test
  public void badInputIsNamed() {
    ThreeSigma d = new ThreeSigma(3, 1000, 1000);
    expect("bytes served by dn1 must be >= 0, got -1", () -> d.report("dn1", -1, 10, 0));
    expect("service time of dn1 must be a finite number >= 0 ms, got NaN", () -> d.report("dn1", 1, Double.NaN, 0));
    expect("service time of dn1 must be a finite number >= 0 ms, got -5.0", () -> d.report("dn1", 1, -5, 0));
    expect("dn1 cannot have served 1 bytes in 4.9E-324 ms: faster than 1000000000000 bytes/s",
        () -> d.report("dn1", 1, Double.MIN_VALUE, 0));
    expect("dn1 cannot have served 9223372036854775807 bytes in 1.0 ms: faster than 1000000000000 bytes/s",
        () -> d.report("dn1", Long.MAX_VALUE, 1, 0));
    expect("dfs.pocache.straggler.detector: unknown straggler detector 'sigma'; known: three-sigma, median-mad, none",
        () -> Detectors.create("dfs.pocache.straggler.detector", "sigma", 3, 1, 1, 0.3));
    expect("minimum fraction below the median must be in (0, 1), got 1.5", () -> new MedianMad(3, 1, 1, 1.5));
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
