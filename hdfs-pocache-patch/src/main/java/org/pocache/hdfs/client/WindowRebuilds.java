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

import java.util.concurrent.CompletableFuture;
import org.pocache.coder.layout.SubblockAddress;

/**
 * The rebuilds that race a {@link SequentialReader}'s stream: a late subblock rebuilt from
 * the other k - 1 pieces of its substripe and the parity, a late rebuild raced in turn by a
 * read of the subblock's own DataNode, and what either outcome says about the block. The
 * caller decides when ({@code SequentialReader}); this class starts them and puts their
 * bytes in the slot under the window's lock, if the window still wants them.
 *
 * <p>A rebuild reads the same subblock of the stripe's other blocks: those of blocks the
 * caller has not reached yet are kept ({@link KeptSubblocks}, within the FileSystem's
 * read-ahead budget) and serve the caller when it gets there, and those the whole-block
 * prefetch holds already are copied from it ({@link Held}), so a block rebuilt from parity
 * does not cost the other blocks' DataNodes their bytes twice. Rebuilt bytes are checked
 * against the CRC32C stored with the parity before use.
 */
final class WindowRebuilds {
  private final ReadWindow w;
  private final DegradedReader rebuilds;
  /** The caller's whole-block prefetch, if it has one: rebuilds take the other pieces from it. */
  private volatile BlockPrefetch ahead;
  /** Rebuilds' inputs, served from memory and kept for later blocks. */
  private final PieceRebuilds.Held held = new Held();

  WindowRebuilds(ReadWindow w, DegradedReader rebuilds) {
    this.w = w;
    this.rebuilds = rebuilds;
  }

  /** Lets rebuilds copy the other pieces from the caller's whole-block prefetch (null: none any more). */
  void fetchesAhead(BlockPrefetch prefetch) {
    ahead = prefetch;
  }

  /** Rebuilds slot s from parity; the stream skips it meanwhile. @GuardedBy("lock") */
  void start(WindowSlot s) {
    s.rebuilding = true;
    s.rebuildStart = System.nanoTime();
    s.skipStream = true;
    long g = s.g;
    long myEpoch = w.epoch;
    SubblockAddress a = w.layout.locate(s.start);
    s.rebuildReadsLeft.set(0);
    CompletableFuture<byte[]> f = rebuilds.rebuild(a.stripe, a.substripe, a.dataIndex, w.outcome,
        s.rebuildReadsLeft, held);
    f.thenAccept(bytes -> {
      synchronized (w.lock) {
        if (w.closed || w.epoch != myEpoch || s.g != g) {
          w.buffers.release(bytes); // the caller moved on
          return;
        }
        s.rebuilding = false;
        s.rebuildStart = 0;
        if (s.rebuilt != null) {
          if (bytes != null) {
            w.buffers.release(bytes); // the race read served it first
          }
          w.lock.notifyAll();
          return;
        }
        if (bytes == null) {
          s.rebuildFailed = true;
          s.skipStream = false; // parity cannot answer: the streamer reads it after all
          w.verdicts.rebuildFailed(w.blockOf(g));
        } else if (s.filled == s.len) {
          w.buffers.release(bytes); // the stream won
        } else {
          s.rebuilt = bytes;
          w.rebuiltOnce = true;
          w.countSubstripe(true);
          w.decodedPerBlock.merge(w.blockOf(g), 1, Integer::sum);
          if (s.streamStart != 0 && w.verdicts.leftToParity(w.blockOf(g))) {
            // The stream was under way and lost, and its block was left to parity: what it
            // took so far shows the straggler (a single late subblock is no evidence).
            rebuilds.streamed(a.stripe, a.dataIndex, s.filled, System.nanoTime() - s.streamStart, true);
          }
        }
        w.lock.notifyAll();
      }
    });
  }

  /** Reads slot s's bytes on the pool, racing its late rebuild; the first to come serves. @GuardedBy("lock") */
  void race(WindowSlot s) {
    long g = s.g;
    long myEpoch = w.epoch;
    rebuilds.readRange(s.start, s.len).thenAccept(bytes -> {
      if (bytes == null) {
        return;
      }
      synchronized (w.lock) {
        if (w.closed || w.epoch != myEpoch || s.g != g || s.complete()) {
          w.buffers.release(bytes);
          return;
        }
        s.rebuilt = bytes; // its own DataNode answered first
        w.countSubstripe(false);
        if (s.rebuilding) {
          // As when the stream beats a rebuild: its DataNode serves, the rebuild waited on another.
          streamedAfterAll(w.blockOf(g));
        }
        w.lock.notifyAll();
      }
    });
  }

  /**
   * A read of its own DataNode beat a rebuild of a subblock of {@code block}: if the block
   * was left to parity, its DataNode serves after all (the rebuild waited on another), and
   * the rest of the block is streamed again, racing the rebuilds under way. @GuardedBy("lock")
   */
  void streamedAfterAll(long block) {
    if (w.verdicts.streamedAfterAll(block)) {
      for (WindowSlot o : w.slots()) {
        if (w.blockOf(o.g) == block && o.rebuilding && o.error == null) {
          o.skipStream = false;
        }
      }
    }
  }

  /**
   * The other pieces a rebuild needs, from memory where this reader has them: a subblock
   * kept from an earlier rebuild, a streamed slot of the window, or the prefetch's blocks.
   * Pieces read from DataNodes for blocks the caller has not reached are kept, as long as
   * the budget allows and the prefetch is not fetching their block anyway.
   */
  private final class Held implements PieceRebuilds.Held {
    @Override
    public boolean copy(long at, byte[] b, int n) {
      long g = at / w.subblock;
      if (at != g * w.subblock) {
        return false;
      }
      synchronized (w.lock) {
        if (w.closed) {
          return false;
        }
        if (w.kept.copy(g, b, n)) {
          return true;
        }
        if (w.holds(g)) {
          WindowSlot s = w.slotOf(g);
          if (s.g == g && n <= s.len && s.complete()) {
            if (s.rebuilt != null) {
              System.arraycopy(s.rebuilt, 0, b, 0, n);
            } else {
              for (int done = 0; done < n; done += ReadWindow.PIECE) {
                System.arraycopy(s.pieces[done / ReadWindow.PIECE], 0, b, done, Math.min(ReadWindow.PIECE, n - done));
              }
            }
            return true;
          }
        }
      }
      BlockPrefetch p = ahead;
      return p != null && p.copy(at, b, n);
    }

    @Override
    public byte[] take(long at, int n) {
      long g = at / w.subblock;
      if (at != g * w.subblock) {
        return null;
      }
      synchronized (w.lock) {
        return w.closed ? null : w.kept.takeBehind(g);
      }
    }

    @Override
    public boolean keep(long at, byte[] b, int n) {
      long g = at / w.subblock;
      long block = w.blockOf(g);
      BlockPrefetch p = ahead;
      if (at != g * w.subblock || p != null && p.fetching(block)) {
        return false;
      }
      synchronized (w.lock) {
        return !w.closed && w.head >= 0 && block > w.blockOf(w.head) && g >= w.head + w.window
            && w.kept.keep(g, b, n);
      }
    }
  }
}
