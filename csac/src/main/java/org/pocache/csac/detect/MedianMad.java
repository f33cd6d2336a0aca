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

import java.util.Arrays;

/**
 * A robust rule, like Hadoop's own slow-node OutlierDetector, applied to the
 * logarithm of the rates: a DataNode is a straggler if its log rate is below
 * median - 3 x 1.4826 x MAD (1.4826 makes the median absolute deviation a
 * consistent estimate of sigma for normal data; the MAD of the other DataNodes, so
 * that among three or four a straggler's own distance does not widen the bar it is
 * held to) and its rate is also at least
 * {@code minFractionBelowMedian} below the median rate, so tiny spreads (MAD near
 * zero) do not flag normal jitter. One far-out straggler does not drag the median
 * the way it drags the mean, so it is found among few DataNodes too.
 *
 * <p>Logarithms because rates vary by factors, not by amounts: a DataNode serving
 * two readers at once delivers each half as much. On the rates themselves, five
 * healthy DataNodes between 4 and 11 MiB/s put the bar below zero, and one at a
 * tenth of their speed was never flagged; in logarithms the same spread is a factor
 * of about 1.3 around the median, and the straggler sits far outside it.
 */
public final class MedianMad extends AbstractDetector {
  private final double minFractionBelowMedian;

  /**
   * @throws IllegalArgumentException if the fraction is outside (0, 1)
   */
  public MedianMad(int minSamples, long sampleTtlMillis, long reportTtlMillis, double minFractionBelowMedian) {
    super(minSamples, sampleTtlMillis, reportTtlMillis);
    if (!(minFractionBelowMedian > 0 && minFractionBelowMedian < 1)) {
      throw new IllegalArgumentException("minimum fraction below the median must be in (0, 1), got "
          + minFractionBelowMedian);
    }
    this.minFractionBelowMedian = minFractionBelowMedian;
  }

  @Override
  public String name() {
    return "median-mad";
  }

  @Override
  boolean[] flag(double[] rates) {
    double[] logs = new double[rates.length];
    for (int i = 0; i < rates.length; i++) {
      logs[i] = Math.log(rates[i]);
    }
    double median = median(logs.clone());
    double floor = median + Math.log(1 - minFractionBelowMedian);
    boolean[] out = new boolean[rates.length];
    double[] others = new double[logs.length - 1];
    for (int i = 0; i < logs.length; i++) {
      if (logs[i] >= floor) {
        continue;
      }
      // The spread of the others: a straggler's own distance must not widen the bar it is held to.
      for (int j = 0, o = 0; j < logs.length; j++) {
        if (j != i) {
          others[o++] = Math.abs(logs[j] - median);
        }
      }
      out[i] = logs[i] < median - 3 * 1.4826 * median(others);
    }
    return out;
  }

  static double median(double[] a) {
    Arrays.sort(a);
    int n = a.length;
    return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
  }
}
