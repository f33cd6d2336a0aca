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
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.pocache.cache.DaemonThreads;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.coder.layout.StripedLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sequential reads of an erasure-coded file whose parity is cached. HDFS's striped
 * stream reads a row of cells at a time and waits for the slowest cell of each: a
 * DataNode that holds a data cell sets the pace of the whole block group, and nothing in
 * HDFS hedges it. This reader serves a block group in one of two ways:
 * <ul>
 *   <li><b>HDFS's stream</b>, on the caller's thread, while nothing in the group is slow:
 *       a sequential read costs what HDFS's does. Each row's reads are timed.</li>
 *   <li><b>Chunks</b> of whole substripes (about {@value #CHUNK_TARGET_BYTES} bytes, never
 *       across block groups) read through the stream's positional read
 *       ({@link PoCacheInputStream#readUncounted}): the {@link ProactiveReader} reads the k
 *       data cells of each row from their internal blocks and, once a DataNode is suspect
 *       or its cell lags behind its peers, races them with the cached parity, so a slow
 *       cell is decoded instead of waited for. A caller that reads on gets the next chunk
 *       fetched on a thread of its own while it consumes this one.</li>
 * </ul>
 * The chunks that judge a group go through the proactive reader whatever the group's
 * state: its first (in a new JVM also its second, the first being slow everywhere), every
 * {@value #REJUDGE_EVERY_CHUNKS}th after, and the one after a row that took HDFS's stream
 * longer than the deadline ({@code dfs.pocache.read.deadline.factor} times a row's time in
 * the last judging chunk, at least {@code dfs.pocache.read.deadline.min.ms}). There the
 * group's DataNodes are compared with each other: if a cell lagged behind its row and was
 * decoded, or a DataNode holding one of the group's data cells is slow by what reads found
 * ({@link SlowSources#slowByReads}: late for this client's reads, backlogged, or listed by
 * the Manager on clients' reads), the rest of the group goes by chunks. The first judging
 * chunk of a group starts at a chunk boundary: after a seek into the middle of
 * one (a task's split starts anywhere) HDFS's stream serves the bytes up to the next
 * unless a DataNode of the group is slow by reads, so no chunk reads bytes before the
 * caller's position that nothing slow makes worth reading. A row is only a
 * hint: on shared cores a healthy row now and then takes three times another, and a
 * listing on heartbeats alone, which a healthy DataNode under load gets now and then,
 * waits for a judging chunk too.
 *
 * <p>At most three chunk arrays are held per stream: the caller's, the one ahead and an
 * abandoned one still being filled. A chunk that cannot be read (neither HDFS nor the
 * parity answered, or a cache-side error) hands the stream back to HDFS's own from that
 * position ({@link SequentialReader.FallBack}); HDFS's stream's own errors are the caller's.
 */
final class StripedReadAhead implements SequentialSource {
  private static final Logger LOG = LoggerFactory.getLogger(StripedReadAhead.class);

  /**
   * Reads [pos, pos + len) of the file whole into b, parity racing the data where it is
   * cached; counts nothing; returns how many substripes were decoded from parity.
   */
  interface Fill {
    int readFully(long pos, byte[] b, int off, int len) throws IOException;
  }

  /** When a block group's reads are to be left to chunks. */
  static final class Watch {
    final LongPredicate slowGroup;
    final double deadlineFactor;
    final long minDeadlineNanos;

    /**
     * @param slowGroup whether a DataNode holding a data cell of block group g is slow by what reads found
     * @param deadlineFactor a row read by HDFS's stream is late past this many times a row's time in chunks
     * @param minDeadlineMillis and never sooner than this
     */
    Watch(LongPredicate slowGroup, double deadlineFactor, long minDeadlineMillis) {
      this.slowGroup = slowGroup;
      this.deadlineFactor = deadlineFactor;
      this.minDeadlineNanos = TimeUnit.MILLISECONDS.toNanos(minDeadlineMillis);
    }
  }

  /**
   * While a block group is HDFS's stream's, every this many chunks' worth of it one chunk goes
   * through the proactive reader again, to compare the group's DataNodes with each other: a
   * straggler in every row of the group makes every row equally slow, so the rows' own
   * times cannot tell it, and a JVM's first chunks (new connections, classes, JIT) may not.
   */
  static final int REJUDGE_EVERY_CHUNKS = 16;

  /** A chunk holds whole substripes up to about this many bytes (at least one substripe). */
  static final int CHUNK_TARGET_BYTES = 8 << 20;
  /** A row's deadline before any was timed in chunks: the first reads of a task JVM are slow everywhere. */
  private static final long COLD_ROW_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final Fill fill;
  private final DFSInputStream hdfs;
  /** Takes bytes HDFS's stream counted in FileSystem statistics back out (the caller's stream counts them). */
  private final LongConsumer uncount;
  private final Watch watch;
  private final long fileLength;
  private final long groupBytes;
  private final long rowBytes;
  private final int chunkBytes;
  /** Length of every chunk array: a chunk, or the whole file if that is shorter. */
  private final int arrayBytes;
  /** Arrays of finished chunks, for the next ones (at most two kept). */
  private final ConcurrentLinkedQueue<byte[]> spare = new ConcurrentLinkedQueue<>();
  // Guarded by the caller's stream lock from here on.
  /** The chunk the caller reads; null before the first read. */
  private Chunk current;
  /** The chunk after it, being fetched on its own thread; null if none. */
  private Chunk ahead;
  /** Whether the caller came to {@code current} by reading on from the chunk before it. */
  private boolean readingOn;
  /** The block group the caller is in, -1 before the first read. */
  private long group = -1;
  /** Whether a chunk of that group has judged it. */
  private boolean judged;
  /** Whether the rest of that group is read by chunks. */
  private boolean byChunks;
  /** A row's time in the group's last judging chunk (nanoseconds), 0 if unknown. */
  private long rowNanos;
  /** Whether the next chunk judges the group (see the class comment). */
  private boolean probing;
  /** Where HDFS's stream is, -1 if not known. */
  private long hdfsAt = -1;
  /** Chunk boundaries HDFS's stream has passed since the group was last judged, and the last one. */
  private int sinceJudged;
  private long lastBoundary = -1;
  /** The row HDFS's stream is timed in, -1 if none, and the time its reads took so far. */
  private long timedRow = -1;
  private long timedNanos;
  private volatile boolean closed;

  StripedReadAhead(Fill fill, DFSInputStream hdfs, LongConsumer uncount, StripeLayout layout, Watch watch) {
    this.fill = fill;
    this.hdfs = hdfs;
    this.uncount = uncount;
    this.watch = watch;
    this.fileLength = layout.fileLength();
    this.groupBytes = layout.stripeBytes();
    int cell = layout instanceof StripedLayout ? ((StripedLayout) layout).cellSize() : layout.subblockSize();
    this.rowBytes = (long) layout.k() * cell;
    this.chunkBytes = chunkBytes(layout);
    this.arrayBytes = (int) Math.min(chunkBytes, Math.max(1, fileLength));
  }

  /** Bytes per chunk of a file of this layout: whole substripes (k subblocks of file bytes each), about 8 MiB. */
  static int chunkBytes(StripeLayout layout) {
    long substripe = (long) layout.k() * layout.subblockSize();
    long count = Math.max(1, CHUNK_TARGET_BYTES / substripe);
    return (int) Math.min(Math.min(count * substripe, layout.stripeBytes()), Integer.MAX_VALUE - 16);
  }

  @Override
  public int read(long pos, byte[] b, int off, int len) throws IOException {
    Chunk c = chunkFor(pos);
    if (c == null) {
      seekTo(pos);
      long began = System.nanoTime();
      return timed(pos, hdfs.read(b, off, toBoundary(pos, len)), began);
    }
    int at = (int) (pos - c.start);
    int n = Math.min(len, c.length - at);
    System.arraycopy(c.data, at, b, off, n);
    maybeFetchAhead(c, pos + n);
    return n;
  }

  @Override
  public int read(long pos, ByteBuffer dst) throws IOException {
    Chunk c = chunkFor(pos);
    if (c == null) {
      seekTo(pos);
      long began = System.nanoTime();
      int want = toBoundary(pos, dst.remaining());
      if (want == dst.remaining()) {
        return timed(pos, hdfs.read(dst), began);
      }
      ByteBuffer part = dst.duplicate();
      part.limit(part.position() + want);
      int n = timed(pos, hdfs.read(part), began);
      if (n > 0) {
        dst.position(dst.position() + n);
      }
      return n;
    }
    int at = (int) (pos - c.start);
    int n = Math.min(dst.remaining(), c.length - at);
    dst.put(c.data, at, n);
    maybeFetchAhead(c, pos + n);
    return n;
  }

  /** {@code len}, or less, so that a read from {@code pos} ends at the next chunk boundary (judged there). */
  private int toBoundary(long pos, int len) {
    long inGroup = pos % groupBytes;
    long boundary = pos - inGroup % chunkBytes + chunkBytes;
    return (int) Math.min(len, boundary - pos);
  }

  /** Moves HDFS's stream to {@code pos} unless it is there (chunks served the bytes between, or a seek). */
  private void seekTo(long pos) throws IOException {
    if (pos != hdfsAt) {
      hdfs.seek(pos);
      hdfsAt = pos;
    }
  }

  /**
   * Ends a read of HDFS's stream at {@code pos}, begun at {@code began}, that returned
   * {@code n}: counts it out of the statistics, adds its time to its row's, and has the
   * group judged again if the row is late.
   */
  private int timed(long pos, int n, long began) {
    long took = System.nanoTime() - began;
    if (n <= 0) {
      hdfsAt = -1;
      return n;
    }
    hdfsAt = pos + n;
    uncount.accept(n);
    timedNanos += took;
    if (timedNanos > deadline() && !probing) {
      probing = true; // from the next chunk boundary on
      LOG.debug("block group {}: row {} took HDFS's stream {} ms (deadline {} ms): the next chunk judges the group",
          group, pos / rowBytes, timedNanos / 1_000_000, deadline() / 1_000_000);
    }
    return n;
  }

  private long deadline() {
    long d = rowNanos > 0 ? (long) (watch.deadlineFactor * rowNanos) : COLD_ROW_NANOS;
    return Math.max(watch.minDeadlineNanos, d);
  }

  /**
   * The chunk to serve file offset {@code pos} from, read (or waited for) if it is not the
   * current one; null when HDFS's stream is to serve it.
   */
  private Chunk chunkFor(long pos) throws IOException {
    if (closed) {
      throw new IOException("Stream closed");
    }
    Chunk c = current;
    if (c != null && pos >= c.start && pos < c.start + c.length) {
      return c;
    }
    long g = pos / groupBytes;
    if (g != group) {
      group = g;
      judged = false;
      byChunks = false;
      rowNanos = 0;
      probing = true;
    }
    if (!probing && !byChunks && pos % groupBytes % chunkBytes == 0 && pos != lastBoundary) {
      lastBoundary = pos;
      probing = ++sinceJudged >= REJUDGE_EVERY_CHUNKS;
    }
    long row = pos / rowBytes;
    if (!probing && !byChunks && row != timedRow) {
      timedRow = row;
      timedNanos = 0;
      byChunks = watch.slowGroup.test(g); // another stream found a DataNode of the group late
      if (byChunks) {
        LOG.debug("block group {}: a DataNode is slow by reads at row {}: the rest of the group by chunks", g, row);
      }
    }
    if (!probing && !byChunks) {
      return null;
    }
    if (!judged && !byChunks && pos % groupBytes % chunkBytes != 0 && !watch.slowGroup.test(g)) {
      // A seek into the middle of a chunk of a group not judged yet (a task's split seldom
      // starts at a chunk boundary) while no DataNode of the group is slow by reads: the
      // chunk's bytes before pos are not wanted. HDFS's stream serves up to the next
      // boundary, whose chunk judges the group. (A late row, once judged, is judged again
      // at once, from the start of its chunk: its rows after may all wait for the same cell.)
      return null;
    }
    c = chunkAt(pos);
    if (probing) {
      judge(c);
    }
    return c;
  }

  /**
   * Whether a JVM has read a chunk yet. Its first chunk's reads set up connections, load
   * classes and the coder, and race a parity GET that has to connect first: every piece is
   * slow, a straggler's hardly more than its peers', so that chunk judges nothing alone.
   */
  private static volatile boolean warm;

  /** What judging chunk {@code c} found: what follows in the group by chunks or by HDFS's stream. */
  private void judge(Chunk c) {
    boolean cold = !warm;
    warm = true;
    judged = true;
    sinceJudged = 0;
    rowNanos = c.nanos / Math.max(1, (c.length + rowBytes - 1) / rowBytes);
    byChunks = c.decoded > 0 || watch.slowGroup.test(group);
    timedRow = -1;
    long groupEnd = Math.min(fileLength, (group + 1) * groupBytes);
    probing = cold && !byChunks && c.start + c.length < groupEnd; // the next chunk judges, warm
    LOG.debug("block group {}: chunk at {} ({} bytes, {} substripes decoded) in {} ms{}; what follows {}",
        group, c.start, c.length, c.decoded, c.nanos / 1_000_000, cold ? " (the JVM's first)" : "",
        byChunks ? "by chunks" : probing ? "judged by the next chunk" : "by HDFS's stream until judged again");
  }

  /** The chunk holding file offset {@code pos} (aligned within its block group). */
  private Chunk chunkAt(long pos) throws IOException {
    long groupStart = pos - pos % groupBytes;
    long start = groupStart + (pos - groupStart) / chunkBytes * chunkBytes;
    Chunk c = current;
    readingOn = c != null && start == c.start + c.length;
    current = null;
    if (c != null) {
      c.abandon();
    }
    Chunk next = ahead;
    ahead = null;
    if (next != null && next.start != start) {
      next.abandon();
      next = null;
    }
    if (next == null) {
      next = new Chunk(start);
      next.run(); // on the caller's thread: it waits for these bytes anyway
    } else {
      next.await();
    }
    current = next;
    next.rethrow();
    return next;
  }

  /**
   * Starts fetching the chunk after {@code c} once the caller reads on by chunks: it came
   * to {@code c} from the chunk before, or it has read through half of {@code c}.
   */
  private void maybeFetchAhead(Chunk c, long reached) {
    long next = c.start + c.length;
    if (ahead != null || closed || next >= fileLength || !byChunks && next / groupBytes == group
        || !readingOn && reached - c.start < c.length / 2) {
      return;
    }
    Chunk a = new Chunk(next);
    ahead = a;
    DaemonThreads.daemon(a, "pocache-striped-ahead").start();
  }

  @Override
  public void release() {
    dropChunks();
    spare.clear();
  }

  @Override
  public void close() {
    closed = true;
    release();
  }

  /** Abandons the caller's chunk and the one ahead: their arrays go back once their reads have ended. */
  private void dropChunks() {
    Chunk c = current;
    Chunk a = ahead;
    current = null;
    ahead = null;
    if (c != null) {
      c.abandon();
    }
    if (a != null) {
      a.abandon();
    }
  }

  private byte[] takeArray() {
    byte[] a = spare.poll();
    return a != null ? a : new byte[arrayBytes];
  }

  private void giveBack(byte[] a) {
    if (!closed && spare.size() < 2) {
      spare.offer(a);
    }
  }

  /** File bytes [start, start + length) of one block group, read by whoever runs it. */
  private final class Chunk implements Runnable {
    final long start;
    final int length;
    final byte[] data;
    /** Guarded by this. */
    private boolean done;
    private boolean abandoned;
    private Throwable failure;
    /** How long the read took, and how many of its substripes were decoded (valid once done). */
    long nanos;
    int decoded;

    Chunk(long start) {
      this.start = start;
      long groupEnd = start - start % groupBytes + groupBytes;
      this.length = (int) Math.min(chunkBytes, Math.min(groupEnd, fileLength) - start);
      this.data = takeArray();
    }

    @Override
    public void run() {
      Throwable t = null;
      long began = System.nanoTime();
      int n = 0;
      try {
        n = fill.readFully(start, data, 0, length);
      } catch (Throwable e) { // handed to the caller that waits for this chunk (rethrow)
        t = e;
      }
      finish(t, System.nanoTime() - began, n);
    }

    private synchronized void finish(Throwable t, long took, int decodedHere) {
      failure = t;
      nanos = took;
      decoded = decodedHere;
      done = true;
      if (abandoned) {
        giveBack(data);
      }
      notifyAll();
    }

    synchronized void await() throws InterruptedIOException {
      while (!done) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while reading ahead at offset " + start);
        }
      }
    }

    /** Nobody reads this chunk any more: its array goes back once its read has ended. */
    synchronized void abandon() {
      abandoned = true;
      if (done) {
        giveBack(data);
      }
    }

    /** A failed chunk: HDFS's stream serves from here on; an Error other than a LinkageError is the caller's. */
    synchronized void rethrow() throws SequentialReader.FallBack {
      Throwable t = failure;
      if (t == null) {
        return;
      }
      if (t instanceof Error && !(t instanceof LinkageError)) {
        throw (Error) t;
      }
      throw new SequentialReader.FallBack("reading ahead at offset " + start + " failed", t);
    }
  }
}
