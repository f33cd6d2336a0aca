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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * When a sequential reader's subblock is late, with scripted times: a factor of 3, a 20 ms
 * floor, 1 MiB subblocks.
 */
public class TestSubblockDeadlines {
  private static final long MS = 1_000_000L;
  private static final int MIB = 1 << 20;

  private static SubblockDeadlines deadlines(SubblockTimes times) {
    return new SubblockDeadlines(times, 3.0, 20);
  }

  @Test
  public void beforeAnySubblockWasTimedTheDeadlineIsAGuessAndOnlyTheColdBarMakesLate() {
    SubblockDeadlines d = deadlines(new SubblockTimes());
    assertFalse(d.timed());
    assertEquals("the first guess", SubblockTimes.FIRST_DEADLINE_NANOS, d.deadline());
    assertEquals("a whole subblock read outside the window waits the cold bar", SubblockDeadlines.COLD_BAR_NANOS,
        d.wholeSubblock());
    assertEquals("no per-subblock deadline for the caller's block yet", 0, d.perSubblock());
    assertEquals("the bar: the factor x the guess, at least a second", 3 * 400 * MS, d.coldBar(400 * MS));
  }

  @Test
  public void onceTimedTheDeadlineIsTheFactorTimesTheMeanAtLeastTheFloor() {
    SubblockTimes times = new SubblockTimes();
    SubblockDeadlines d = deadlines(times);
    d.learn(10 * MS);
    assertTrue(d.timed());
    assertEquals(30 * MS, d.deadline());
    assertEquals(30 * MS, d.wholeSubblock());
    assertEquals(30 * MS, d.perSubblock());
    d.learn(0); // a mean of 8 ms: 24 ms
    assertEquals(24 * MS, d.deadline());
    for (int i = 0; i < 20; i++) {
      d.learn(MS); // page-cache speed: 1 ms per subblock
    }
    assertEquals("the floor", 20 * MS, d.deadline());
    assertTrue("the caller's per-subblock deadline has no floor: " + d.perSubblock(), d.perSubblock() < 5 * MS);
    assertTrue("shared by the FileSystem's streams", deadlines(times).timed());
  }

  @Test
  public void aColdSlotIsProjectedLateByTheRateOfItsBytesAfterItsFirstRead() {
    long bar = SubblockDeadlines.COLD_BAR_NANOS;
    WindowSlot s = new WindowSlot();
    s.g = 0;
    s.len = MIB;
    s.streamStart = 1;
    assertFalse("nothing arrived yet", s.projectedLate(500 * MS, bar));
    s.firstBytesAt = 300 * MS; // a cold JVM's first bytes, late
    s.filled = 64 << 10;
    s.firstFilled = s.filled;
    s.filled += 128 << 10;
    assertFalse("too few bytes after the first read to judge", s.projectedLate(900 * MS, bar));
    s.filled = s.firstFilled + (256 << 10);
    assertTrue("a quarter MiB in 300 ms: the whole in over a second", s.projectedLate(600 * MS, bar));
    assertFalse("a quarter MiB in 30 ms: a healthy DataNode slow to start", s.projectedLate(330 * MS, bar));
  }

  @Test
  public void aResetSlotForgetsItsSubblockButKeepsItsPieces() {
    WindowSlot s = new WindowSlot();
    s.g = 7;
    s.len = MIB;
    s.pieces = new byte[8][];
    s.filled = MIB;
    s.rebuilding = true;
    s.skipStream = true;
    s.error = new java.io.IOException("x");
    assertTrue(s.complete());
    s.reset();
    assertEquals(-1, s.g);
    assertEquals(0, s.filled);
    assertFalse(s.rebuilding || s.skipStream || s.error != null || s.complete());
    assertEquals(8, s.pieces.length);
  }
}
