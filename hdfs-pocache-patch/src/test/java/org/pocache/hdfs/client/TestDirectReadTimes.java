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
 * A caller's sequential reads, scripted as a 1/10 DataNode and a pause of a core give them
 * on unshaped DataNodes: 1 MiB subblocks in about 1 ms from its peers (a per-subblock
 * deadline of 3 ms when the block begins), 12.5 ms from the slow one, a 20 ms floor. Reads
 * are 64 KiB: 16 per subblock.
 */
public class TestDirectReadTimes {
  private static final long MS = 1_000_000L;
  private static final long PER_SUB = 3 * MS;
  private static final long FLOOR = 20 * MS;

  /** Reads subblock g whole in 16 reads of {@code nanos / 16}; whether the block was late as a run at any of them. */
  private static boolean read(DirectReadTimes t, long g, long nanos) {
    t.beginSubblock(g, true, 0);
    boolean late = false;
    for (int i = 0; i < 16 && !late; i++) {
      t.spent(nanos / 16, 0);
      late = t.slowRun(FLOOR);
    }
    return late;
  }

  @Test
  public void aSteadilySlowDataNodeIsLateInItsSecondSubblock() {
    DirectReadTimes t = new DirectReadTimes();
    t.beginBlock(0, PER_SUB, 0);
    assertFalse("the first subblock alone makes no run", read(t, 0, 12_500_000));
    assertEquals(12_500_000, t.subblockDone());
    assertTrue("the second subblock, over the floor with the first", read(t, 1, 12_500_000));
    assertTrue("not before 20 ms in all: " + t.subblockNanos(), 12_500_000 + t.subblockNanos() >= FLOOR);
  }

  @Test
  public void onePauseAmongFastSubblocksIsNoRun() {
    DirectReadTimes t = new DirectReadTimes();
    t.beginBlock(0, PER_SUB, 0);
    for (long g = 0; g < 16; g++) {
      // a 14 ms pause at subblock 5, every other one at its peers' pace
      assertFalse("subblock " + g, read(t, g, g == 5 ? 14 * MS : MS));
      t.subblockDone();
    }
  }

  @Test
  public void subblocksJustOverTheDeadlineAreLateOnceTheyAddUpToTheFloor() {
    DirectReadTimes t = new DirectReadTimes();
    t.beginBlock(0, PER_SUB, 0);
    int late = -1;
    for (int g = 0; g < 16 && late < 0; g++) {
      if (read(t, g, 4 * MS)) {
        late = g;
      }
      t.subblockDone();
    }
    assertEquals("4 ms subblocks reach the 20 ms floor in the fifth", 4, late);
  }

  @Test
  public void theBlocksOwnSlowSubblocksDoNotRaiseItsBar() {
    // The bar is the one taken when the block began, whatever the mean learns meanwhile.
    DirectReadTimes t = new DirectReadTimes();
    t.beginBlock(0, PER_SUB, 0);
    read(t, 0, 12_500_000);
    t.subblockDone();
    assertTrue(read(t, 1, 12_500_000));
    // A new block is judged afresh: its first subblock makes no run.
    t.beginBlock(50 * MS, PER_SUB, 0);
    assertFalse(read(t, 16, 12_500_000));
  }

  @Test
  public void beforeAnySubblockWasTimedThereIsNoRun() {
    DirectReadTimes t = new DirectReadTimes();
    t.beginBlock(0, 0, 0);
    for (long g = 0; g < 4; g++) {
      assertFalse(read(t, g, 100 * MS));
      t.subblockDone();
    }
  }

  @Test
  public void aSubblockBegunMidWayIsNotLearned() {
    DirectReadTimes t = new DirectReadTimes();
    t.beginBlock(0, PER_SUB, 0);
    t.beginSubblock(3, false, 0);
    t.spent(MS, MS);
    assertEquals(-1, t.subblockDone());
    assertFalse(t.timing(3));
  }

  @Test
  public void readBoundWhenMostOfTheBlocksTimeWasInReads() {
    DirectReadTimes t = new DirectReadTimes();
    t.beginBlock(100 * MS, PER_SUB, 0);
    t.beginSubblock(0, true, 100 * MS);
    t.spent(6 * MS, 106 * MS);
    assertTrue(t.readBound(110 * MS));
    assertFalse("a task computing for longer than it waits", t.readBound(113 * MS));
  }

  /** A wait clock scripted by the test: the thread's run-queue wait so far. */
  private static final class Waits {
    long nanos;
  }

  /**
   * Reads subblock g whole in 16 reads from {@code start}, each {@code nanos / 16}, the thread
   * waiting {@code waited} for a core in all: {net time, 1 if late as a run, the time it ended}.
   */
  private static long[] readWaiting(DirectReadTimes t, Waits w, long g, long start, long nanos, long waited, long bar) {
    t.beginSubblock(g, true, start);
    long now = start;
    long net = 0;
    boolean run = false;
    for (int i = 0; i < 16; i++) {
      now += nanos / 16;
      w.nanos += waited / 16;
      t.spent(nanos / 16, now);
      net = t.netNanos(bar);
      run |= t.slowRun(FLOOR);
    }
    return new long[] {net, run ? 1 : 0, now};
  }

