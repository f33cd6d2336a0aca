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

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One subblock of a {@link SequentialReader}'s window: what the streamer has of it, and
 * whether a rebuild stands in for it. Guarded by the reader's lock, except the streamed
 * bytes, which the streamer writes outside it (it is their only writer) and publishes by
 * raising {@link #filled} under it.
 */
final class WindowSlot {
  /** The subblock (-1: none). */
  long g = -1;
  long start;
  int len;
  /**
   * The streamed bytes, in pieces of {@link SequentialReader#PIECE} bytes: a 1 MiB array is
   * humongous for G1 in a task's 512 MiB heap (half a region or more), and each humongous
   * allocation in a heap filled by the map's sort buffer started a concurrent mark cycle.
   */
  byte[][] pieces;
  /** Bytes the streamer has written from the subblock's start. */
  int filled;
  /** When the streamer began this slot (0: not yet). */
  long streamStart;
  /** When the streamer's first read into this slot returned bytes (0: not yet), and how many it had then. */
  long firstBytesAt;
  int firstFilled;
  /** When the caller first waited for this slot (0: not yet). */
  long waitSince;
  /** The rebuilt subblock (pooled array), once a rebuild answered. */
  byte[] rebuilt;
  /** A rebuild is under way. */
  boolean rebuilding;
  /** When the rebuild under way began (0: none). */
  long rebuildStart;
  /** The rebuild's reads of the other pieces not yet ended. */
  final AtomicInteger rebuildReadsLeft = new AtomicInteger();
  /** The rebuild answered nothing usable: stream this one. */
  boolean rebuildFailed;
  /** Leave this slot to parity: the streamer skips it. */
  boolean skipStream;
  /** A late rebuild of it is raced by a read of its own bytes on the pool. */
  boolean raced;
  IOException error;

  /** Whether the caller can take all of it (streamed whole, or rebuilt). */
  boolean complete() {
    return rebuilt != null || filled == len;
  }

  /** Whether the streamer should read it next: its bytes are wanted and nothing else answers. */
  boolean wantsStream() {
    return len != 0 && !complete() && !skipStream && error == null;
  }

  /** Forgets the subblock; the caller has released {@link #rebuilt}. The pieces stay for the next. */
  void reset() {
    g = -1;
    rebuilt = null;
    rebuilding = false;
    rebuildStart = 0;
    rebuildFailed = false;
    skipStream = false;
    raced = false;
    filled = 0;
    streamStart = 0;
    firstBytesAt = 0;
    firstFilled = 0;
    waitSince = 0;
    error = null;
  }

  /**
   * Whether the stream, at the rate its bytes arrive after its first read, takes {@code bar}
   * or longer for the whole subblock at {@code now}: a DataNode that sends slowly, as opposed
   * to one slow to send its first bytes to a cold JVM (which only waiting past the bar makes
   * late). False until {@link SubblockDeadlines#COLD_RATE_BYTES} bytes arrived after the first
   * read: a cold JVM's first packets say more about its own start than about the DataNode.
   */
  boolean projectedLate(long now, long bar) {
    if (streamStart == 0 || firstBytesAt == 0 || filled <= firstFilled
        || filled - firstFilled < Math.min(SubblockDeadlines.COLD_RATE_BYTES, len - firstFilled)
        || now <= firstBytesAt) {
      return false;
    }
    double nanosPerByte = (double) (now - firstBytesAt) / (filled - firstFilled);
    return nanosPerByte * len >= bar;
  }
}
