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

import java.util.Locale;

/** Detectors by configuration name: three-sigma (the paper's), median-mad, and none (lists nobody). */
public final class Detectors {
  private Detectors() {
  }

  /**
   * @throws IllegalArgumentException naming the key and the known names
   */
  public static StragglerDetector create(String key, String name, int minSamples, long sampleTtlMillis,
      long reportTtlMillis, double minFractionBelowMedian) {
    switch (name == null ? "" : name.trim().toLowerCase(Locale.ROOT)) {
      case "three-sigma":
        return new ThreeSigma(minSamples, sampleTtlMillis, reportTtlMillis);
      case "median-mad":
        return new MedianMad(minSamples, sampleTtlMillis, reportTtlMillis, minFractionBelowMedian);
      case "none":
        return new NoDetector(minSamples, sampleTtlMillis, reportTtlMillis);
      default:
        throw new IllegalArgumentException(key + ": unknown straggler detector '" + name
            + "'; known: three-sigma, median-mad, none");
    }
  }
}