  @Test
  public void timeTheReaderWaitedForACoreIsNotTheDataNodes() {
    Waits w = new Waits();
    DirectReadTimes t = new DirectReadTimes(() -> w.nanos);
    t.beginBlock(0, PER_SUB, 0);
    // 40 ms in HDFS's reads, 36 of them runnable but not running: a healthy DataNode's 4 ms.
    long[] r = readWaiting(t, w, 0, 0, 40 * MS, 36 * MS, FLOOR);
    assertEquals(4 * MS, r[0], MS / 100);
    assertEquals("learned net", 4 * MS, t.subblockDone(), MS / 100);
    // The same 40 ms with the thread running all along: the DataNode's own.
    r = readWaiting(t, w, 1, r[2], 40 * MS, 0, FLOOR);
    assertEquals(40 * MS, r[0]);
  }

  @Test
  public void aSlowDataNodesRunIsARunWhateverTheCoresDoAndAStarvedReadersIsNot() {
    Waits w = new Waits();
    DirectReadTimes t = new DirectReadTimes(() -> w.nanos);
    t.beginBlock(0, PER_SUB, 0);
    long now = 0;
    boolean late = false;
    for (int g = 0; g < 8; g++) {
      // 12.5 ms a subblock, 11 ms of it waiting for a core: 1.5 ms of the DataNode's, on time.
      long[] r = readWaiting(t, w, g, now, 12_500_000, 11 * MS, PER_SUB);
      late |= r[1] != 0;
      now = r[2];
      t.subblockDone();
    }
    assertFalse("a starved reader of healthy DataNodes", late);
    t.beginBlock(now, PER_SUB, 0);
    // 12.5 ms a subblock, 2 ms of it waiting: the DataNode's 10.5 ms, a run by the second.
    readWaiting(t, w, 16, now, 12_500_000, 2 * MS, PER_SUB);
    t.subblockDone();
    long[] r = readWaiting(t, w, 17, now + 12_500_000, 12_500_000, 2 * MS, PER_SUB);
    assertTrue("a slow DataNode read by a busy reader", r[1] != 0);
  }

  @Test
  public void theWaitIsSharedWithTheCallersOwnWorkBetweenReads() {
    Waits w = new Waits();
    DirectReadTimes t = new DirectReadTimes(() -> w.nanos);
    t.beginBlock(0, PER_SUB, 0);
    t.beginSubblock(0, true, 0);
    // 20 ms in reads over 40 ms (the caller computes the other 20), 20 ms of waiting for a core.
    t.spent(20 * MS, 40 * MS);
    w.nanos = 20 * MS;
    assertEquals(10 * MS, t.netNanos(FLOOR));
  }

  @Test
  public void withoutAWaitClockTimesAreTakenAsTheyAre() {
    DirectReadTimes t = new DirectReadTimes(() -> -1);
    t.beginBlock(0, PER_SUB, 0);
    t.beginSubblock(0, true, 0);
    t.spent(40 * MS, 40 * MS);
    assertEquals(40 * MS, t.netNanos(FLOOR));
  }

  @Test
  public void theWaitIsLookedAtOnlyOnceATimeReachesItsBar() {
    long[] looks = {0};
    DirectReadTimes t = new DirectReadTimes(() -> {
      looks[0]++;
      return 0;
    });
    t.beginBlock(0, PER_SUB, 0);
    t.beginSubblock(0, true, 0);
    for (int i = 1; i <= 16; i++) {
      t.spent(MS / 16, i * MS / 16);
      t.netNanos(FLOOR);
    }
    assertEquals("one look when the subblock began, none for a subblock under its bar", 1, looks[0]);
  }

  @Test
  public void aBlocksDataNodeKeepsPaceWhileItsLastSubblockCameWithinTheDeadlineNetOfWaits() {
    Waits w = new Waits();
    DirectReadTimes t = new DirectReadTimes(() -> w.nanos);
    t.beginBlock(0, PER_SUB, 0);
    assertFalse("nothing read of the block yet", t.keptPace());
    readWaiting(t, w, 0, 0, 2 * MS, 0, PER_SUB);
    t.subblockDone();
    assertTrue("2 ms against a 3 ms deadline", t.keptPace());
    readWaiting(t, w, 1, 2 * MS, 12_500_000, 0, PER_SUB);
    t.subblockDone();
    assertFalse("12.5 ms: a tenth as fast as its peers", t.keptPace());
    readWaiting(t, w, 2, 15 * MS, 12_500_000, 11 * MS, PER_SUB);
    t.subblockDone();
    assertTrue("12.5 ms, 11 of them waiting for a core", t.keptPace());
    t.beginSubblock(3, false, 30 * MS);
    t.spent(MS, 31 * MS);
    t.subblockDone();
    assertFalse("a subblock begun midway says nothing", t.keptPace());
    t.beginBlock(40 * MS, PER_SUB, 0);
    assertFalse("a new block", t.keptPace());
  }

