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
 * A block group is read by chunks when a DataNode holding one of its data cells is
 * suspect ({@link SlowSources}: listed by the Manager, late for this client, or
 * backlogged), when one of its rows took HDFS's stream longer than the deadline
 * ({@code dfs.pocache.read.deadline.factor} times a row's time in the group's first
 * chunk, and at least {@code dfs.pocache.read.deadline.min.ms}), and for the group's first
 * chunk always: that chunk is where the proactive reader compares the group's DataNodes
 * with each other, and what a row should take is learnt.
 *
 * <p>At most three chunk arrays are held per stream: the caller's, the one ahead and an
 * abandoned one still being filled. A chunk that cannot be read (neither HDFS nor the
 * parity answered, or a cache-side error) hands the stream back to HDFS's own from that
 * position ({@link SequentialReader.FallBack}); HDFS's stream's own errors are the caller's.
 */
final class StripedReadAhead implements SequentialSource {
  /** Reads [pos, pos + len) of the file whole into b, parity racing the data where it is cached; counts nothing. */
  interface Fill {
    void readFully(long pos, byte[] b, int off, int len) throws IOException;
  }

  /** When a block group's reads are to be left to chunks. */
  static final class Watch {
    final LongPredicate suspectGroup;
    final double deadlineFactor;
    final long minDeadlineNanos;

    /**
     * @param suspectGroup whether a DataNode holding a data cell of block group g is suspect now
     * @param deadlineFactor a row read by HDFS's stream is late past this many times a row's time in chunks
     * @param minDeadlineMillis and never sooner than this
     */
    Watch(LongPredicate suspectGroup, double deadlineFactor, long minDeadlineMillis) {
      this.suspectGroup = suspectGroup;
      this.deadlineFactor = deadlineFactor;
      this.minDeadlineNanos = TimeUnit.MILLISECONDS.toNanos(minDeadlineMillis);
    }
  }

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
  /** Whether the rest of that group is read by chunks. */
  private boolean byChunks;
  /** A row's time in the group's first chunk (nanoseconds), 0 if unknown. */
  private long rowNanos;
  /** Where HDFS's stream is, -1 if not known. */
  private long hdfsAt = -1;
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
      return timed(pos, hdfs.read(b, off, len), began);
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
      return timed(pos, hdfs.read(dst), began);
    }
    int at = (int) (pos - c.start);
    int n = Math.min(dst.remaining(), c.length - at);
    dst.put(c.data, at, n);
    maybeFetchAhead(c, pos + n);
    return n;
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
   * {@code n}: counts it out of the statistics, adds its time to its row's, and leaves the
   * rest of the group to chunks if the row is late.
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
    if (timedNanos > deadline()) {
      byChunks = true;
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
    boolean first = g != group;
    if (first) {
      group = g;
      byChunks = false;
      rowNanos = 0;
    }
    long row = pos / rowBytes;
    if (!first && !byChunks && row != timedRow) {
      timedRow = row;
      timedNanos = 0;
      byChunks = watch.suspectGroup.test(g); // a DataNode the Manager lists, or another stream found late
    }
    if (!first && !byChunks) {
      return null;
    }
    c = chunkAt(pos);
    if (first) {
      rowNanos = c.nanos / Math.max(1, (c.length + rowBytes - 1) / rowBytes);
      byChunks = watch.suspectGroup.test(g); // what the chunk's reads found
      timedRow = -1;
    }
    return c;
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
    /** How long the read took (valid once done). */
    long nanos;

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
      try {
        fill.readFully(start, data, 0, length);
      } catch (Throwable e) { // handed to the caller that waits for this chunk (rethrow)
        t = e;
      }
      finish(t, System.nanoTime() - began);
    }

    private synchronized void finish(Throwable t, long took) {
      failure = t;
      nanos = took;
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
