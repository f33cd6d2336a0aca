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
package org.pocache.coder;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class TestCodeParameters {
  @Test
  public void acceptsTheSupportedRange() {
    for (int k = CodeParameters.MIN_K; k <= CodeParameters.MAX_K; k++) {
      for (int m = CodeParameters.MIN_M; m <= CodeParameters.MAX_M; m++) {
        CodeParameters p = CodeParameters.of(k, m);
        assertEquals(k + m, p.width());
        assertEquals((double) m / k, p.overhead(), 0);
      }
    }
    assertEquals(CodeParameters.of(4, 1), CodeParameters.of(4, 1));
    assertNotEquals(CodeParameters.of(4, 1), CodeParameters.of(4, 2));
    assertEquals("RS(6,3)", CodeParameters.of(6, 3).toString());
  }

  @Test
  public void rejectsEachBadValueByName() {
    expect(1, 1, "k (data pieces) must be in [2, 32], got 1");
    expect(33, 1, "k (data pieces) must be in [2, 32], got 33");
    expect(4, 0, "m (parity pieces) must be in [1, 4], got 0");
    expect(4, 5, "m (parity pieces) must be in [1, 4], got 5");
  }

  private static void expect(int k, int m, String message) {
    try {
      CodeParameters.of(k, m);
      fail("accepted k=" + k + " m=" + m);
    } catch (IllegalArgumentException e) {
      assertEquals(message, e.getMessage());
    }
  }
}
