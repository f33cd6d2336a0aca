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
package org.pocache.csac;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.junit.Test;

public class TestParityFootprint {
  private static final long B = 64L << 20;

  @Test
  public void stripesRoundUpAndNeverReachZero() {
    assertEquals(1, ParityFootprint.stripes(0, B, 4));
    assertEquals(1, ParityFootprint.stripes(1, B, 4));
    assertEquals(1, ParityFootprint.stripes(4 * B, B, 4));
    assertEquals(2, ParityFootprint.stripes(4 * B + 1, B, 4));
    assertEquals(3, ParityFootprint.stripes(10 * B, B, 4));
    assertEquals(1, ParityFootprint.stripes(10 * B, B, 10));
  }

  @Test
  public void parityBlocksAreMPerStripe() {
    assertEquals(1, ParityFootprint.parityBlocks(B, B, 4, 1));       // a one-block file: one stripe
    assertEquals(3, ParityFootprint.parityBlocks(B, B, 6, 3));
    assertEquals(2 * 2, ParityFootprint.parityBlocks(5 * B, B, 4, 2));
  }

  @Test
  public void parityBytesFollowTheLongestBlockOfEachStripe() {
    assertEquals(100, ParityFootprint.parityBytes(100, B, 4, 1));          // tiny file
    assertEquals(B, ParityFootprint.parityBytes(B + 5, B, 4, 1));         // block 0 is full
    assertEquals(2 * B, ParityFootprint.parityBytes(4 * B, B, 4, 2));
    assertEquals(B + 7, ParityFootprint.parityBytes(4 * B + 7, B, 4, 1)); // short second stripe
    long bytes = ParityFootprint.parityBytes(9 * B + 3, B, 4, 3);
    assertTrue(bytes <= ParityFootprint.parityBlocks(9 * B + 3, B, 4, 3) * B);
  }

  @Test
  public void badArgumentsAreNamed() {
    try {
      ParityFootprint.parityBlocks(-1, B, 4, 1);
      fail();
    } catch (IllegalArgumentException e) {
      assertEquals("file length must be >= 0, got -1", e.getMessage());
    }
    try {
      ParityFootprint.parityBytes(1, B, 4, 0);
      fail();
    } catch (IllegalArgumentException e) {
      assertEquals("k and m must be >= 1, got k=4 m=0", e.getMessage());
    }
  }
}
