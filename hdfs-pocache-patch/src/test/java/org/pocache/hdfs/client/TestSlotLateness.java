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
 * When a sequential reader's caller hands a slot to parity, and when a rebuild under way is
 * raced by the slot's own DataNode: scripted slot times against a 30 ms deadline, a 1 s cold
 * bar and 1 MiB subblocks, no DataNode and no clock but the numbers given.
 */
public class TestSlotLateness {
  private static final long MS = 1_000_000L;
  private static final long DEADLINE = 30 * MS;
  private static final long BAR = SubblockDeadlines.COLD_BAR_NANOS;

  private static WindowSlot slot(long streamStart, long waitSince) {
    WindowSlot s = new WindowSlot();
    s.g = 0;
    s.len = 1 << 20;
    s.streamStart = streamStart;
    s.waitSince = waitSince;
    return s;
  }

  @Test
  public void aSlotIsLateOnceItHasWaitedTheDeadlineFromWhenItsStreamOrTheCallerBegan() {
    WindowSlot s = slot(100 * MS, 110 * MS);
    assertEquals("20 ms left of the deadline", 20 * MS, SlotLateness.waitOrLate(s, 110 * MS, DEADLINE, true, BAR));
    assertEquals("counted from the stream's start", SlotLateness.LATE,
        SlotLateness.waitOrLate(s, 130 * MS, DEADLINE, true, BAR));
    WindowSlot notBegun = slot(0, 110 * MS);
    assertEquals("a slot the streamer has not begun counts from the caller's wait", 10 * MS,
        SlotLateness.waitOrLate(notBegun, 130 * MS, DEADLINE, true, BAR));
    assertEquals(SlotLateness.LATE, SlotLateness.waitOrLate(notBegun, 140 * MS, DEADLINE, true, BAR));
  }

  @Test
  public void beforeAnySubblockWasTimedASlotPastTheGuessWaitsTheColdBar() {
    WindowSlot s = slot(100 * MS, 100 * MS);
    long wait = SlotLateness.waitOrLate(s, 500 * MS, DEADLINE, false, BAR);
    assertTrue("past the guess, not late before the bar: " + wait, wait > 0 && wait <= SlotLateness.COLD_LOOK_NANOS);
    assertEquals("late at the bar", SlotLateness.LATE,
        SlotLateness.waitOrLate(s, 100 * MS + BAR, DEADLINE, false, BAR));
    assertEquals("once timed, the deadline alone", SlotLateness.LATE,
        SlotLateness.waitOrLate(s, 500 * MS, DEADLINE, true, BAR));
  }

  @Test
  public void beforeAnySubblockWasTimedASlotWhoseBytesComeSlowlyIsLateBeforeTheBar() {
    WindowSlot s = slot(100 * MS, 100 * MS);
    s.firstBytesAt = 200 * MS;
    s.firstFilled = 64 << 10;
    s.filled = s.firstFilled + (256 << 10); // a quarter MiB in 300 ms: the whole in over a second
    assertEquals(SlotLateness.LATE, SlotLateness.waitOrLate(s, 500 * MS, DEADLINE, false, BAR));
    s.filled = s.firstFilled + (768 << 10); // three quarters in 300 ms: well within the bar
    assertTrue(SlotLateness.waitOrLate(s, 500 * MS, DEADLINE, false, BAR) > 0);
  }

  @Test
  public void aRebuildIsRacedOnlyWhenLateWithAReadOutAndPastTheColdBarTheFirstTime() {
    WindowSlot s = slot(0, 0);
    s.rebuilding = true;
    s.skipStream = true;
    s.rebuildStart = 1000 * MS;
    s.rebuildReadsLeft.set(1);
    long later = 1000 * MS + 2 * DEADLINE;
    assertTrue("two deadlines in, a read still out", SlotLateness.rebuildWaitsOnItsOwn(s, later, DEADLINE, 2, true));
    assertFalse("not yet two deadlines",
        SlotLateness.rebuildWaitsOnItsOwn(s, later - MS, DEADLINE, 2, true));
    assertFalse("this reader's first rebuild waits the cold bar",
        SlotLateness.rebuildWaitsOnItsOwn(s, later, DEADLINE, 2, false));
    assertTrue(SlotLateness.rebuildWaitsOnItsOwn(s, 1000 * MS + BAR, DEADLINE, 2, false));
    s.rebuildReadsLeft.set(0);
    assertFalse("its reads are all in: it waits on the parity or the coder, not a DataNode",
        SlotLateness.rebuildWaitsOnItsOwn(s, later, DEADLINE, 2, true));
    s.rebuildReadsLeft.set(1);
    s.skipStream = false;
    assertFalse("streamed already", SlotLateness.rebuildWaitsOnItsOwn(s, later, DEADLINE, 2, true));
  }
}
