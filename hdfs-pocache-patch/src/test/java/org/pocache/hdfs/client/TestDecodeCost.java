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
