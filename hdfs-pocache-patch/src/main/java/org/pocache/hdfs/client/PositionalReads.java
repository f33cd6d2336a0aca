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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.PositionedReadable;

/**
 * A stream's positional reads where HDFS's own are not enough: the substripes a range
 * covers whole go through the {@link ProactiveReader} (k pieces and the parity at once),
 * the parts of subblocks outside them through the {@link DegradedReader} (read directly,
 * raced by a rebuild when late) where the stripe is cached. While no DataNode is suspect
 * and the range is not worth reading at once, the range is HDFS's own read
 * ({@link LazyPreads}), and only what is left once a block is late is raced. Nothing here
 * counts in FileSystem statistics; the stream counts what it returns. Safe for concurrent
 * positional reads of one stream: each keeps its own outcome, merged into the stream's.
 */
final class PositionalReads {
  private final ProactiveReader proactive;
  /** Null: parts of subblocks are HDFS's reads (the file has no parity reader for them). */
  private final DegradedReader degraded;
  /** Reads of the HDFS stream that do not count in FileSystem statistics. */
  private final PositionedReadable uncounted;
  /** The stream's outcome, each read's merged in. */
  private final ProactiveReader.Outcome outcome;

  PositionalReads(ProactiveReader proactive, DegradedReader degraded, PositionedReadable uncounted,
      ProactiveReader.Outcome outcome) {
    this.proactive = proactive;
    this.degraded = degraded;
    this.uncounted = uncounted;
    this.outcome = outcome;
  }

  /**
   * A whole-range read for the {@link StripedReadAhead}, on any thread: the covered
   * substripes through the {@link ProactiveReader}, the rest HDFS's positional read; counts
   * nothing in FileSystem statistics (the caller's read counts what it returns). Returns how
   * many substripes were decoded from parity.
   */
  int readUncounted(long position, byte[] buffer, int offset, int length) throws IOException {
    List<long[]> covered = proactive.covered(position, length);
    if (covered.isEmpty() && degraded == null) {
      uncounted.readFully(position, buffer, offset, length);
      return 0;
    }
    return readParts(covered, position, buffer, offset, length);
  }

  /** Returns how many substripes were decoded from parity. */
  int readParts(List<long[]> covered, long position, byte[] buffer, int offset, int length)
      throws IOException {
    if (degraded != null && degraded.plain().lazy() && !degraded.plain().parallelPays(position, length)) {
      // Nothing suspect: HDFS's own read, timed per block; what is left once a block is late is raced.
      int plain = degraded.plain().readLazy(position, buffer, offset, length);
      if (plain == length) {
        countLazy(covered.size());
        return 0;
      }
      if (plain > 0) {
        countLazy(proactive.covered(position, plain).size());
        return readRaced(proactive.covered(position + plain, length - plain), position + plain, buffer,
            offset + plain, length - plain);
      }
    } else if (covered.isEmpty() && degraded.plain().readPlain(position, buffer, offset, length)) {
      return 0; // nothing suspect: HDFS's own read, timed
    }
    return readRaced(covered, position, buffer, offset, length);
  }

  /**
   * Counts substripes a lazy read covered as the proactive reader counts its own, so the
   * stream's read report (what the Manager's cache algorithm sees of this file's reads, and
   * this client's timings) goes out.
   */
  private void countLazy(int substripes) {
    if (substripes > 0) {
      ProactiveReader.Outcome lazyRead = new ProactiveReader.Outcome();
      lazyRead.substripes = substripes;
      lazyRead.lazy = substripes;
      outcome.add(lazyRead);
    }
  }

  /**
   * The covered substripes through the {@link ProactiveReader}, the rest of the range
   * subblock by subblock, raced by rebuilds where the stripe is cached; returns how many
   * substripes were decoded from parity.
   */
  private int readRaced(List<long[]> covered, long position, byte[] buffer, int offset, int length)
      throws IOException {
    // Parts of subblocks outside the covered substripes: degraded reads of a cached
    // stripe of a replicated file (raced by a rebuild when late), else plain preads.
    Set<Long> whole = new HashSet<>();
    for (long[] ss : covered) {
      whole.add(ss[0] << 32 | ss[1]);
    }
    ProactiveReader.Outcome mine = new ProactiveReader.Outcome();
    try {
      IOException[] failure = {null};
      proactive.layout().forEachPiece(position, length, (at, fileOffset, len) -> {
        if (failure[0] == null && !whole.contains(at.stripe << 32 | at.substripe)) {
          int into = offset + (int) (fileOffset - position);
          try {
            if (degraded != null && proactive.isCached(at.stripe)) {
              degraded.readRange(at.stripe, at.substripe, at.dataIndex, at.offset, len, buffer, into, mine);
              mine.substripes++;
            } else {
              uncounted.readFully(fileOffset, buffer, into, len);
            }
          } catch (IOException e) {
            failure[0] = e;
          }
        }
      });
      if (failure[0] != null) {
        throw failure[0];
      }
      if (!covered.isEmpty()) {
        proactive.read(covered, position, buffer, offset, mine);
      }
    } finally {
      outcome.add(mine); // concurrent preads on one stream each keep their own, merged here
    }
    return mine.decoded;
  }
}
