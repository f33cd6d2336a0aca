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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.coder.layout.SubblockAddress;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.pocache.cache.DaemonThreads;

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
 * into a window of {@code window} subblock slots ahead of the caller; the caller
 * takes bytes as soon as they land in a slot, so with nothing slow a read costs what
 * HDFS's costs plus one copy. The window does not run into the next block: a task's
 * split is one block and its record reader reads only a little past the boundary (to
 * the end of its last record), so past it the streamer reads the next block's first
 * {@value #CHUNK} bytes and waits until the caller gets there; read further, those
 * bytes would cost the next block's DataNode (and the task reading that block) time
 * for nothing. Within a block the read-ahead ramps up: the streamer runs at most as
 * far ahead of the caller as the caller has read of the block (at least a chunk), so
 * a reader of whole files gets the whole window a few subblocks into each block.
 * Parity comes in only where a slot is late:
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
 * Rebuilt bytes are checked against the CRC32C stored with the parity before use.
 *
 * <p>A rebuild reads the same subblock of the stripe's other blocks: those of blocks the
 * caller has not reached yet are kept ({@code kept}, within the FileSystem's read-ahead
 * budget) and serve the caller when it gets there, and those the whole-block prefetch
 * holds already are copied from it, so a block rebuilt from parity does not cost the
 * other blocks' DataNodes their bytes twice.
 *
 * <p>Bytes read by the streamer and by rebuilds are taken off the FileSystem
 * statistics of the threads that read them ({@code uncount}); the stream counts
 * what it hands to its caller on the caller's thread, so task input metrics
 * (Spark's read the task thread's statistics) match HDFS's own.
 *
 * <p>All slot state is guarded by {@code lock}; the streamer writes a slot's bytes
 * outside the lock (it is the only writer of {@code WindowSlot.pieces}) and publishes them by
 * raising {@code filled} under it.
 *
 * <p><b>Parts.</b> Here: the window of slots, which the caller and the streamer share under
 * one lock, and the rebuilds that race it. The streamer's I/O is {@link WindowStreamer};
 * what is decided per block (streamed, left to parity, down) and the caller's questions
 * that lead there, {@link BlockVerdicts}; when a subblock is late, {@link SubblockDeadlines};
 * rebuild inputs kept for later blocks, {@link KeptSubblocks}.
 */
final class SequentialReader implements SequentialSource {
  private static final Logger LOG = LoggerFactory.getLogger(SequentialReader.class);
  /** Bytes per stateful read of the streamer: the caller sees progress at this grain. */
  private static final int CHUNK = 128 << 10;
  /** Size of the arrays a slot's bytes are kept in (far below half of G1's smallest region). */
  static final int PIECE = CHUNK;
  /**
   * Bytes a caller may take without the lock after a locked read: small reads (TeraSort's
   * record reader reads 100 bytes a call) then cost a copy, and a locked read, which tells
   * the streamer how far the caller is, still comes at least this often.
   */
  private static final int FAST_SPAN = CHUNK / 4;
  /**
   * A rebuild still running after this many deadlines waits on a slow piece of its own:
   * the subblock is streamed as well.
   */
  static final int RACE_LATE_REBUILD = 2;

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

  /** Whether any DataNode is suspect for this client: blocks are fetched ahead only then. */
  boolean anySuspect() {
    return rebuilds.anySuspect();
  }

  /** Opens the streamer's own stream of the same file (checked to hold the same blocks). */
  interface Opener {
    DFSInputStream open() throws IOException;
  }

  private final Opener opener;
  private final StripeLayout layout;
  private final DegradedReader rebuilds;
  /** Subblocks rebuilt from parity, per block of the file (for tests and DEBUG). @GuardedBy("lock") */
  private final Map<Long, Integer> decodedPerBlock = new HashMap<>();
  private final BufferPool buffers;
  private final LongConsumer uncount;
  private final ProactiveReader.Outcome outcome;
  private final long fileLength;
  private final int subblock;
  private final int window;
  private final SubblockDeadlines deadlines;
  /** Per-block decisions (streamed, left to parity, down), and the caller's questions. */
  private final BlockVerdicts verdicts;
  /** The caller's whole-block prefetch, if it has one: rebuilds take the other pieces from it. */
  private volatile BlockPrefetch ahead;
  /** Rebuilds' inputs, served from memory and kept for later blocks (see {@link #held}). */
  private final PieceRebuilds.Held held = new Held();

  private final Object lock = new Object();
  /** Subblocks of later blocks read by rebuilds; a slot takes its own when it is assigned. @GuardedBy("lock") */
  private final KeptSubblocks kept;
  /** Ring of slots, slot of subblock g at g % window. @GuardedBy("lock") */
  private final WindowSlot[] slots;
  /** First subblock of the window. @GuardedBy("lock") */
  private long head = -1;
  /** Raised by every reset of the window; the streamer drops a read made for an older one. @GuardedBy("lock") */
  private long epoch;
  /** Where the caller last read. @GuardedBy("lock") */
  private long callerPos;
  /** The caller wakes an idle streamer once it reads at or past here. @GuardedBy("lock") */
  private long wakeStreamerAt = Long.MAX_VALUE;
  /** The streamer waits with nothing to stream (for tests). @GuardedBy("lock") */
  private boolean streamerWaiting;
  /** Where the read-ahead limit stopped the streamer at its last look, -1 if it did not. @GuardedBy("lock") */
  private long limitedAt = -1;
  /** How often the caller took its reads back ({@link #handBack}). @GuardedBy("lock") */
  private int handedBack;
  /** Whether a rebuild of this reader has come back with its bytes (the first pays the setup). */
  private boolean rebuiltOnce;
  /** @GuardedBy("lock") */
  private boolean closed;
  /** @GuardedBy("lock") */
  private Thread streamer;
  /** Bytes the streamer has read from HDFS. */
  private final AtomicLong streamedBytes = new AtomicLong();
  /** Why the streamer could not open its stream: the caller goes back to HDFS's stream. @GuardedBy("lock") */
  private IOException openFailure;

  /** Thrown by {@link #read} when this reader cannot serve: read from HDFS's own stream instead. */
  static final class FallBack extends IOException {
    private static final long serialVersionUID = 1L;

    FallBack(String why, Throwable cause) {
      super(why, cause);
    }
  }

  SequentialReader(Opener opener, StripeLayout layout, ProactiveReader proactive, DegradedReader rebuilds,
      BufferPool buffers, LongConsumer uncount, ProactiveReader.Outcome outcome, int window,
      double deadlineFactor, long minDeadlineMillis, SubblockTimes times, BlockPrefetch.Budget keepBudget) {
    this.opener = opener;
    this.layout = layout;
    this.rebuilds = rebuilds;
    this.buffers = buffers;
    this.uncount = uncount;
    this.outcome = outcome;
    this.fileLength = layout.fileLength();
    this.subblock = layout.subblockSize();
    this.window = Math.max(2, window);
    this.deadlines = new SubblockDeadlines(times, deadlineFactor, minDeadlineMillis);
    this.verdicts = new BlockVerdicts(lock, layout, proactive, rebuilds, deadlines);
    this.kept = new KeptSubblocks(buffers, keepBudget, subblock);
    this.slots = new WindowSlot[this.window];
    for (int x = 0; x < this.window; x++) {
      slots[x] = new WindowSlot();
    }
  }

  /** What this reader decided about each block, and the questions the caller's own reads ask. */
  BlockVerdicts verdicts() {
    return verdicts;
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
    long g = pos / subblock;
    synchronized (lock) {
      fastPiece = null;
      fastTo = 0;
      if (closed) {
        throw new IOException("Stream closed");
      }
      moveWindow(g);
      callerPos = pos;
      if (pos >= wakeStreamerAt) {
        wakeStreamerAt = Long.MAX_VALUE;
        lock.notifyAll(); // the read-ahead limit moved
      }
      WindowSlot slot = slots[(int) (g % window)];
      int within = (int) (pos - slot.start);
      while (true) {
        if (openFailure != null) {
          throw new FallBack("the read-ahead stream could not be opened", openFailure);
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
        if (closed) {
          throw new IOException("Stream closed");
        }
      }
    }
  }

  /**
   * Starts a rebuild of the slot when it is late or on a listed straggler and parity
   * can rescue it; returns how long the caller may wait before looking again.
   */
  private long maybeRebuild(WindowSlot slot) {
    long deadline = deadlines.deadline();
    long rebuilding = System.nanoTime() - slot.rebuildStart;
    if (slot.rebuilding && slot.skipStream && slot.error == null && slot.rebuildReadsLeft.get() > 0
        && rebuilding >= RACE_LATE_REBUILD * deadline
        && (rebuiltOnce || rebuilding >= SubblockDeadlines.COLD_BAR_NANOS)) {
      // A rebuild this late with a piece's read still out waits on a slow piece of its own:
      // the DataNode left to parity (listed, or late before) may be healthy while another one
      // is slow, one the list missed. Stream the subblock as well; whichever answers first
      // serves, and a stream that wins hands the rest of its block back to streaming (see
      // stream()). A rebuild whose reads are all in waits on the rest (the parity, the coder),
      // and this reader's first one is given the cold bar: it also pays for what a task's new
      // JVM sets up on its first decode (the coder's native library, the Redis and DataNode
      // connections), seconds on shared cores; raced, a straggler's stream won and took its
      // block back for good.
      slot.skipStream = false;
      if (!slot.raced) {
        // The streamer may be held up elsewhere (ahead, on a DataNode that is restarting):
        // read the subblock from its own DataNode on the pool as well.
        slot.raced = true;
        startRace(slot);
      }
      lock.notifyAll();
      if (LOG.isDebugEnabled()) {
        LOG.debug("rebuild of subblock {} late ({} ms): streaming it too", slot.g,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - slot.rebuildStart));
      }
    }
    if (slot.rebuilding || slot.rebuildFailed) {
      return TimeUnit.MILLISECONDS.toNanos(50);
    }
    boolean late;
    if (slot.error != null) {
      late = true; // the stream failed here (a dead DataNode): parity may still answer
    } else if (verdicts.takeLateByCaller(slot.g)) {
      late = true; // the caller's own reads of it were late already (lateForCaller)
    } else {
      // The caller waits on a slot only once the slots before it are in, so a slot the
      // streamer has not begun means the streamer is stuck in an earlier, abandoned one
      // (or still opening its stream after a seek): the wait counts from when the caller
      // began it.
      long now = System.nanoTime();
      long since = slot.streamStart == 0 ? slot.waitSince : Math.min(slot.streamStart, slot.waitSince);
      long waited = now - since;
      late = waited >= deadline;
      if (!late) {
        return deadline - waited;
      }
      if (!deadlines.timed()) {
        // No subblock timed yet (a new task's JVM): the first deadline is a guess, not this
        // cluster's speed, and a cold JVM's first bytes of a block take a connection, a
        // DataNode's block open and the JIT's warm-up, on cores its wave's other tasks share.
        // Judge the subblock by its own progress: late once it has waited the cold bar, or
        // sooner if, at the rate its bytes arrive after the first read, the whole subblock
        // would take that long. A healthy
        // DataNode slower than the guess, or slow to start, is then streamed, not handed to
        // parity for nothing (each such rebuild cost a task a Redis connect and a block of
        // parity checks and decoding when two in a row left the block to parity).
        long bar = deadlines.coldBar(deadline);
        if (waited < bar && !slot.projectedLate(now, bar)) {
          return Math.min(bar - waited, TimeUnit.MILLISECONDS.toNanos(20));
        }
      }
    }
    if (!verdicts.rescuable(slot.g)) {
      return TimeUnit.MILLISECONDS.toNanos(50);
    }
    startRebuild(slot);
    long block = verdicts.blockOf(slot.g);
    boolean takeOver = verdicts.late(block, slot.error != null);
    if (LOG.isDebugEnabled()) {
      LOG.debug("subblock {} late (stream began {} ms ago, {} of {} bytes in, deadline {} ms){}", slot.g,
          slot.streamStart == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - slot.streamStart),
          slot.filled, slot.len, TimeUnit.NANOSECONDS.toMillis(deadline),
          takeOver ? ": the rest of block " + block + " is left to parity" : "");
    }
    if (takeOver) {
      // The block's DataNode keeps failing or falling behind: the rest of the block goes to parity.
      for (WindowSlot s : slots) {
        if (s.g > slot.g && verdicts.blockOf(s.g) == block && !s.complete() && !s.rebuilding && !s.rebuildFailed) {
          startRebuild(s);
        }
      }
    }
    return TimeUnit.MILLISECONDS.toNanos(50);
  }

  private void releasePieces(WindowSlot s) {
    if (s.pieces != null) {
      for (byte[] b : s.pieces) {
        buffers.release(b);
      }
      s.pieces = null;
    }
  }

  /** Makes subblock g the window's first, keeping what is already read of the window's rest. */
  private void moveWindow(long g) {
    if (head >= 0 && g >= head && g < head + window) {
      if (g == head) {
        return;
      }
      for (long x = head; x < g; x++) {
        recycle(slots[(int) (x % window)]);
      }
      long oldEnd = head + window;
      head = g;
      for (long x = oldEnd; x < g + window; x++) {
        assign(slots[(int) (x % window)], x);
      }
    } else {
      epoch++;
      for (WindowSlot s : slots) {
        recycle(s);
      }
      head = g;
      for (long x = g; x < g + window; x++) {
        assign(slots[(int) (x % window)], x);
      }
    }
    kept.dropBefore(head);
    // Rebuilds deferred while their block was ahead of the caller start once it is reached.
    long callerBlock = verdicts.blockOf(head);
    if (verdicts.leftToParity(callerBlock)) {
      for (WindowSlot s : slots) {
        if (s.g >= head && verdicts.blockOf(s.g) == callerBlock && !s.complete() && !s.rebuilding && !s.rebuildFailed
            && verdicts.rescuable(s.g)) {
          startRebuild(s);
        }
      }
    }
    ensureStreamer();
    lock.notifyAll();
  }

  private void recycle(WindowSlot s) {
    if (s.rebuilt != null) {
      buffers.release(s.rebuilt);
    }
    s.reset();
  }

  private void assign(WindowSlot s, long g) {
    recycle(s);
    long start = g * subblock;
    if (start >= fileLength) {
      s.g = g;
      s.start = start;
      s.len = 0;
      return;
    }
    s.g = g;
    s.start = start;
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
    }
    verdicts.firstSight(g); // a listed straggler, or one late for this client, is never streamed
    long block = verdicts.blockOf(g);
    if (verdicts.leftToParity(block) && block == verdicts.blockOf(head) && !s.complete() && verdicts.rescuable(g)) {
      startRebuild(s); // a block ahead of the caller's waits until the caller reaches it
    }
  }

  private void startRebuild(WindowSlot s) {
    s.rebuilding = true;
    s.rebuildStart = System.nanoTime();
    s.skipStream = true;
    long g = s.g;
    long myEpoch = epoch;
    SubblockAddress a = layout.locate(s.start);
    s.rebuildReadsLeft.set(0);
    CompletableFuture<byte[]> f = rebuilds.rebuild(a.stripe, a.substripe, a.dataIndex, outcome, s.rebuildReadsLeft,
        held);
    f.thenAccept(bytes -> {
      synchronized (lock) {
        if (closed || epoch != myEpoch || s.g != g) {
          buffers.release(bytes); // the caller moved on
          return;
        }
        s.rebuilding = false;
        s.rebuildStart = 0;
        if (s.rebuilt != null) {
          if (bytes != null) {
            buffers.release(bytes); // the race read served it first
          }
          lock.notifyAll();
          return;
        }
        if (bytes == null) {
          s.rebuildFailed = true;
          s.skipStream = false; // parity cannot answer: the streamer reads it after all
          verdicts.rebuildFailed(verdicts.blockOf(g));
        } else if (s.filled == s.len) {
          buffers.release(bytes); // the stream won
        } else {
          s.rebuilt = bytes;
          rebuiltOnce = true;
          countSubstripe(true);
          decodedPerBlock.merge(verdicts.blockOf(g), 1, Integer::sum);
          if (s.streamStart != 0 && verdicts.leftToParity(verdicts.blockOf(g))) {
            // The stream was under way and lost, and its block was left to parity: what it
            // took so far shows the straggler (a single late subblock is no evidence).
            rebuilds.streamed(a.stripe, a.dataIndex, s.filled, System.nanoTime() - s.streamStart, true);
          }
        }
        lock.notifyAll();
      }
    });
  }

  /** Reads slot s's bytes on the pool, racing its late rebuild; the first to come serves. */
  private void startRace(WindowSlot s) {
    long g = s.g;
    long myEpoch = epoch;
    rebuilds.readRange(s.start, s.len).thenAccept(bytes -> {
      if (bytes == null) {
        return;
      }
      synchronized (lock) {
        if (closed || epoch != myEpoch || s.g != g || s.complete()) {
          buffers.release(bytes);
          return;
        }
        s.rebuilt = bytes; // its own DataNode answered first
        countSubstripe(false);
        if (s.rebuilding) {
          // As when the stream beats a rebuild: its DataNode serves, the rebuild waited on another.
          streamedAfterAll(verdicts.blockOf(g));
        }
        lock.notifyAll();
      }
    });
  }

  /**
   * A read of its own DataNode beat a rebuild of a subblock of {@code block}: if the block
   * was left to parity, its DataNode serves after all (the rebuild waited on another), and
   * the rest of the block is streamed again, racing the rebuilds under way. @GuardedBy("lock")
   */
  private void streamedAfterAll(long block) {
    if (verdicts.streamedAfterAll(block)) {
      for (WindowSlot o : slots) {
        if (verdicts.blockOf(o.g) == block && o.rebuilding && o.error == null) {
          o.skipStream = false;
        }
      }
    }
  }

  private void countSubstripe(boolean decoded) {
    synchronized (outcome) {
      outcome.substripes++;
      if (decoded) {
        outcome.decoded++;
      }
    }
  }

  private void ensureStreamer() {
    if (streamer == null && !closed) {
      Thread t = DaemonThreads.daemon(new WindowStreamer(new StreamerSide(), opener, uncount, fileLength, PIECE,
          streamedBytes), "pocache-stream");
      streamer = t;
      t.start();
    }
  }

  /** The window as its streamer sees it: the next read to make, and what a read's outcome means. */
  private final class StreamerSide implements WindowStreamer.Window {
    @Override
    public WindowStreamer.Claim claim() throws InterruptedException {
      synchronized (lock) {
        long idleSince = 0;
        WindowSlot slot;
        while (true) {
          if (closed) {
            return null;
          }
          slot = next();
          if (slot != null) {
            break;
          }
          if (idleSince == 0) {
            idleSince = System.nanoTime();
          }
          // Held back by the read-ahead limit, the caller's progress wakes it (a moved
          // window or a close wakes it anyway).
          wakeStreamerAt = limitedAt >= 0 ? callerPos + CHUNK / 4 : Long.MAX_VALUE;
          streamerWaiting = true;
          try {
            lock.wait();
          } finally {
            streamerWaiting = false;
          }
        }
        if (slot.streamStart == 0) {
          slot.streamStart = System.nanoTime();
        } else if (idleSince != 0) {
          // Paused inside this slot at the read-ahead limit: the pause is not the DataNode's time.
          slot.streamStart += System.nanoTime() - idleSince;
        }
        return new WindowStreamer.Claim(slot, epoch, Math.min(CHUNK, slot.len - slot.filled));
      }
    }

    @Override
    public void landed(WindowStreamer.Claim c, int n, IOException error) {
      WindowSlot slot = c.slot;
      synchronized (lock) {
        if (epoch != c.epoch || slot.g != c.g) {
          return; // the window moved while this read ran: its bytes are not wanted
        }
        if (error != null) {
          slot.error = error;
          slot.skipStream = true; // until the caller decides (rebuild or throw)
          verdicts.streamFailed(verdicts.blockOf(slot.g)); // its DataNodes failed (the stream gives up at once)
        } else {
          slot.filled += n;
          if (slot.firstBytesAt == 0 && n > 0) {
            slot.firstBytesAt = System.nanoTime();
            slot.firstFilled = slot.filled;
          }
          if (slot.filled == slot.len) {
            streamedWhole(slot);
          }
        }
        lock.notifyAll();
      }
    }

    @Override
    public void openFailed(IOException e) {
      synchronized (lock) {
        openFailure = e;
        lock.notifyAll();
      }
    }

    @Override
    public void failed(Throwable t) {
      synchronized (lock) {
        for (WindowSlot s : slots) {
          if (!s.complete() && s.error == null) {
            s.error = new IOException("read-ahead failed", t);
          }
        }
        lock.notifyAll();
      }
    }

    @Override
    public void exited() {
      synchronized (lock) {
        streamer = null;
        if (closed) {
          for (WindowSlot s : slots) {
            releasePieces(s);
          }
        }
      }
    }
  }

  /** The streamer read the whole of a slot: timed, unless a rebuild had served it first. @GuardedBy("lock") */
  private void streamedWhole(WindowSlot slot) {
    long took = System.nanoTime() - slot.streamStart;
    SubblockAddress a = layout.locate(slot.start);
    long block = verdicts.blockOf(slot.g);
    if (slot.rebuilt == null) {
      deadlines.learn(took);
      countSubstripe(false);
      verdicts.onTime(block);
      rebuilds.streamed(a.stripe, a.dataIndex, slot.len, took, false, slot.rebuilding);
      if (slot.rebuilding) {
        // The stream beat a rebuild: its DataNode serves, the rebuild waited on another.
        streamedAfterAll(block);
      }
    } else if (verdicts.leftToParity(block)) {
      rebuilds.streamed(a.stripe, a.dataIndex, slot.len, took, true); // late: the rebuild served
    }
  }

  /**
   * How far ahead of the caller the streamer may read: as far past the caller as the
   * caller has read of its block (at least a chunk), and at most one chunk into the
   * next block. A task reads one block (its split) and only a little past its end, to
   * finish its last record; a window of read-ahead into the next block would cost that
   * block's DataNode, and the task that reads it, time for bytes nobody reads. A reader
   * of whole files ramps up again at each block, as quickly as it reads. @GuardedBy("lock")
   */
  private long readAheadLimit() {
    long blockSize = layout.blockSize();
    long blockStart = callerPos / blockSize * blockSize;
    long limit = callerPos + Math.max(CHUNK, callerPos - blockStart);
    return Math.min(limit, blockStart + blockSize + CHUNK);
  }

  /** The first slot of the window the streamer should read, or null. @GuardedBy("lock") */
  private WindowSlot next() {
    if (head < 0) {
      return null;
    }
    limitedAt = -1;
    long callerBlock = verdicts.blockOf(head);
    long limit = readAheadLimit();
    for (long x = head; x < head + window; x++) {
      WindowSlot s = slots[(int) (x % window)];
      if (s.g != x || !s.wantsStream()) {
        continue;
      }
      if (s.start + s.filled >= limit) {
        limitedAt = s.start + s.filled;
        return null;
      }
      long block = verdicts.blockOf(x);
      if (block != callerBlock && verdicts.leftToParity(block)) {
        return null;
      }
      return s;
    }
    return null;
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      for (WindowSlot s : slots) {
        if (s.rebuilt != null) {
          buffers.release(s.rebuilt);
          s.rebuilt = null;
        }
      }
      kept.dropBefore(Long.MAX_VALUE);
      verdicts.close();
      if (streamer == null) {
        for (WindowSlot s : slots) {
          releasePieces(s);
        }
      }
      lock.notifyAll();
    }
  }

  /** Lets rebuilds copy the other pieces from the caller's whole-block prefetch (null: none any more). */
  void fetchesAhead(BlockPrefetch prefetch) {
    ahead = prefetch;
  }

  /**
   * Whether the subblock at {@code pos} is kept from a rebuild already: its block need not
   * be fetched ahead (the caller takes it from here).
   */
  boolean holds(long pos) {
    synchronized (lock) {
      return kept.holds(pos / subblock);
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
      long g = at / subblock;
      if (at != g * subblock) {
        return false;
      }
      synchronized (lock) {
        if (closed) {
          return false;
        }
        if (kept.copy(g, b, n)) {
          return true;
        }
        if (head >= 0 && g >= head && g < head + window) {
          WindowSlot s = slots[(int) (g % window)];
          if (s.g == g && n <= s.len && s.complete()) {
            if (s.rebuilt != null) {
              System.arraycopy(s.rebuilt, 0, b, 0, n);
            } else {
              for (int done = 0; done < n; done += PIECE) {
                System.arraycopy(s.pieces[done / PIECE], 0, b, done, Math.min(PIECE, n - done));
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
    public void offer(long at, byte[] b, int n) {
      long g = at / subblock;
      long block = verdicts.blockOf(g);
      BlockPrefetch p = ahead;
      if (at != g * subblock || p != null && p.fetching(block)) {
        return;
      }
      synchronized (lock) {
        if (!closed && head >= 0 && block > verdicts.blockOf(head) && g >= head + window) {
          kept.offer(g, b, n);
        }
      }
    }
  }

  // --- the caller's own reads (with BlockVerdicts) ------------------------------------

  /**
   * Whether the caller, which handed its reads over at a late subblock
   * ({@link #lateForCaller}), may read the subblock starting at {@code pos} itself again:
   * the late one is behind it, nothing of its block is left to parity, no rebuild is under
   * way or owed, and the read-ahead has not finished it. A late read that was a pause (a
   * collection in the client or a DataNode, a busy core) then costs one rebuild and the
   * read-ahead's few subblocks, not the rest of the file. If so the read-ahead stops and
   * drops what it has of the subblocks not yet read; the next {@link #read} starts it again.
   */
  boolean handBack(long pos) {
    long g = pos / subblock;
    if (pos != g * subblock || pos >= fileLength) {
      return false;
    }
    synchronized (lock) {
      if (closed || openFailure != null || verdicts.lateByCallerPending() || head < 0 || g < head
          || g >= head + window) {
        return false;
      }
      long block = verdicts.blockOf(g);
      if (verdicts.leftToParity(block) || verdicts.down(block) || verdicts.unrescuable(block)) {
        return false;
      }
      for (WindowSlot s : slots) {
        if (s.g >= g && (s.rebuilding || s.rebuilt != null || s.error != null)) {
          return false;
        }
      }
      if (slots[(int) (g % window)].complete()) {
        return false; // read ahead already: served from memory
      }
      fastPiece = null;
      fastTo = 0;
      epoch++;
      for (WindowSlot s : slots) {
        recycle(s);
      }
      head = -1; // the streamer waits until the caller hands over again
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
    countSubstripe(false);
  }

  /** Whether the streamer waits with nothing left to stream until the caller moves on (for tests). */
  boolean streamerWaiting() {
    synchronized (lock) {
      return streamerWaiting;
    }
  }

  /** Bytes the streamer has read from HDFS so far (for tests). */
  long streamedBytes() {
    return streamedBytes.get();
  }

  /** Subblocks rebuilt from parity so far, per block of the file (for tests). */
  Map<Long, Integer> decodedPerBlock() {
    synchronized (lock) {
      return new HashMap<>(decodedPerBlock);
    }
  }

  /** Whether two views of a file hold the same blocks (ids, generation stamps, lengths). */
  static boolean sameBlocks(List<org.apache.hadoop.hdfs.protocol.LocatedBlock> a,
      List<org.apache.hadoop.hdfs.protocol.LocatedBlock> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int x = 0; x < a.size(); x++) {
      org.apache.hadoop.hdfs.protocol.ExtendedBlock p = a.get(x).getBlock();
      org.apache.hadoop.hdfs.protocol.ExtendedBlock q = b.get(x).getBlock();
      if (!p.equals(q) || p.getGenerationStamp() != q.getGenerationStamp() || p.getNumBytes() != q.getNumBytes()) {
        return false;
      }
    }
    return true;
  }
}