  @Test
  public void aBlocksFirstSubblockKeepsPaceWithinTheGraceForOpeningTheBlock() {
    Waits w = new Waits();
    DirectReadTimes t = new DirectReadTimes(() -> w.nanos);
    t.beginBlock(0, PER_SUB, FLOOR);
    readWaiting(t, w, 0, 0, 12 * MS, 0, PER_SUB);
    t.subblockDone();
    assertTrue("the first subblock: 12 ms against 3 ms and the 20 ms grace", t.keptPace());
    readWaiting(t, w, 1, 12 * MS, 12 * MS, 0, PER_SUB);
    t.subblockDone();
    assertFalse("the second: 12 ms against 3 ms", t.keptPace());
    t.beginBlock(30 * MS, PER_SUB, FLOOR);
    readWaiting(t, w, 4, 30 * MS, 25 * MS, 0, PER_SUB);
    t.subblockDone();
    assertFalse("a new block's first subblock past the deadline and the grace", t.keptPace());
  }

  /**
   * A new client's first block (nothing timed when it began): a subblock keeps pace if its
   * reads, less the call that opened the block, took no longer than the grace; from the
   * next subblock on the block is judged by the deadline its first subblock's time made.
   */
  @Test
  public void withNothingTimedASubblockKeepsPaceWithinTheGraceItsOpeningCallAside() {
    DirectReadTimes t = new DirectReadTimes();
    t.beginBlock(0, 0, FLOOR);
    t.beginSubblock(0, true, 0);
    t.spent(35 * MS, 35 * MS); // the open of the block at its DataNode, in a new JVM
    for (int i = 1; i < 8; i++) {
      t.spent(MS, (35 + i) * MS);
    }
    t.subblockDone();
    assertTrue("7 ms after a 35 ms open, against the 20 ms grace", t.keptPace());
    t.adoptDeadline(3 * 42 * MS);
    readWaiting(t, new Waits(), 1, 42 * MS, 12 * MS, 0, 3 * 42 * MS);
    t.subblockDone();
    assertTrue("12 ms against the adopted 126 ms", t.keptPace());
    t.adoptDeadline(PER_SUB);
    readWaiting(t, new Waits(), 2, 54 * MS, 130 * MS, 0, 3 * 42 * MS);
    t.subblockDone();
    assertFalse("130 ms against 126 ms: a deadline once adopted stays for the block", t.keptPace());

    t.beginBlock(0, 0, FLOOR);
    t.beginSubblock(0, true, 0);
    t.spent(2 * MS, 2 * MS);
    for (int i = 1; i < 8; i++) {
      t.spent(4 * MS, (2 + 4 * i) * MS);
    }
    t.subblockDone();
    assertFalse("28 ms after a 2 ms open: slower than the grace", t.keptPace());
  }

  /**
   * A subblock falls behind as soon as its reads so far are over the bar it would keep pace
   * by: with nothing timed, the grace past the call that opened the block; with a deadline,
   * the deadline (the block's first subblock: plus the grace). Run-queue wait is taken off
   * first, and a subblock begun mid-way is left to be judged when done.
   */
  @Test
  public void aSubblockFallsBehindOnceItsReadsSoFarAreOverItsBar() {
    DirectReadTimes t = new DirectReadTimes();
    t.beginBlock(0, 0, FLOOR);
    t.beginSubblock(0, true, 0);
    t.spent(35 * MS, 35 * MS);
    assertFalse("the opening call alone", t.fallenBehind());
    t.spent(15 * MS, 50 * MS);
    assertFalse("15 ms after the open, against the 20 ms grace", t.fallenBehind());
    t.spent(6 * MS, 56 * MS);
    assertTrue("21 ms after the open", t.fallenBehind());
    t.subblockDone();
    assertFalse("done: the same verdict", t.keptPace());

    t.beginBlock(0, PER_SUB, FLOOR);
    t.beginSubblock(0, true, 0);
    t.spent(PER_SUB, PER_SUB);
    assertFalse("the block's first subblock has the grace beyond the deadline", t.fallenBehind());
    t.spent(FLOOR, PER_SUB + FLOOR);
    assertTrue("the deadline and the grace spent", t.fallenBehind());
    t.subblockDone();
    t.beginSubblock(1, true, PER_SUB + FLOOR);
    t.spent(PER_SUB - MS, 2 * PER_SUB + FLOOR);
    assertFalse("within the deadline", t.fallenBehind());
    t.spent(MS, 2 * PER_SUB + FLOOR + MS);
    assertTrue("at the deadline", t.fallenBehind());

    Waits w = new Waits();
    DirectReadTimes waited = new DirectReadTimes(() -> w.nanos);
    waited.beginBlock(0, PER_SUB, FLOOR);
    waited.beginSubblock(0, true, 0);
    waited.spent(PER_SUB + FLOOR, PER_SUB + FLOOR);
    w.nanos = PER_SUB;
    assertFalse("over the bar only by the time it waited for a core", waited.fallenBehind());

    t.beginBlock(0, PER_SUB, FLOOR);
    t.beginSubblock(0, false, 0);
    t.spent(10 * PER_SUB, 10 * PER_SUB);
    assertFalse("begun mid-way: judged when done", t.fallenBehind());
  }
}
