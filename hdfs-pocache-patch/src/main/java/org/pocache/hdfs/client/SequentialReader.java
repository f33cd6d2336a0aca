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
import java.io.InterruptedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.coder.layout.SubblockAddress;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sequential reads of a replicated file whose parity is cached, as a MapReduce or
 * Spark record reader makes them (one block, front to back, a few KiB per call), once
 * they need more than HDFS's own stream: {@link PoCacheInputStream} reads that stream
 * itself, timed by this reader's deadline, and hands its reads over here when a block it
 * reaches is left to parity or a subblock is late ({@link #leftToParity},
 * {@link #lateForCaller}).
 *
 * <p>Implementation notes. One streamer thread reads the file front to back through
 * its own {@link DFSInputStream}, exactly as HDFS's block reader streams a block,
 * into a window of {@code window} subblock slots ahead of the caller (how far ahead:
 * {@link WindowFeed}); the caller takes bytes as soon as they land in a slot, so with
 * nothing slow a read costs what HDFS's costs plus one copy. Parity comes in only where
 * a slot is late:
 * <ul>
 *   <li>the caller waits on a slot the streamer has been reading for longer than the
 *       deadline ({@code factor} x the recent subblock time, at least the minimum):
 *       a rebuild of that subblock from the other k - 1 pieces and the parity races
 *       the stream, and the first to finish serves the caller. Before any subblock
 *       was timed (a task's new JVM) the deadline is a fixed guess; a subblock past it
 *       is late only once it has waited a second ({@link SubblockDeadlines#COLD_BAR_NANOS}),
 *       or its bytes after the first read arrive at a rate that takes that long, so a healthy DataNode slower
 *       than the guess, or slow to start while the task's wave starts, is not raced;</li>
 *   <li>once {@value BlockVerdicts#TAKEOVER_AFTER} subblocks of a block in a row were late (or the
 *       stream failed), the rest of that block is rebuilt instead of streamed
 *       (rebuilds for the whole window in flight) and the streamer moves on to the
 *       next block. One late subblock is not enough: a rebuild reads k - 1 subblocks
 *       from other DataNodes, and a pause of the reader's JVM or two readers sharing
 *       a DataNode make single subblocks late on healthy DataNodes; taking their
 *       blocks over would load the other DataNodes (and the readers streaming from
 *       them) with k - 1 times the bytes. A block whose DataNodes are all on the
 *       Manager's straggler list is rebuilt from its first subblock;</li>
 *   <li>a rebuild still running after {@value #RACE_LATE_REBUILD} deadlines waits on a
 *       slow piece of its own (the list named a healthy DataNode and missed the slow
 *       one): the subblock is streamed too, and if the stream wins, the rest of its
 *       block is streamed again, so a wrong straggler list costs a read a few
 *       deadlines, not the slow DataNode's time (only while one of the rebuild's reads
 *       is still out, and for a reader's first rebuild, which also pays for the
 *       task's setup, not before the cold bar);</li>
 *   <li>a subblock parity cannot rescue (more than m pieces of its substripe on
 *       slow DataNodes, parity missing or damaged) is streamed, exactly as HDFS
 *       would read it.</li>
 * </ul>
 *
 * <p>Bytes read by the streamer and by rebuilds are taken off the FileSystem
 * statistics of the threads that read them ({@code uncount}); the stream counts
 * what it hands to its caller on the caller's thread, so task input metrics
 * (Spark's read the task thread's statistics) match HDFS's own.
 *
 * <p><b>Parts.</b> Here: the caller's side, which waits on a slot and decides when it is
 * late (by {@link SlotLateness}) and when its block goes to parity. The slots and what the
 * sides share, under one lock: {@link ReadWindow}. The streamer's side, {@link WindowFeed},
 * and its I/O, {@link WindowStreamer}; the rebuilds and the race of a late rebuild, {@link
 * WindowRebuilds}; what is decided per block (streamed, left to parity, down) and the
 * caller's questions that lead there, {@link BlockVerdicts}; the deadline, {@link
 * SubblockDeadlines}; rebuild inputs kept for later blocks, {@link KeptSubblocks}.
 */
final class SequentialReader implements SequentialSource {
  private static final Logger LOG = LoggerFactory.getLogger(SequentialReader.class);
  /** Size of the arrays a slot's bytes are kept in (far below half of G1's smallest region). */
  static final int PIECE = ReadWindow.PIECE;
  /**
   * Bytes a caller may take without the lock after a locked read: small reads (TeraSort's
   * record reader reads 100 bytes a call) then cost a copy, and a locked read, which tells
   * the streamer how far the caller is, still comes at least this often.
   */
  private static final int FAST_SPAN = ReadWindow.CHUNK / 4;
  /**
   * A rebuild still running after this many deadlines waits on a slow piece of its own:
   * the subblock is streamed as well.
   */
  static final int RACE_LATE_REBUILD = 2;
  /** How long a caller waits before it looks again at a slot being rebuilt or left to the stream. */
  private static final long LOOK_AGAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /**
   * The caller's fast path: file bytes [fastFrom, fastTo) are streamed bytes of
   * {@code fastPiece}, whose index 0 is file offset {@code fastBase}. Only the caller's
   * thread uses these (PoCacheInputStream's reads and close are synchronized). A locked
   * read sets them after it has seen those bytes in (so their writes happen before), and
   * the next locked read clears them before it may move the window: a piece is recycled
   * or released only when the window moves or the reader closes, and streamed bytes are
   * never written again, so the range stays valid while it is set.
   */
  private byte[] fastPiece;
  private long fastBase;
  private long fastFrom;
  private long fastTo;

  /** Opens the streamer's own stream of the same file (checked to hold the same blocks). */
  interface Opener {
    DFSInputStream open() throws IOException;
  }

  /** Thrown by {@link #read} when this reader cannot serve: read from HDFS's own stream instead. */
  static final class FallBack extends IOException {
    private static final long serialVersionUID = 1L;

    FallBack(String why, Throwable cause) {
      super(why, cause);
    }
  }

  private final ReadWindow w;
  private final Object lock;
  private final BlockVerdicts verdicts;
  private final SubblockDeadlines deadlines;
  private final DegradedReader degraded;
  private final WindowFeed feed;
  private final WindowRebuilds rebuilds;
  /** How often the caller took its reads back ({@link #handBack}). @GuardedBy("lock") */
  private int handedBack;

  SequentialReader(Opener opener, StripeLayout layout, ProactiveReader proactive, DegradedReader rebuilds,
      BufferPool buffers, LongConsumer uncount, ProactiveReader.Outcome outcome, int window,
      double deadlineFactor, long minDeadlineMillis, SubblockTimes times, BlockPrefetch.Budget keepBudget) {
    this.deadlines = new SubblockDeadlines(times, deadlineFactor, minDeadlineMillis);
    this.w = new ReadWindow(layout, window, buffers, outcome, deadlines, proactive, rebuilds, keepBudget);
    this.lock = w.lock;
    this.verdicts = w.verdicts;
    this.degraded = rebuilds;
    this.rebuilds = new WindowRebuilds(w, rebuilds);
    this.feed = new WindowFeed(w, this.rebuilds, rebuilds, opener, uncount);
  }

  /** What this reader decided about each block, and the questions the caller's own reads ask. */
  BlockVerdicts verdicts() {
    return verdicts;
  }

  /** Whether any DataNode is suspect for this client: blocks are fetched ahead only then. */
  boolean anySuspect() {
    return degraded.anySuspect();
  }

  /**
   * Copies up to {@code len} bytes from file offset {@code pos} (inside the file) into
   * {@code b}; returns how many (at least 1). Blocks until bytes at {@code pos} are in.
   */
  @Override
  public int read(long pos, byte[] b, int off, int len) throws IOException {
    if (pos >= fastFrom && pos < fastTo) {
      int n = (int) Math.min(len, fastTo - pos);
      System.arraycopy(fastPiece, (int) (pos - fastBase), b, off, n);
      return n;
    }
    return read(pos, len, (src, at, n) -> System.arraycopy(src, at, b, off, n));
  }

  /** As {@link #read(long, byte[], int, int)}, straight into {@code dst} (no array per call). */
  @Override
  public int read(long pos, java.nio.ByteBuffer dst) throws IOException {
    return read(pos, dst.remaining(), (src, at, n) -> dst.put(src, at, n));
  }

  /** Where a read's bytes go. */
  private interface Sink {
    void take(byte[] src, int at, int n);
  }

  private int read(long pos, int len, Sink sink) throws IOException {
    long g = pos / w.subblock;
    synchronized (lock) {
      fastPiece = null;
      fastTo = 0;
      if (w.closed) {
        throw new IOException("Stream closed");
      }
      moveWindow(g);
      w.callerPos = pos;
      if (pos >= w.wakeStreamerAt) {
        w.wakeStreamerAt = Long.MAX_VALUE;
        lock.notifyAll(); // the read-ahead limit moved
      }
      WindowSlot slot = w.slotOf(g);
      int within = (int) (pos - slot.start);
      while (true) {
        if (w.openFailure != null) {
          throw new FallBack("the read-ahead stream could not be opened", w.openFailure);
        }
        if (slot.rebuilt != null) {
          int n = Math.min(len, slot.len - within);
          sink.take(slot.rebuilt, within, n);
          return n;
        }
        if (slot.filled > within) {
          int n = Math.min(len, slot.filled - within);
          n = Math.min(n, PIECE - within % PIECE); // up to the end of its piece
          byte[] piece = slot.pieces[within / PIECE];
          sink.take(piece, within % PIECE, n);
          // What else of this piece is in may be taken without the lock, up to FAST_SPAN.
          int pieceStart = within / PIECE * PIECE;
          fastPiece = piece;
          fastBase = slot.start + pieceStart;
          fastFrom = pos + n;
          fastTo = Math.min(slot.start + Math.min(slot.filled, pieceStart + PIECE), fastFrom + FAST_SPAN);
          return n;
        }
        if (slot.error != null && (slot.rebuildFailed || !slot.rebuilding && !verdicts.rescuable(slot.g))) {
          // The read-ahead's stream gives up at once (FailFastClient): HDFS's own stream,
          // which waits for the block's DataNodes, reads from here on.
          throw new FallBack("the read-ahead stream failed where parity cannot stand in", slot.error);
        }
        if (slot.waitSince == 0) {
          slot.waitSince = System.nanoTime();
        }
        long wait = maybeRebuild(slot);
        try {
          lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while reading " + pos);
        }
        if (w.closed) {
          throw new IOException("Stream closed");
        }
      }
    }
  }

  /**
   * Starts a rebuild of the slot when it is late or on a listed straggler and parity
   * can rescue it; returns how long the caller may wait before looking again. @GuardedBy("lock")
   */
  private long maybeRebuild(WindowSlot slot) {
    long deadline = deadlines.deadline();
    long now = System.nanoTime();
    if (SlotLateness.rebuildWaitsOnItsOwn(slot, now, deadline, RACE_LATE_REBUILD, w.rebuiltOnce)) {
      // The DataNode left to parity (listed, or late before) may be healthy while another one
      // is slow, one the list missed. Stream the subblock as well; whichever answers first
      // serves, and a stream that wins hands the rest of its block back to streaming. A
      // reader's first rebuild is given the cold bar: it also pays for what a task's new JVM
      // sets up on its first decode (the coder's native library, the Redis and DataNode
      // connections), seconds on shared cores; raced, a straggler's stream won and took its
      // block back for good.
      slot.skipStream = false;
      if (!slot.raced) {
        // The streamer may be held up elsewhere (ahead, on a DataNode that is restarting):
        // read the subblock from its own DataNode on the pool as well.
        slot.raced = true;
        rebuilds.race(slot);
      }
      lock.notifyAll();
      if (LOG.isDebugEnabled()) {
        LOG.debug("rebuild of subblock {} late ({} ms): streaming it too", slot.g,
            TimeUnit.NANOSECONDS.toMillis(now - slot.rebuildStart));
      }
    }
    if (slot.rebuilding || slot.rebuildFailed) {
      return LOOK_AGAIN_NANOS;
    }
    // A failed stream (a dead DataNode) is late at once, parity may still answer; so is a
    // subblock the caller's own reads found late already (lateForCaller).
    if (slot.error == null && !verdicts.takeLateByCaller(slot.g)) {
      long wait = SlotLateness.waitOrLate(slot, now, deadline, deadlines.timed(), deadlines.coldBar(deadline));
      if (wait != SlotLateness.LATE) {
        return wait;
      }
    }
    if (!verdicts.rescuable(slot.g)) {
      return LOOK_AGAIN_NANOS;
    }
    rebuilds.start(slot);
    long block = w.blockOf(slot.g);
    boolean takeOver = verdicts.late(block, slot.error != null);
    if (LOG.isDebugEnabled()) {
      LOG.debug("subblock {} late (stream began {} ms ago, {} of {} bytes in, deadline {} ms){}", slot.g,
          slot.streamStart == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(now - slot.streamStart),
          slot.filled, slot.len, TimeUnit.NANOSECONDS.toMillis(deadline),
          takeOver ? ": the rest of block " + block + " is left to parity" : "");
    }
    if (takeOver) {
      // The block's DataNode keeps failing or falling behind: the rest of the block goes to
      // parity, and the DataNode's history remembers it for the next blocks on it.
      SubblockAddress a = w.layout.locate(slot.start);
      degraded.lateForThisClient(a.stripe, a.dataIndex);
      for (WindowSlot s : w.slots()) {
        if (s.g > slot.g && w.blockOf(s.g) == block && !s.complete() && !s.rebuilding && !s.rebuildFailed) {
          rebuilds.start(s);
        }
      }
    }
    return LOOK_AGAIN_NANOS;
  }

  /** Makes subblock g the window's first, keeping what is already read of the window's rest. @GuardedBy("lock") */
  private void moveWindow(long g) {
    if (!w.moveTo(g, this::assigned)) {
      return;
    }
    // Rebuilds deferred while their block was ahead of the caller start once it is reached.
    long callerBlock = w.blockOf(w.head);
    if (verdicts.leftToParity(callerBlock)) {
      for (WindowSlot s : w.slots()) {
        if (s.g >= w.head && w.blockOf(s.g) == callerBlock && !s.complete() && !s.rebuilding && !s.rebuildFailed
            && verdicts.rescuable(s.g)) {
          rebuilds.start(s);
        }
      }
    }
    feed.ensureStreamer();
    lock.notifyAll();
  }

  /** A subblock came into the window. @GuardedBy("lock") */
  private void assigned(WindowSlot s) {
    if (s.len == 0) {
      return;
    }
    verdicts.firstSight(s.g); // a listed straggler, or one late for this client, is never streamed
    long block = w.blockOf(s.g);
    if (verdicts.leftToParity(block) && block == w.blockOf(w.head) && !s.complete() && verdicts.rescuable(s.g)) {
      rebuilds.start(s); // a block ahead of the caller's waits until the caller reaches it
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (w.closed) {
        return;
      }
      w.closed = true;
      w.releaseRebuilt();
      w.kept.dropAll();
      verdicts.close();
      if (w.streamer == null) {
        w.releasePieces();
      }
      lock.notifyAll();
    }
  }

  /** Lets rebuilds copy the other pieces from the caller's whole-block prefetch (null: none any more). */
  void fetchesAhead(BlockPrefetch prefetch) {
    rebuilds.fetchesAhead(prefetch);
  }

  /**
   * Whether the subblock at {@code pos} is kept from a rebuild already: its block need not
   * be fetched ahead (the caller takes it from here).
   */
  boolean holds(long pos) {
    synchronized (lock) {
      return w.kept.holds(pos / w.subblock);
    }
  }

  // --- what the caller read that rebuilds of a later block want (KeptBehind) -----------

  /**
   * Whether rebuilds will want the block starting at {@code pos} once the caller has read
   * it ({@link BlockVerdicts#wantedByLaterRebuilds}); what was kept of earlier stripes goes.
   * Asked once per block, at its start.
   */
  boolean wantedBehind(long pos) {
    synchronized (lock) {
      w.kept.dropBehindBefore(verdicts.stripeStart(pos) / w.subblock);
    }
    return verdicts.wantedByLaterRebuilds(pos);
  }

  /** A pooled array for one subblock the caller reads, its room reserved; null if there is none. */
  byte[] borrowBehind() {
    synchronized (lock) {
      return w.closed ? null : w.kept.borrowBehind();
    }
  }

  /** Keeps subblock g, read whole by the caller into {@code bytes} (of {@link #borrowBehind}). */
  void keepBehind(long g, byte[] bytes) {
    synchronized (lock) {
      if (w.closed) {
        w.kept.giveBack(bytes);
      } else {
        w.kept.keepBehind(g, bytes);
      }
    }
  }

  /** Gives back an array of {@link #borrowBehind} that was not filled. */
  void giveBackBehind(byte[] bytes) {
    synchronized (lock) {
      w.kept.giveBack(bytes);
    }
  }

  // --- the caller's own reads (with BlockVerdicts) ------------------------------------

  /**
   * Whether the caller, which handed its reads over at a late subblock
   * ({@link BlockVerdicts#lateForCaller}), may read the subblock starting at {@code pos} itself again:
   * the late one is behind it, nothing of its block is left to parity, no rebuild is under
   * way or owed, and the read-ahead has not finished it. A late read that was a pause (a
   * collection in the client or a DataNode, a busy core) then costs one rebuild and the
   * read-ahead's few subblocks, not the rest of the file. If so the read-ahead stops and
   * drops what it has of the subblocks not yet read; the next {@link #read} starts it again.
   */
  boolean handBack(long pos) {
    long g = pos / w.subblock;
    if (pos != g * w.subblock || pos >= w.fileLength) {
      return false;
    }
    synchronized (lock) {
      if (w.closed || w.openFailure != null || verdicts.lateByCallerPending() || !w.holds(g) || g < w.head) {
        return false;
      }
      long block = w.blockOf(g);
      if (verdicts.leftToParity(block) || verdicts.down(block) || verdicts.unrescuable(block)) {
        return false;
      }
      for (WindowSlot s : w.slots()) {
        if (s.g >= g && (s.rebuilding || s.rebuilt != null || s.error != null)) {
          return false;
        }
      }
      if (w.slotOf(g).complete()) {
        return false; // read ahead already: served from memory
      }
      fastPiece = null;
      fastTo = 0;
      w.clear(); // the streamer waits until the caller hands over again
      handedBack++;
      lock.notifyAll();
      return true;
    }
  }

  /** How often the caller took its reads back (for tests and DEBUG). */
  int handedBack() {
    synchronized (lock) {
      return handedBack;
    }
  }

  /** The caller took the end of a subblock from outside this reader: one more substripe read without parity. */
  void deliveredElsewhere() {
    w.countSubstripe(false);
  }

  /** Whether the streamer waits with nothing left to stream until the caller moves on (for tests). */
  boolean streamerWaiting() {
    synchronized (lock) {
      return w.streamerWaiting;
    }
  }

  /** Bytes the streamer has read from HDFS so far (for tests). */
  long streamedBytes() {
    return feed.streamedBytes();
  }

  /** Subblocks rebuilt from parity so far, per block of the file (for tests). */
  Map<Long, Integer> decodedPerBlock() {
    synchronized (lock) {
      return new HashMap<>(w.decodedPerBlock);
    }
  }
}
