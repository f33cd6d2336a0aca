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

/**
 * How long a caller's own sequential reads of HDFS's stream have taken (the direct reads
 * of {@link PoCacheInputStream}): the subblock being read, the block it is in, and the run
 * of that block's subblocks just read that each took longer than the block's per-subblock
 * deadline. Times are handed in, in nanoseconds, so what is decided on them is tested
 * with scripted times, without a cluster or a clock. Used by the caller's thread only.
 */
final class DirectReadTimes {
  /** The subblock being timed, -1 if none. */
  private long subblock = -1;
  /** Time in HDFS's reads of that subblock so far. */
  private long subblockNanos;
  /** Whether that subblock is read from its first byte. */
  private boolean whole;
  /** When the caller began the block (nanoseconds). */
  private long blockBegan;
  /** Time in HDFS's reads of the block so far. */
  private long blockNanos;
  /** The per-subblock deadline the block is judged by, taken when it began; 0: none yet. */
  private long perSub;
  /** The run of the block's subblocks just read, each slower than {@link #perSub}. */
  private long runNanos;
  private int runSubblocks;

  /**
   * The caller begins a block at {@code now}; its subblocks are judged by {@code perSub}
   * (0 before any subblock was timed), as the mean was when the block began, so the block's
   * own slow subblocks do not raise the bar they are judged by.
   */
  void beginBlock(long now, long perSub) {
    blockBegan = now;
    blockNanos = 0;
    this.perSub = perSub;
    runNanos = 0;
    runSubblocks = 0;
  }

  /** Whether subblock {@code g} is the one being timed. */
  boolean timing(long g) {
    return g == subblock;
  }

  /** The caller begins subblock {@code g}, from its first byte or not ({@code whole}). */
  void beginSubblock(long g, boolean whole) {
    subblock = g;
    subblockNanos = 0;
    this.whole = whole;
  }

  /** One read of HDFS's stream took {@code nanos}. */
  void spent(long nanos) {
    subblockNanos += nanos;
    blockNanos += nanos;
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
   * if it was read from its first byte (a time worth learning), else -1.
   */
  long subblockDone() {
    if (perSub > 0 && subblockNanos >= perSub) {
      runNanos += subblockNanos;
      runSubblocks++;
    } else {
      runNanos = 0;
      runSubblocks = 0;
    }
    subblock = -1;
    return whole ? subblockNanos : -1;
  }

  /** Forgets the subblock being timed (the stream was moved); the block is begun again. */
  void forget() {
    subblock = -1;
  }

  /** Time in HDFS's reads of the subblock being timed so far. */
  long subblockNanos() {
    return subblockNanos;
  }

  /**
   * Whether the block is late as a run: at least one subblock before this one slower than
   * the block's per-subblock deadline in a row, this one slower so far too, and the run's
   * time at least {@code floor}. A single slow subblock among fast ones (a pause of a core)
   * makes no run; a DataNode's steady slowness does, even when each of its subblocks
   * arrives under the floor.
   */
  boolean slowRun(long floor) {
    return perSub > 0 && runSubblocks > 0 && subblockNanos >= perSub && runNanos + subblockNanos >= floor;
  }
}
