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
package org.pocache.testkit;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.util.Arrays;
import java.util.Random;
import org.junit.Test;

public class TestDataPattern {

  @Test
  public void anyRangeMatchesTheWholeFile() {
    byte[] whole = new byte[10_000];
    DataPattern.fill(42, 0, whole, 0, whole.length);
    Random r = new Random(1);
    for (int i = 0; i < 200; i++) {
      int pos = r.nextInt(whole.length);
      int len = r.nextInt(whole.length - pos + 1);
      byte[] part = new byte[len + 3];
      DataPattern.fill(42, pos, part, 3, len);
      assertArrayEquals(Arrays.copyOfRange(whole, pos, pos + len), Arrays.copyOfRange(part, 3, 3 + len));
      assertEquals(-1, DataPattern.firstMismatch(42, pos, part, 3, len));
    }
  }

  @Test
  public void everyFlippedByteIsFound() {
    byte[] data = new byte[4096];
    DataPattern.fill(7, 1000, data, 0, data.length);
    Random r = new Random(2);
    for (int i = 0; i < 100; i++) {
      int at = r.nextInt(data.length);
      data[at] ^= (byte) (1 << r.nextInt(8));
      assertEquals(1000 + at, DataPattern.firstMismatch(7, 1000, data, 0, data.length));
      DataPattern.fill(7, 1000, data, 0, data.length);
    }
  }

  @Test
  public void seedsAndOffsetsGiveDifferentBytes() {
    byte[] a = new byte[256];
    byte[] b = new byte[256];
    DataPattern.fill(1, 0, a, 0, a.length);
    DataPattern.fill(2, 0, b, 0, b.length);
    assertFalse(Arrays.equals(a, b));
    DataPattern.fill(1, 256, b, 0, b.length);
    assertFalse(Arrays.equals(a, b));
    long first = DataPattern.firstMismatch(2, 0, a, 0, a.length);
    assertEquals("seed 1 bytes checked against seed 2", true, first >= 0 && first < 8);
  }
}
