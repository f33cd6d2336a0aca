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
