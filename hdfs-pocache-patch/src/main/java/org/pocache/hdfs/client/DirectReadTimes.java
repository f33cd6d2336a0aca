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

import java.util.function.LongSupplier;

/**
 * How long a caller's own sequential reads of HDFS's stream have taken (the direct reads
 * of {@link PoCacheInputStream}): the subblock being read, the block it is in, and the run
 * of that block's subblocks just read that each took longer than the block's per-subblock
 * deadline. Times are handed in, in nanoseconds, so what is decided on them is tested
 * with scripted times, without a cluster or a clock. Used by the caller's thread only.
 *
 * <p>A subblock's time is the time its reads spent in HDFS's stream less their share of
 * the time the caller's thread waited for a core meanwhile ({@link RunQueueWait}): on a
 * host whose cores are all busy (a wave of tasks and the DataNodes they read sharing
 * them) a read of a healthy DataNode takes as long as the reader waits to run, and a
 * rebuild would not make the reader run sooner. The wait is looked at only when the
 * time so far reaches a bar it is judged by, so a subblock read on time costs one look.
 */
final class DirectReadTimes {
  /** The caller's thread's run-queue wait so far (nanoseconds), -1 if unknown. */
  private final LongSupplier waitClock;
  /** The subblock being timed, -1 if none. */
  private long subblock = -1;
  /** Time in HDFS's reads of that subblock so far. */
  private long subblockNanos;
  /** Whether that subblock is read from its first byte. */
  private boolean whole;
  /** When the subblock began, and the thread's run-queue wait then (-1: unknown). */
  private long subblockBegan;
  private long waitAtSubblock;
  /** The share of the subblock's time in reads that was run-queue wait, as last looked at. */
  private long discount;
  /** When the last read ended. */
  private long lastEnded;
  /** When the caller began the block (nanoseconds). */
  private long blockBegan;
  /** Time in HDFS's reads of the block so far. */
  private long blockNanos;
  /** The per-subblock deadline the block is judged by, taken when it began; 0: none yet. */
  private long perSub;
  /** The run of the block's subblocks just read, each slower than {@link #perSub}. */
  private long runNanos;
  private int runSubblocks;
  /** Whether the block's last subblock done was read whole within {@link #perSub}, net. */
  private boolean keptPace;
  /**
   * What the block's first subblock may take beyond {@link #perSub} and still keep pace;
   * with no {@link #perSub}, what a subblock may take (its first read call, which opened
   * the block, aside) and still keep pace.
   */
  private long firstGrace;
  /** The block's first read call (the open of the block at its DataNode); -1 before it. */
  private long firstCallNanos;
  /** Subblocks of the block done so far. */
  private int doneInBlock;

  /** Times taken as they are, whatever the thread waited for a core. */
  DirectReadTimes() {
    this(() -> -1);
  }

  DirectReadTimes(LongSupplier waitClock) {
    this.waitClock = waitClock;
  }

  /**
   * The caller begins a block at {@code now}; its subblocks are judged by {@code perSub}
   * (0 before any subblock was timed), as the mean was when the block began, so the block's
   * own slow subblocks do not raise the bar they are judged by. The block's first subblock
   * keeps pace within {@code perSub + firstGrace}: its time includes opening the block at a
   * DataNode (a connection, the DataNode's open of the replica), which its later subblocks
   * and the mean they are judged by do not pay.
   */
  void beginBlock(long now, long perSub, long firstGrace) {
    blockBegan = now;
    blockNanos = 0;
    this.perSub = perSub;
    this.firstGrace = firstGrace;
    runNanos = 0;
    runSubblocks = 0;
    keptPace = false;
    doneInBlock = 0;
    firstCallNanos = -1;
  }

  /**
   * A block begun before any subblock was timed (a new client's first) is judged from its
   * next subblock on by {@code perSub}, the deadline its first subblock's time made: a
   * block whose subblocks slow down is noticed in the first block a task reads too.
   */
  void adoptDeadline(long perSub) {
    if (this.perSub == 0 && perSub > 0) {
      this.perSub = perSub;
    }
  }

  /** Whether subblock {@code g} is the one being timed. */
  boolean timing(long g) {
    return g == subblock;
  }

  /** The caller begins subblock {@code g} at {@code now}, from its first byte or not ({@code whole}). */
  void beginSubblock(long g, boolean whole, long now) {
    subblock = g;
    subblockNanos = 0;
    this.whole = whole;
    subblockBegan = now;
    lastEnded = now;
    discount = 0;
    waitAtSubblock = waitClock.getAsLong();
  }

