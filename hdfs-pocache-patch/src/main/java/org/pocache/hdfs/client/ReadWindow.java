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
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.hdfs.client.buffer.BufferPool;

/**
 * The state a {@link SequentialReader} shares with its streamer ({@link WindowFeed}) and its
 * rebuilds ({@link WindowRebuilds}): the ring of subblock slots ahead of the caller and what
 * all three need to know of each other, guarded by {@link #lock}. Only the slots' streamed
 * bytes are written outside it, by the streamer alone, which publishes them by raising
 * {@code WindowSlot.filled} under it. What each side decides is its own class's; this one
 * only keeps the ring in order.
 */
final class ReadWindow {
  /** Bytes per stateful read of the streamer: the caller sees progress at this grain. */
  static final int CHUNK = 128 << 10;
  /** Size of the arrays a slot's bytes are kept in (far below half of G1's smallest region). */
  static final int PIECE = CHUNK;

  final Object lock = new Object();
  final StripeLayout layout;
  final long fileLength;
  final int subblock;
  final int window;
  final BufferPool buffers;
  final ProactiveReader.Outcome outcome;
  final SubblockDeadlines deadlines;
  /** Per-block decisions (streamed, left to parity, down), and the caller's questions. */
  final BlockVerdicts verdicts;
  /** Subblocks of later blocks read by rebuilds; a slot takes its own when it is assigned. @GuardedBy("lock") */
  final KeptSubblocks kept;
  /** Ring of slots, slot of subblock g at g % window. @GuardedBy("lock") */
  private final WindowSlot[] slots;
  /** Subblocks rebuilt from parity, per block of the file (for tests and DEBUG). @GuardedBy("lock") */
  final Map<Long, Integer> decodedPerBlock = new HashMap<>();

  /** First subblock of the window; -1 while the caller reads by itself. @GuardedBy("lock") */
  long head = -1;
  /** Raised by every reset of the window; a read or rebuild made for an older one is dropped. @GuardedBy("lock") */
  long epoch;
  /** Where the caller last read. @GuardedBy("lock") */
  long callerPos;
  /** The caller wakes an idle streamer once it reads at or past here. @GuardedBy("lock") */
  long wakeStreamerAt = Long.MAX_VALUE;
  /** The streamer waits with nothing to stream (for tests). @GuardedBy("lock") */
  boolean streamerWaiting;
  /** Where the read-ahead limit stopped the streamer at its last look, -1 if it did not. @GuardedBy("lock") */
  long limitedAt = -1;
  /** Whether a rebuild of this reader has come back with its bytes (the first pays the setup). @GuardedBy("lock") */
  boolean rebuiltOnce;
  /** @GuardedBy("lock") */
  boolean closed;
  /** @GuardedBy("lock") */
  Thread streamer;
  /** Why the streamer could not open its stream: the caller goes back to HDFS's stream. @GuardedBy("lock") */
  IOException openFailure;

  ReadWindow(StripeLayout layout, int window, BufferPool buffers, ProactiveReader.Outcome outcome,
      SubblockDeadlines deadlines, ProactiveReader proactive, DegradedReader rebuilds,
      BlockPrefetch.Budget keepBudget) {
    this.layout = layout;
    this.fileLength = layout.fileLength();
    this.subblock = layout.subblockSize();
    this.window = Math.max(2, window);
    this.buffers = buffers;
    this.outcome = outcome;
    this.deadlines = deadlines;
    this.verdicts = new BlockVerdicts(lock, layout, proactive, rebuilds, deadlines);
    this.kept = new KeptSubblocks(buffers, keepBudget, subblock);
    this.slots = new WindowSlot[this.window];
    for (int x = 0; x < this.window; x++) {
      slots[x] = new WindowSlot();
    }
  }

  /** The slot subblock g has, or would have, in the ring. @GuardedBy("lock") */
  WindowSlot slotOf(long g) {
    return slots[(int) (g % window)];
  }

  /** The ring's slots, in no particular order. @GuardedBy("lock") */
  WindowSlot[] slots() {
    return slots;
  }

  /** Whether subblock g is in the window now. @GuardedBy("lock") */
  boolean holds(long g) {
    return head >= 0 && g >= head && g < head + window;
  }

  /**
   * Makes subblock g the window's first, keeping what is already read of the window's rest;
   * each slot that comes into the window is handed to {@code assigned}. False if g was the
   * window's first already. @GuardedBy("lock")
   */
  boolean moveTo(long g, Consumer<WindowSlot> assigned) {
    if (holds(g)) {
      if (g == head) {
        return false;
      }
      for (long x = head; x < g; x++) {
        recycle(slotOf(x));
      }
      long oldEnd = head + window;
      head = g;
      for (long x = oldEnd; x < g + window; x++) {
        assign(slotOf(x), x, assigned);
      }
    } else {
      epoch++;
      recycleAll();
      head = g;
      for (long x = g; x < g + window; x++) {
        assign(slotOf(x), x, assigned);
      }
    }
    kept.dropBefore(head);
    return true;
  }

  /** Empties the window: the streamer waits until the caller hands its reads over again. @GuardedBy("lock") */
  void clear() {
    epoch++;
    recycleAll();
    head = -1;
  }

  private void recycleAll() {
    for (WindowSlot s : slots) {
      recycle(s);
    }
  }

  private void recycle(WindowSlot s) {
    if (s.rebuilt != null) {
      buffers.release(s.rebuilt);
    }
    s.reset();
  }

  private void assign(WindowSlot s, long g, Consumer<WindowSlot> assigned) {
    recycle(s);
    long start = g * subblock;
    s.g = g;
    s.start = start;
    if (start >= fileLength) {
      s.len = 0;
      return;
    }
    s.len = (int) Math.min(subblock, fileLength - start);
    if (s.pieces == null) {
      s.pieces = new byte[(subblock + PIECE - 1) / PIECE][];
      for (int i = 0; i < s.pieces.length; i++) {
        s.pieces[i] = buffers.borrow(Math.min(PIECE, subblock - i * PIECE));
      }
    }
    byte[] mine = kept.take(g);
    if (mine != null) {
      s.rebuilt = mine; // a rebuild of an earlier block read it: served from memory
      countSubstripe(false);
      synchronized (outcome) {
        outcome.keptAheadBytes += s.len;
      }
    }
    assigned.accept(s);
  }

  /** Gives the slots' streamed-byte arrays back to the pool (the reader is closed and the streamer gone). */
  void releasePieces() {
    for (WindowSlot s : slots) {
      if (s.pieces != null) {
        for (byte[] b : s.pieces) {
          buffers.release(b);
        }
        s.pieces = null;
      }
    }
  }

  /** Gives the rebuilt subblocks back to the pool (the reader is closed). @GuardedBy("lock") */
  void releaseRebuilt() {
    for (WindowSlot s : slots) {
      if (s.rebuilt != null) {
        buffers.release(s.rebuilt);
        s.rebuilt = null;
      }
    }
  }

  /** One more substripe served, {@code decoded} if rebuilt from parity. */
  void countSubstripe(boolean decoded) {
    synchronized (outcome) {
      outcome.substripes++;
      if (decoded) {
        outcome.decoded++;
      }
    }
  }

  /** The block of the file subblock g is in. */
  long blockOf(long g) {
    return verdicts.blockOf(g);
  }
}
