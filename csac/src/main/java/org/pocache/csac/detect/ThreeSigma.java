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

/**
 * The POCache paper's rule (§3.3): a DataNode whose service rate is below
 * mu - 3 sigma of all fresh rates is a straggler (population standard deviation).
 *
 * <p>Limitation, by arithmetic: among N rates, one value can lie at most
 * sqrt(N - 1) standard deviations below the mean (the others all equal, the one
 * far below). So with N <= 10 DataNodes no single straggler, however slow, is ever
 * flagged; {@link MedianMad} has no such floor.
 */
public final class ThreeSigma extends AbstractDetector {
  public ThreeSigma(int minSamples, long sampleTtlMillis, long reportTtlMillis) {
    super(minSamples, sampleTtlMillis, reportTtlMillis);
  }

  @Override
  public String name() {
    return "three-sigma";
  }

  @Override
  boolean[] flag(double[] rates) {
    double mean = 0;
    for (double r : rates) {
      mean += r;
    }
    mean /= rates.length;
    double var = 0;
    for (double r : rates) {
      var += (r - mean) * (r - mean);
    }
    double sigma = Math.sqrt(var / rates.length);
    boolean[] out = new boolean[rates.length];
    for (int i = 0; i < rates.length; i++) {
      out[i] = rates[i] < mean - 3 * sigma;
    }
    return out;
  }
}
