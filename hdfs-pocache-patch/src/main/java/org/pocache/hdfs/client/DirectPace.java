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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rules a replicated file's <em>direct</em> reads (the caller's own reads of HDFS's
 * stream, see {@link SequentialReads}) are judged by: at each block whether it is left to
 * parity from its start, at each subblock whether its DataNode was listed while the block
 * was read, and after each read whether the subblock is late or its listed DataNode has
 * fallen behind. The times are a {@link DirectReadTimes}; the verdicts are the
 * {@link SequentialReader}'s ({@link BlockVerdicts}), so a block the caller gives up is
 * the reader's to rebuild by the same rules. No I/O here.
 *
 * <p>Not thread-safe: the owning stream's synchronized methods call it.
 */
final class DirectPace {
  private static final Logger LOG = LoggerFactory.getLogger(DirectPace.class);

  /** What the caller's direct reads do after a read. */
  enum Next {
    /** Read on. */
    KEEP,
    /** The rest of this subblock is late: the reader's, until it hands the reads back. */
    LATE,
    /** The rest of the block is left to parity: the reader's. */
    LEFT_TO_PARITY
  }

  private final SequentialReader reader;
  private final BlockVerdicts verdicts;
  private final int subblock;
  private final long blockSize;
  private final long fileLength;
  private final DirectReadTimes times = new DirectReadTimes(RunQueueWait::nanos);
  /** The block holding the caller's position was checked up to here (exclusive); -1 after a move. */
  private long checkedTo = -1;

  DirectPace(SequentialReader reader, long fileLength) {
    this.reader = reader;
    this.verdicts = reader.verdicts();
    this.subblock = verdicts.subblockSize();
    this.blockSize = verdicts.blockSize();
    this.fileLength = fileLength;
  }

  /**
   * The caller is about to read at {@code pos}: returns the subblock the read is timed in,
   * or -1 if the reads are the reader's from here (the block is left to parity from its
   * start, or its DataNode was listed while the caller read its last subblock too slowly).
   */
  long beforeRead(long pos) {
    if (pos >= checkedTo) {
      if (verdicts.leftToParityAt(pos)) {
        return -1;
      }
      checkedTo = verdicts.blockEnd(pos);
      times.beginBlock(System.nanoTime(), verdicts.perSubblockDeadline(), verdicts.deadlineFloor());
    }
    long g = pos / subblock;
    if (!times.timing(g)) {
      // At each later subblock of a block (at its first, leftToParityAt was asked just above).
      if (g * subblock % blockSize != 0
          && verdicts.listedSince(pos, times.readBound(System.nanoTime()) && !times.keptPace())) {
        return -1; // listed while this block was being read: the rest of it is left to parity
      }
      times.adoptDeadline(verdicts.perSubblockDeadline());
      times.beginSubblock(g, pos == g * subblock, System.nanoTime());
    }
    return g;
  }

  /** One read of HDFS's stream took {@code nanos}, ending at {@code now}. */
  void spent(long nanos, long now) {
    times.spent(nanos, now);
  }

  /**
   * A read of subblock {@code g} ended at {@code now} with the caller at {@code pos}. A
   * subblock read to its end is reported as the read-ahead's subblocks are; one not yet
   * done is judged late by the reader's rules, or its listed DataNode fallen behind.
   */
  Next afterRead(long g, long pos, long now) {
    if (pos >= Math.min(fileLength, (g + 1) * subblock)) {
      reader.deliveredElsewhere();
      long whole = times.subblockDone();
      if (LOG.isDebugEnabled() && times.discountNanos() > 0) {
        LOG.debug("subblock {}: {} us of its {} us in HDFS's reads waited for a core", g,
            times.discountNanos() / 1000, times.subblockNanos() / 1000);
      }
      if (whole >= 0) {
        verdicts.readElsewhere(g, whole);
      }
      return Next.KEEP;
    }
    if (verdicts.lateForCaller(g, times)) {
      return Next.LATE;
    }
    if (times.fallenBehind() && verdicts.listedSince(pos, times.readBound(now))) {
      return Next.LEFT_TO_PARITY; // a listed DataNode behind for this caller
    }
    return Next.KEEP;
  }

  /** Forgets the timing and the block check: the direct stream was moved. */
  void moved() {
    checkedTo = -1;
    times.forget();
  }
}
