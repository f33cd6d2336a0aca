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

import java.util.Set;

/**
 * Turns per-DataNode service rates (bytes served / service time, one sample per
 * DataNode per interval) into CSAC's straggler list S.
 */
public interface StragglerDetector {
  /**
   * One interval of a DataNode: it served {@code bytes} in {@code serviceMillis}
   * of service time. An interval with no bytes or no time is not a sample.
   *
   * @throws IllegalArgumentException for a negative count or time
   */
  void report(String dataNode, long bytes, double serviceMillis, long nowMillis);

  /** The DataNodes considered stragglers now. */
  Set<String> stragglers(long nowMillis);

  /**
   * The newest fresh rate of {@code dataNode} over the median of the other DataNodes'
   * fresh rates: how far below its peers it is now (0.1: a tenth of their speed). NaN
   * when it or too few others have a fresh sample, or when the detector does not say.
   */
  default double rateOverPeers(String dataNode, long nowMillis) {
    return Double.NaN;
  }

  String name();
}
