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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.coder.layout.SubblockAddress;
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
 *       is late only once it has waited a second ({@code COLD_BAR_NANOS}), or its bytes after
 *       the first read arrive at a rate that takes that long, so a healthy DataNode slower
 *       than the guess, or slow to start while the task's wave starts, is not raced;</li>
 *   <li>once {@value #TAKEOVER_AFTER} subblocks of a block in a row were late (or the
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
 * outside the lock (it is the only writer of {@code Slot.pieces}) and publishes them by
 * raising {@code filled} under it.
 *
 * <p><b>Size.</b> One class because the streamer and the caller share the window of
 * slots under one lock; the parts that stand alone (SubblockTimes, the opener) are
 * separate.
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
  /** The deadline before any subblock was timed (a new task JVM has no history). */
  private static final long FIRST_DEADLINE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  /**
   * Before any subblock was timed, a subblock is late only after waiting at least this long
   * (or factor x the first deadline, if longer), or when its bytes arrive too slowly: a task's
   * JVM starts beside the other tasks of its wave, and while they start, its first subblock
   * often takes a few hundred milliseconds from healthy DataNodes (no bytes for 340 ms, 128 KiB
   * in 190 ms, measured in sort's map tasks on two shared cores).
   */
  private static final long COLD_BAR_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** Bytes after a slot's first read from which its rate is judged before any subblock was timed. */
  private static final int COLD_RATE_BYTES = 256 << 10;
  /** Late subblocks in a row after which the rest of their block is left to parity. */
  static final int TAKEOVER_AFTER = 2;
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
  private final ProactiveReader proactive;
  private final DegradedReader rebuilds;
  /** Subblocks rebuilt from parity, per block of the file (for tests and DEBUG). @GuardedBy("lock") */
  private final Map<Long, Integer> decodedPerBlock = new HashMap<>();
  private final BufferPool buffers;
  private final LongConsumer uncount;
  private final ProactiveReader.Outcome outcome;
  private final long fileLength;
  private final int subblock;
  private final int window;
  private final double deadlineFactor;
  private final long minDeadlineNanos;
  private final SubblockTimes times;
  /** Memory for rebuild inputs kept for later blocks, shared with the FileSystem's fetches ahead. */
  private final BlockPrefetch.Budget keepBudget;
  /** The caller's whole-block prefetch, if it has one: rebuilds take the other pieces from it. */
  private volatile BlockPrefetch ahead;
  /** Rebuilds' inputs, served from memory and kept for later blocks (see {@link #held}). */
  private final DegradedReader.Held held = new Held();

  private final Object lock = new Object();
  /**
   * Subblocks of blocks the caller has not reached, read by rebuilds of an earlier block
   * (pooled arrays of {@code subblock} bytes, each reserved in {@code keepBudget}); a
   * slot takes its own when it is assigned. @GuardedBy("lock")
   */
  private final Map<Long, byte[]> kept = new HashMap<>();
  /** Ring of slots, slot of subblock g at g % window. @GuardedBy("lock") */
  private final Slot[] slots;
  /** First subblock of the window. @GuardedBy("lock") */
  private long head = -1;
  /** Raised by every reset of the window; the streamer drops a read made for an older one. @GuardedBy("lock") */
  private long epoch;
  /** Blocks (global block numbers) rebuilt from parity instead of streamed. @GuardedBy("lock") */
  private final Set<Long> rebuiltBlocks = new HashSet<>();
  /** Blocks whose first subblock was assigned (leave-to-parity decided). @GuardedBy("lock") */
  private final Set<Long> decidedBlocks = new HashSet<>();
  /** Where the caller last read. @GuardedBy("lock") */
  private long callerPos;
  /** The caller wakes an idle streamer once it reads at or past here. @GuardedBy("lock") */
  private long wakeStreamerAt = Long.MAX_VALUE;
  /** The streamer waits with nothing to stream (for tests). @GuardedBy("lock") */
  private boolean streamerWaiting;
  /** Where the read-ahead limit stopped the streamer at its last look, -1 if it did not. @GuardedBy("lock") */
  private long limitedAt = -1;
  /** Late subblocks in a row per block not (yet) left to parity. @GuardedBy("lock") */
  private final Map<Long, Integer> lateInRow = new HashMap<>();
  /** The subblock the caller's own reads found late, -1 if none: rebuilt at once. @GuardedBy("lock") */
  private long lateByCaller = -1;
  /** How often the caller took its reads back ({@link #handBack}). @GuardedBy("lock") */
  private int handedBack;
  /** Whether a rebuild of this reader has come back with its bytes (the first pays the setup). */
  private boolean rebuiltOnce;
  /** Blocks parity cannot rescue: streamed whatever their speed. @GuardedBy("lock") */
  private final Set<Long> unrescuable = new HashSet<>();
  /**
   * Blocks none of whose DataNodes answered the caller's own read (down, or restarting):
   * left to parity, which then only another such block of the stripe keeps from standing
   * in (a slow one only delays a rebuild; waiting for a DataNode that is down takes HDFS's
   * retries, seconds each). @GuardedBy("lock")
   */
  private final Set<Long> downBlocks = new HashSet<>();
  /** @GuardedBy("lock") */
  private boolean closed;
  /** @GuardedBy("lock") */
  private Thread streamer;
  /** Where the streamer's stream stands, -1 before it is opened. Streamer thread only. */
  private long streamPos = -1;
  private DFSInputStream stream;
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

  /** One subblock of the window. */
  private static final class Slot {
    long g = -1;
    long start;
    int len;
    /**
     * The streamed bytes, in pieces of {@link #PIECE} bytes: a 1 MiB array is humongous for
     * G1 in a task's 512 MiB heap (half a region or more), and each humongous allocation in a
     * heap filled by the map's sort buffer started a concurrent mark cycle.
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
    final java.util.concurrent.atomic.AtomicInteger rebuildReadsLeft = new java.util.concurrent.atomic.AtomicInteger();
    /** The rebuild answered nothing usable: stream this one. */
    boolean rebuildFailed;
    /** Leave this slot to parity: the streamer skips it. */
    boolean skipStream;
    /** A late rebuild of it is raced by a read of its own bytes on the pool (see {@link #startRace}). */
    boolean raced;
    IOException error;

    boolean complete() {
      return rebuilt != null || filled == len;
    }
  }

  /** Recent time to stream one subblock, shared by a FileSystem's streams. */
  static final class SubblockTimes {
    private volatile double meanNanos;

    long deadline(double factor, long minNanos) {
      double m = meanNanos;
      return m == 0 ? Math.max(minNanos, FIRST_DEADLINE_NANOS) : Math.max(minNanos, (long) (m * factor));
    }

    /** Whether any subblock was timed (a deadline rests on this cluster's speed, not a guess). */
    boolean timed() {
      return meanNanos != 0;
    }

    /** Whether subblocks were timed and take longer than {@code nanos} on average lately. */
    boolean slowerThan(long nanos) {
      double m = meanNanos;
      return m != 0 && m > nanos;
    }

    void learn(long nanos) {
      double m = meanNanos;
      meanNanos = m == 0 ? nanos : 0.8 * m + 0.2 * nanos;
    }
  }

  SequentialReader(Opener opener, StripeLayout layout, ProactiveReader proactive, DegradedReader rebuilds,
      BufferPool buffers, LongConsumer uncount, ProactiveReader.Outcome outcome, int window,
      double deadlineFactor, long minDeadlineMillis, SubblockTimes times, BlockPrefetch.Budget keepBudget) {
    this.opener = opener;
    this.layout = layout;
    this.proactive = proactive;
    this.rebuilds = rebuilds;
    this.buffers = buffers;
    this.uncount = uncount;
    this.outcome = outcome;
    this.fileLength = layout.fileLength();
    this.subblock = layout.subblockSize();
    this.window = Math.max(2, window);
    this.deadlineFactor = deadlineFactor;
    this.minDeadlineNanos = TimeUnit.MILLISECONDS.toNanos(minDeadlineMillis);
    this.times = times;
    this.keepBudget = keepBudget;
    this.slots = new Slot[this.window];
    for (int x = 0; x < this.window; x++) {
      slots[x] = new Slot();
    }
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
      Slot slot = slots[(int) (g % window)];
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
        if (slot.error != null && (slot.rebuildFailed || !slot.rebuilding && !rescuable(slot))) {
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
  private long maybeRebuild(Slot slot) {
    long deadline = times.deadline(deadlineFactor, minDeadlineNanos);
    long rebuilding = System.nanoTime() - slot.rebuildStart;
    if (slot.rebuilding && slot.skipStream && slot.error == null && slot.rebuildReadsLeft.get() > 0
        && rebuilding >= RACE_LATE_REBUILD * deadline && (rebuiltOnce || rebuilding >= COLD_BAR_NANOS)) {
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
    } else if (slot.g == lateByCaller) {
      late = true; // the caller's own reads of it were late already (lateForCaller)
      lateByCaller = -1;
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
      if (!times.timed()) {
        // No subblock timed yet (a new task's JVM): the first deadline is a guess, not this
        // cluster's speed, and a cold JVM's first bytes of a block take a connection, a
        // DataNode's block open and the JIT's warm-up, on cores its wave's other tasks share.
        // Judge the subblock by its own progress: late once it has waited the cold bar, or
        // sooner if, at the rate its bytes arrive after the first read, the whole subblock
        // would take that long. A healthy
        // DataNode slower than the guess, or slow to start, is then streamed, not handed to
        // parity for nothing (each such rebuild cost a task a Redis connect and a block of
        // parity checks and decoding when two in a row left the block to parity).
        long bar = Math.max((long) (deadlineFactor * deadline), COLD_BAR_NANOS);
        if (waited < bar && !projectedLate(slot, now, bar)) {
          return Math.min(bar - waited, TimeUnit.MILLISECONDS.toNanos(20));
        }
      }
    }
    if (!rescuable(slot)) {
      return TimeUnit.MILLISECONDS.toNanos(50);
    }
    startRebuild(slot);
    long block = blockOf(slot.g);
    int inRow = lateInRow.merge(block, 1, Integer::sum);
    if (LOG.isDebugEnabled()) {
      LOG.debug("subblock {} late (stream began {} ms ago, {} of {} bytes in, deadline {} ms), {} in a row{}", slot.g,
          slot.streamStart == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - slot.streamStart),
          slot.filled, slot.len, TimeUnit.NANOSECONDS.toMillis(deadline), inRow,
          slot.error != null || inRow >= TAKEOVER_AFTER ? ": the rest of block " + block + " is left to parity" : "");
    }
    if (slot.error != null || inRow >= TAKEOVER_AFTER) {
      // The block's DataNode keeps failing or falling behind: leave the rest of the block to parity.
      lateInRow.remove(block);
      rebuiltBlocks.add(block);
      for (Slot s : slots) {
        if (s.g > slot.g && blockOf(s.g) == block && !s.complete() && !s.rebuilding && !s.rebuildFailed) {
          startRebuild(s);
        }
      }
    }
    return TimeUnit.MILLISECONDS.toNanos(50);
  }

  private void releasePieces(Slot s) {
    if (s.pieces != null) {
      for (byte[] b : s.pieces) {
        buffers.release(b);
      }
      s.pieces = null;
    }
  }

  /**
   * Whether a slot's stream, at the rate its bytes arrive after its first read, takes
   * {@code bar} or longer for the whole subblock: a DataNode that sends slowly, as opposed
   * to one slow to send its first bytes to a cold JVM (which only waiting past the bar
   * makes late). False until {@value #COLD_RATE_BYTES} bytes arrived after the first read:
   * a cold JVM's first packets say more about its own start than about the DataNode.
   */
  private static boolean projectedLate(Slot slot, long now, long bar) {
    if (slot.streamStart == 0 || slot.firstBytesAt == 0 || slot.filled <= slot.firstFilled
        || slot.filled - slot.firstFilled < Math.min(COLD_RATE_BYTES, slot.len - slot.firstFilled)
        || now <= slot.firstBytesAt) {
      return false;
    }
    double nanosPerByte = (double) (now - slot.firstBytesAt) / (slot.filled - slot.firstFilled);
    return nanosPerByte * slot.len >= bar;
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
      for (Slot s : slots) {
        recycle(s);
      }
      head = g;
      for (long x = g; x < g + window; x++) {
        assign(slots[(int) (x % window)], x);
      }
    }
    if (!kept.isEmpty()) {
      dropKept(head);
    }
    // Rebuilds deferred while their block was ahead of the caller start once it is reached.
    long callerBlock = blockOf(head);
    if (rebuiltBlocks.contains(callerBlock)) {
      for (Slot s : slots) {
        if (s.g >= head && blockOf(s.g) == callerBlock && !s.complete() && !s.rebuilding && !s.rebuildFailed
            && rescuable(s)) {
          startRebuild(s);
        }
      }
    }
    ensureStreamer();
    lock.notifyAll();
  }

  private void recycle(Slot s) {
    if (s.rebuilt != null) {
      buffers.release(s.rebuilt);
    }
    s.g = -1;
    s.rebuilt = null;
    s.rebuilding = false;
    s.rebuildStart = 0;
    s.rebuildFailed = false;
    s.skipStream = false;
    s.raced = false;
    s.filled = 0;
    s.streamStart = 0;
    s.firstBytesAt = 0;
    s.firstFilled = 0;
    s.waitSince = 0;
    s.error = null;
  }

  private void assign(Slot s, long g) {
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
    byte[] mine = kept.remove(g);
    if (mine != null) {
      keepBudget.release(subblock);
      s.rebuilt = mine; // a rebuild of an earlier block read it: served from memory
      countSubstripe(false);
    }
    long block = blockOf(g);
    if (unrescuable.contains(block)) {
      return;
    }
    if (!decidedBlocks.contains(block)) {
      // First sight of this block: a listed straggler, or one late for this client, is never streamed.
      decidedBlocks.add(block);
      SubblockAddress a = layout.locate(start);
      if (proactive.isCached(a.stripe) && rebuilds.leaveToParity(a.stripe, a.dataIndex)) {
        rebuiltBlocks.add(block);
      }
    }
    if (rebuiltBlocks.contains(block) && block == blockOf(head) && !s.complete() && rescuable(s)) {
      startRebuild(s); // a block ahead of the caller's waits until the caller reaches it
    }
  }

  private long blockOf(long g) {
    return g * subblock / layout.blockSize();
  }

  /**
   * Whether parity can stand in for this subblock: its stripe's parity is cached and
   * fewer than m of the other pieces of its substripe sit on listed stragglers, on
   * blocks this stream already found slow, or on the subblock's own DataNode (whose
   * slowness a rebuild would then share). For a block that is down only the pieces that
   * cannot be read at all count (down as well, or on its own DataNodes): a slow piece
   * delays the rebuild, where the alternative is HDFS's retries and then a failed read,
   * and a block whose own rebuild failed, having needed this one, still reads.
   */
  private boolean rescuable(Slot s) {
    return rescuable(s.g, s.start, s.len);
  }

  private boolean rescuable(long g, long start, int len) {
    if (len == 0 || unrescuable.contains(blockOf(g))) {
      return false;
    }
    SubblockAddress a = layout.locate(start);
    if (!proactive.isCached(a.stripe)) {
      return false;
    }
    int k = layout.k();
    int m = proactive.m();
    int slowOthers = 0;
    long firstBlock = a.stripe * k;
    boolean down = downBlocks.contains(blockOf(g));
    for (int x = 0; x < k; x++) {
      if (x == a.dataIndex || layout.storedLength(a.stripe, a.substripe, x) == 0) {
        continue;
      }
      long other = firstBlock + x;
      if (down ? downBlocks.contains(other) || rebuilds.sameDataNodes(a.stripe, a.dataIndex, x)
          : rebuiltBlocks.contains(other) || rebuilds.listedStraggler(a.stripe, x)
          || rebuilds.sameDataNodes(a.stripe, a.dataIndex, x)) {
        slowOthers++; // a rebuild would wait on it (for a down block: could not be done at all)
      }
    }
    return slowOthers < m;
  }

  private void startRebuild(Slot s) {
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
          unrescuable.add(blockOf(g));
          rebuiltBlocks.remove(blockOf(g));
        } else if (s.filled == s.len) {
          buffers.release(bytes); // the stream won
        } else {
          s.rebuilt = bytes;
          rebuiltOnce = true;
          countSubstripe(true);
          decodedPerBlock.merge(blockOf(g), 1, Integer::sum);
          if (s.streamStart != 0 && rebuiltBlocks.contains(blockOf(g))) {
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
  private void startRace(Slot s) {
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
        long block = blockOf(g);
        if (s.rebuilding && rebuiltBlocks.remove(block)) {
          // As when the stream beats a rebuild: its DataNode serves, the rebuild waited on
          // another. The rest of its block is streamed, racing the rebuilds under way.
          for (Slot o : slots) {
            if (blockOf(o.g) == block && o.rebuilding && o.error == null) {
              o.skipStream = false;
            }
          }
        }
        lock.notifyAll();
      }
    });
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
      Thread t = DaemonThreads.daemon(this::stream, "pocache-stream");
      streamer = t;
      t.start();
    }
  }

  /** The streamer: fills the window's slots front to back through its own stream. */
  private void stream() {
    try {
      while (true) {
        Slot slot;
        long myEpoch;
        long g;
        int from;
        int want;
        synchronized (lock) {
          long idleSince = 0;
          while (true) {
            if (closed) {
              return;
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
          myEpoch = epoch;
          g = slot.g;
          from = slot.filled;
          want = Math.min(CHUNK, slot.len - from);
        }
        long at = slot.start + from;
        int n;
        IOException error = null;
        try {
          if (stream == null) {
            try {
              stream = opener.open();
            } catch (IOException e) {
              synchronized (lock) {
                openFailure = e;
                lock.notifyAll();
              }
              return;
            }
          }
          if (streamPos != at) {
            stream.seek(at);
            streamPos = at;
          }
          n = stream.read(slot.pieces[from / PIECE], from % PIECE, Math.min(want, PIECE - from % PIECE));
          if (n < 0) {
            throw new java.io.EOFException("end of file at " + at + ", expected " + fileLength + " bytes");
          }
          streamPos += n;
          streamedBytes.addAndGet(n);
          uncount.accept(n);
        } catch (IOException e) {
          n = 0;
          error = e;
          closeStream(); // reopen afresh next time (HDFS's own retries already ran)
        }
        synchronized (lock) {
          if (epoch != myEpoch || slot.g != g) {
            continue; // the window moved while this read ran: its bytes are not wanted
          }
          if (error != null) {
            slot.error = error;
            slot.skipStream = true; // until the caller decides (rebuild or throw)
            downBlocks.add(blockOf(slot.g)); // its DataNodes failed (the stream gives up at once)
          } else {
            slot.filled += n;
            if (slot.firstBytesAt == 0 && n > 0) {
              slot.firstBytesAt = System.nanoTime();
              slot.firstFilled = slot.filled;
            }
            if (slot.filled == slot.len) {
              long took = System.nanoTime() - slot.streamStart;
              SubblockAddress a = layout.locate(slot.start);
              boolean late = slot.rebuilt != null;
              if (!late) {
                times.learn(took);
                countSubstripe(false);
                long block = blockOf(slot.g);
                lateInRow.remove(block); // on time: the late ones were not in a row
                rebuilds.streamed(a.stripe, a.dataIndex, slot.len, took, false, slot.rebuilding);
                if (slot.rebuilding && rebuiltBlocks.remove(block)) {
                  // The stream beat a rebuild of a block left to parity: its DataNode serves,
                  // the rebuild waited on another. Stream the rest of the block, racing the
                  // rebuilds already under way.
                  for (Slot o : slots) {
                    if (blockOf(o.g) == block && o.rebuilding && o.error == null) {
                      o.skipStream = false;
                    }
                  }
                }
              } else if (rebuiltBlocks.contains(blockOf(slot.g))) {
                rebuilds.streamed(a.stripe, a.dataIndex, slot.len, took, true);
              }
            }
          }
          lock.notifyAll();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | LinkageError e) {
      LOG.warn("POCache's sequential read-ahead stopped; reads of this stream wait for HDFS", e);
      synchronized (lock) {
        for (Slot s : slots) {
          if (!s.complete() && s.error == null) {
            s.error = new IOException("read-ahead failed", e);
          }
        }
        lock.notifyAll();
      }
    } finally {
      closeStream();
      synchronized (lock) {
        streamer = null;
        if (closed) {
          for (Slot s : slots) {
            releasePieces(s);
          }
        }
      }
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
  private Slot next() {
    if (head < 0) {
      return null;
    }
    limitedAt = -1;
    long callerBlock = blockOf(head);
    long limit = readAheadLimit();
    for (long x = head; x < head + window; x++) {
      Slot s = slots[(int) (x % window)];
      if (s.g != x || s.len == 0 || s.complete() || s.skipStream || s.error != null) {
        continue;
      }
      if (s.start + s.filled >= limit) {
        limitedAt = s.start + s.filled;
        return null;
      }
      if (blockOf(x) != callerBlock && rebuiltBlocks.contains(blockOf(x))) {
        return null;
      }
      return s;
    }
    return null;
  }

  private void closeStream() {
    DFSInputStream s = stream;
    stream = null;
    streamPos = -1;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        LOG.debug("closing the read-ahead stream: {}", e.toString());
      }
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      for (Slot s : slots) {
        if (s.rebuilt != null) {
          buffers.release(s.rebuilt);
          s.rebuilt = null;
        }
      }
      dropKept(Long.MAX_VALUE);
      if (streamer == null) {
        for (Slot s : slots) {
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
      return kept.containsKey(pos / subblock);
    }
  }

  /** Drops the kept subblocks before subblock {@code before}. @GuardedBy("lock") */
  private void dropKept(long before) {
    java.util.Iterator<Map.Entry<Long, byte[]>> it = kept.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Long, byte[]> e = it.next();
      if (e.getKey() < before) {
        buffers.release(e.getValue());
        keepBudget.release(subblock);
        it.remove();
      }
    }
  }

  /**
   * The other pieces a rebuild needs, from memory where this reader has them: a subblock
   * kept from an earlier rebuild, a streamed slot of the window, or the prefetch's blocks.
   * Pieces read from DataNodes for blocks the caller has not reached are kept, as long as
   * the budget allows and the prefetch is not fetching their block anyway.
   */
  private final class Held implements DegradedReader.Held {
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
        byte[] mine = kept.get(g);
        if (mine != null) {
          System.arraycopy(mine, 0, b, 0, n);
          return true;
        }
        if (head >= 0 && g >= head && g < head + window) {
          Slot s = slots[(int) (g % window)];
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
      long block = blockOf(g);
      BlockPrefetch p = ahead;
      if (at != g * subblock || p != null && p.fetching(block)) {
        return;
      }
      synchronized (lock) {
        if (closed || head < 0 || block <= blockOf(head) || g < head + window || kept.containsKey(g)
            || keepBudget.reserve(subblock, subblock) == 0) {
          return;
        }
        byte[] c = buffers.borrow(subblock);
        System.arraycopy(b, 0, c, 0, n);
        kept.put(g, c);
      }
    }
  }

  // --- the caller's own reads --------------------------------------------------------
  //
  // PoCacheInputStream reads HDFS's stream itself, on its caller's thread, until this reader
  // is needed: these let it judge its reads by the same rules the streamer's are judged by.

  /** The subblock size of the file's layout. */
  int subblockSize() {
    return subblock;
  }

  /** Where the block holding file offset {@code pos} ends (exclusive). */
  long blockSize() {
    return layout.blockSize();
  }

  long blockEnd(long pos) {
    long blockSize = layout.blockSize();
    return Math.min(fileLength, (pos / blockSize + 1) * blockSize);
  }

  /**
   * Whether the block holding {@code pos} is left to parity from its start (its DataNodes
   * are listed, or were late for this client) and parity can stand in for it: the caller
   * hands its reads to this reader rather than read that DataNode itself. Asked once per
   * block (the straggler list's probes count the answers): a yes is this reader's
   * decision for the block too.
   */
  boolean leftToParity(long pos) {
    long g = pos / subblock;
    long start = g * subblock;
    synchronized (lock) {
      if (decidedBlocks.contains(blockOf(g))) {
        return rebuiltBlocks.contains(blockOf(g));
      }
    }
    SubblockAddress a = layout.locate(start);
    if (!proactive.isCached(a.stripe) || !rebuilds.leaveToParity(a.stripe, a.dataIndex)) {
      return false;
    }
    synchronized (lock) {
      long block = blockOf(g);
      if (decidedBlocks.contains(block)) {
        return rebuiltBlocks.contains(block); // asked before (by the prefetch, or at the block's start)
      }
      if (closed || !rescuable(g, start, (int) Math.min(subblock, fileLength - start))) {
        return false;
      }
      decidedBlocks.add(block);
      rebuiltBlocks.add(block);
      return true;
    }
  }

  /**
   * Whether the block holding {@code pos}, which the caller has been reading itself, is on
   * the Manager's straggler list now and parity can stand in for the rest of it: the rest
   * of the block is left to parity from the subblock at {@code pos} and the caller hands
   * its reads to this reader. Asked at each subblock the caller starts. A task's stream
   * reads one block for as long as the block's DataNode takes, and a straggler listed
   * while it does would otherwise keep it until the end of its split.
   *
   * <p>Listed on clients' reads (what readers waited on) is enough. Listed on its heartbeats
   * alone, the DataNode takes the block over only if the caller is {@code readBound} (has
   * spent most of its time on this block waiting in HDFS's reads): under MapReduce load a
   * healthy DataNode's heartbeat now and then looks a fifth as fast as its peers' for a few
   * seconds, while its tasks, which compute as fast as it sends, wait little on it;
   * rebuilding the rest of its blocks would cost k - 1 other DataNodes for nothing. The
   * clients' verdict takes longer: it needs the tasks reading the straggler's peers to have
   * reported, and two samples in a row.
   */
  boolean listedSince(long pos, boolean readBound) {
    long g = pos / subblock;
    long start = g * subblock;
    SubblockAddress a = layout.locate(start);
    if (!(rebuilds.seenSlowByClients(a.stripe, a.dataIndex) || readBound && rebuilds.listedStraggler(a.stripe,
        a.dataIndex)) || !proactive.isCached(a.stripe)) {
      return false;
    }
    synchronized (lock) {
      long block = blockOf(g);
      int len = (int) Math.min(subblock, fileLength - start);
      if (closed || rebuiltBlocks.contains(block) || !rescuable(g, start, len)) {
        return false;
      }
      decidedBlocks.add(block);
      rebuiltBlocks.add(block);
      return true;
    }
  }

  /**
   * The caller's own read of the block holding {@code pos} failed at once: none of its
   * DataNodes answered (down, or restarting). The rest of the block is left to parity
   * where parity can stand in; otherwise it is streamed, through HDFS's retries.
   */
  void blockDown(long pos) {
    long g = pos / subblock;
    long start = g * subblock;
    synchronized (lock) {
      long block = blockOf(g);
      downBlocks.add(block);
      decidedBlocks.add(block);
      if (!closed && proactive.isCached(layout.locate(start).stripe)
          && rescuable(g, start, (int) Math.min(subblock, fileLength - start))) {
        rebuiltBlocks.add(block);
      }
      lock.notifyAll();
    }
  }

  /**
   * The deadline for one subblock by the recent mean, without the floor; 0 before any
   * subblock was timed. The caller takes it when it begins a block and judges the block's
   * subblocks by it ({@link #lateForCaller}): the block's own slow subblocks do not raise it.
   */
  long perSubblockDeadline() {
    return times.timed() ? times.deadline(deadlineFactor, 0) : 0;
  }

  /**
   * Whether the caller's own reads of subblock {@code g} ({@code t}: their times) are late,
   * and parity could stand in for it. Late alone: the subblock's time so far against the
   * deadline a streamed subblock is judged by (the cold bar before any subblock was timed).
   * Or late as a run ({@link DirectReadTimes#slowRun}, with the floor counted once): this
   * catches a DataNode a few times slower than its peers whose subblocks each arrive under
   * the floor (a 1 MiB subblock at 80 MiB/s takes 12.5 ms), and the rest of its block is
   * left to parity at once. A subblock late alone is raced by a rebuild as soon as the
   * caller waits on it here, and counts as a late subblock of its block: one more in a row
   * leaves the rest of the block to parity.
   */
  boolean lateForCaller(long g, DirectReadTimes t) {
    long deadline = times.deadline(deadlineFactor, minDeadlineNanos);
    if (!times.timed()) {
      deadline = Math.max((long) (deadlineFactor * deadline), COLD_BAR_NANOS);
    }
    boolean slowBlock = false;
    if (t.subblockNanos() < deadline) {
      if (!t.slowRun(minDeadlineNanos)) {
        return false;
      }
      slowBlock = true;
    }
    long start = g * subblock;
    synchronized (lock) {
      if (closed || !rescuable(g, start, (int) Math.min(subblock, fileLength - start))) {
        return false;
      }
      lateByCaller = g;
      if (slowBlock) {
        lateInRow.put(blockOf(g), TAKEOVER_AFTER - 1); // this late one leaves the rest of the block to parity
      }
      return true;
    }
  }

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
      if (closed || openFailure != null || lateByCaller >= 0 || head < 0 || g < head || g >= head + window) {
        return false;
      }
      long block = blockOf(g);
      if (rebuiltBlocks.contains(block) || downBlocks.contains(block) || unrescuable.contains(block)) {
        return false;
      }
      for (Slot s : slots) {
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
      for (Slot s : slots) {
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

  /**
   * Subblock {@code g} was read whole from its DataNode, outside this reader (by the caller
   * or a prefetch), in {@code nanos}: timed and reported as a streamed one.
   */
  void readElsewhere(long g, long nanos) {
    long start = g * subblock;
    int len = (int) Math.min(subblock, fileLength - start);
    if (len <= 0) {
      return;
    }
    times.learn(nanos);
    synchronized (lock) {
      lateInRow.remove(blockOf(g)); // on time: the late ones were not in a row
    }
    SubblockAddress a = layout.locate(start);
    rebuilds.streamed(a.stripe, a.dataIndex, len, nanos, false);
  }

  /**
   * Subblock {@code g} was fetched whole ahead of the caller in {@code nanos} of HDFS reads;
   * returns whether it was on time, by the deadline the caller's own reads are judged by.
   * On time it is timed and reported as a streamed one; late, it is reported as a read
   * parity had to replace (its DataNode is slow for this client: the caller's reads of the
   * block go to parity when it gets there), and the fetch of its block should stop.
   */
  boolean fetchedAhead(long g, long nanos) {
    long deadline = times.deadline(deadlineFactor, minDeadlineNanos);
    if (!times.timed()) {
      deadline = Math.max((long) (deadlineFactor * deadline), COLD_BAR_NANOS);
    }
    if (nanos < deadline) {
      readElsewhere(g, nanos);
      return true;
    }
    long start = g * subblock;
    int len = (int) Math.min(subblock, fileLength - start);
    SubblockAddress a = layout.locate(start);
    rebuilds.streamed(a.stripe, a.dataIndex, len, nanos, true);
    return false;
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