  /** One read of HDFS's stream took {@code nanos}, ending at {@code now}. */
  void spent(long nanos, long now) {
    if (firstCallNanos < 0) {
      firstCallNanos = nanos;
    }
    subblockNanos += nanos;
    blockNanos += nanos;
    lastEnded = now;
  }

  /**
   * The subblock's time in HDFS's reads so far less the run-queue wait in it, looking at
   * the wait afresh only when the time without it reaches {@code bar}. The wait since the
   * subblock began is split between its reads and the caller's own work between them in
   * proportion to their times.
   */
  long netNanos(long bar) {
    long net = subblockNanos - discount;
    if (net < bar || waitAtSubblock < 0) {
      return net;
    }
    long waitNow = waitClock.getAsLong();
    long elapsed = lastEnded - subblockBegan;
    if (waitNow < waitAtSubblock || elapsed <= 0) {
      return net;
    }
    double inReads = Math.min(1.0, (double) subblockNanos / elapsed);
    discount = Math.min(subblockNanos, (long) ((waitNow - waitAtSubblock) * inReads));
    return subblockNanos - discount;
  }

  /**
   * Read-bound at {@code now}: the caller has spent most of its time since the block began
   * waiting in HDFS's reads (a task that computes as fast as its DataNode sends spends little).
   */
  boolean readBound(long now) {
    return blockNanos > (now - blockBegan) / 2;
  }

  /**
   * The subblock being timed is in: it extends the slow run or breaks it. Returns its time
   * ({@link #netNanos}) if it was read from its first byte (a time worth learning), else -1.
   */
  long subblockDone() {
    long net = netNanos(perSub > 0 ? perSub : firstGrace > 0 ? firstGrace : Long.MAX_VALUE);
    if (perSub > 0 && net >= perSub) {
      runNanos += net;
      runSubblocks++;
    } else {
      runNanos = 0;
      runSubblocks = 0;
    }
    if (perSub > 0) {
      keptPace = whole && net < perSub + (doneInBlock == 0 ? firstGrace : 0);
    } else {
      // Nothing timed to judge it by: the subblock's reads, less the call that opened the
      // block, within the floor (a healthy DataNode's 1 MiB at line rate takes a few ms).
      keptPace = whole && net - (doneInBlock == 0 ? Math.max(0, firstCallNanos) : 0) < firstGrace;
    }
    doneInBlock++;
    subblock = -1;
    return whole ? net : -1;
  }

  /**
   * Whether the block's last subblock done was read from its first byte within the block's
   * per-subblock deadline (the block's first subblock: with the grace for opening the
   * block), run-queue wait taken off: its DataNode kept pace with its peers for this caller.
   * With no deadline yet (nothing timed when the block began), within the grace, the
   * block's opening read call aside. False before a subblock of the block is done.
   */
  boolean keptPace() {
    return keptPace;
  }

  /**
   * Whether the subblock being timed, read from its first byte and not yet done, can no
   * longer keep pace ({@link #keptPace}, by the same bar): its reads so far, run-queue wait
   * taken off, are over it. A listed DataNode that is slow for this caller is then given up
   * at once, not after a whole subblock at its pace (a second, at a tenth of its peers'
   * speed). A subblock begun mid-way never keeps pace and is judged when it is done.
   */
  boolean fallenBehind() {
    if (!whole || subblock < 0) {
      return false;
    }
    long opening = perSub > 0 || doneInBlock > 0 ? 0 : Math.max(0, firstCallNanos);
    long bar = perSub > 0 ? perSub + (doneInBlock == 0 ? firstGrace : 0) : firstGrace;
    if (subblockNanos - opening < bar) {
      return false; // the usual answer, without a look at the run-queue wait
    }
    return netNanos(bar + opening) - opening >= bar;
  }

  /** Forgets the subblock being timed (the stream was moved); the block is begun again. */
  void forget() {
    subblock = -1;
  }

  /** The run-queue wait taken off the subblock's time, as last looked at (nanoseconds). */
  long discountNanos() {
    return discount;
  }

  /** Time in HDFS's reads of the subblock being timed so far, run-queue wait included. */
  long subblockNanos() {
    return subblockNanos;
  }

  /**
   * Whether the block is late as a run: at least one subblock before this one slower than
   * the block's per-subblock deadline in a row, this one slower so far too, and the run's
   * time at least {@code floor} (times net of run-queue wait). A single slow subblock among
   * fast ones (a pause of a core) makes no run; a DataNode's steady slowness does, even
   * when each of its subblocks arrives under the floor.
   */
  boolean slowRun(long floor) {
    if (perSub <= 0 || runSubblocks == 0 || subblockNanos < perSub || runNanos + subblockNanos < floor) {
      return false;
    }
    long net = netNanos(perSub);
    return net >= perSub && runNanos + net >= floor;
  }
}
