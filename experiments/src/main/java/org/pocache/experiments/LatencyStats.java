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
package org.pocache.experiments;

import java.util.Arrays;

/** Mean and nearest-rank percentiles of a set of latencies in milliseconds. */
public final class LatencyStats {
  private final double[] sorted;

  public LatencyStats(double[] millis) {
    if (millis.length == 0) {
      throw new IllegalArgumentException("no latencies");
    }
    sorted = millis.clone();
    Arrays.sort(sorted);
  }

  public int count() {
    return sorted.length;
  }

  public double mean() {
    double s = 0;
    for (double d : sorted) {
      s += d;
    }
    return s / sorted.length;
  }

  /** The nearest-rank percentile: the smallest value with at least p% of values at or below it. */
  public double percentile(double p) {
    if (p <= 0 || p > 100) {
      throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
