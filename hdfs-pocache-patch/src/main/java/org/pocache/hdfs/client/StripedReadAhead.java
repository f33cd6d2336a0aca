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
import org.pocache.cache.DaemonThreads;
import org.pocache.coder.layout.StripeLayout;

/**
 * Sequential reads of an erasure-coded file whose parity is cached. HDFS's striped
 * stream reads a row of cells at a time and waits for its slowest cell: a DataNode that
 * holds a data cell sets the pace of the whole file, and nothing in HDFS hedges it.
 * This reader reads the file in chunks of whole substripes through the stream's
 * positional read ({@link PoCacheInputStream#readUncounted}), where the
 * {@link ProactiveReader} reads the k data cells of each row from their internal blocks
 * and, once a DataNode is suspect or its cell lags behind its peers, races them with
 * the cached parity, so a slow cell is decoded instead of waited for. With nothing slow
 * a chunk is exactly its k data reads, as HDFS's own would be.
 *
 * <p>A caller that reads on from one chunk into the next (or through the second half of
 * the first) gets the chunk after it fetched on a thread of its own while it consumes
 * this one; a caller that jumps around reads only the chunks it lands in. At most three
 * chunk arrays are held per stream: the caller's, the one ahead and an abandoned one
 * still being filled. A chunk that cannot be read (neither HDFS nor parity answered, or a
 * cache-side error) hands the stream back to HDFS's own from that position
 * ({@link SequentialReader.FallBack}).
 */
final class StripedReadAhead implements SequentialSource {
  /** Reads [pos, pos + len) of the file whole into b, parity racing the data where it is cached; counts nothing. */
  interface Fill {
    void readFully(long pos, byte[] b, int off, int len) throws IOException;
  }

  /** A chunk holds whole substripes up to about this many bytes (at least one substripe). */
  static final int CHUNK_TARGET_BYTES = 8 << 20;

  private final Fill fill;
  private final long fileLength;
  private final int chunkBytes;
  /** Length of every chunk array: a chunk, or the whole file if that is shorter. */
  private final int arrayBytes;
  /** Arrays of finished chunks, for the next ones (at most two kept). */
  private final ConcurrentLinkedQueue<byte[]> spare = new ConcurrentLinkedQueue<>();
  /** The chunk the caller reads; null before the first read. Guarded by the caller's stream lock. */
  private Chunk current;
  /** The chunk after it, being fetched on its own thread; null if none. Guarded by the stream lock. */
  private Chunk ahead;
  /** Whether the caller came to {@code current} by reading on from the chunk before it. */
  private boolean readingOn;
  private volatile boolean closed;

  StripedReadAhead(Fill fill, StripeLayout layout) {
    this.fill = fill;
    this.fileLength = layout.fileLength();
    this.chunkBytes = chunkBytes(layout);
    this.arrayBytes = (int) Math.min(chunkBytes, Math.max(1, fileLength));
  }

  /** Bytes per chunk of a file of this layout: whole substripes (k subblocks of file bytes each), about 8 MiB. */
  static int chunkBytes(StripeLayout layout) {
    long substripe = (long) layout.k() * layout.subblockSize();
    long count = Math.max(1, CHUNK_TARGET_BYTES / substripe);
    return (int) Math.min(count * substripe, Integer.MAX_VALUE - 16);
  }

  @Override
  public int read(long pos, byte[] b, int off, int len) throws IOException {
    Chunk c = chunkAt(pos);
    int at = (int) (pos - c.start);
    int n = Math.min(len, c.length - at);
    System.arraycopy(c.data, at, b, off, n);
    maybeFetchAhead(c, pos + n);
    return n;
  }

  @Override
  public int read(long pos, ByteBuffer dst) throws IOException {
    Chunk c = chunkAt(pos);
    int at = (int) (pos - c.start);
    int n = Math.min(dst.remaining(), c.length - at);
    dst.put(c.data, at, n);
    maybeFetchAhead(c, pos + n);
    return n;
  }

  /** The chunk holding file offset {@code pos}, read (or waited for) if it is not the current one. */
  private Chunk chunkAt(long pos) throws IOException {
    if (closed) {
      throw new IOException("Stream closed");
    }
    Chunk c = current;
    if (c != null && pos >= c.start && pos < c.start + c.length) {
      return c;
    }
    long start = pos - pos % chunkBytes;
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
   * Starts fetching the chunk after {@code c} once the caller reads on: it came to
   * {@code c} from the chunk before, or it has read through half of {@code c}.
   */
  private void maybeFetchAhead(Chunk c, long reached) {
    long next = c.start + c.length;
    if (ahead != null || closed || next >= fileLength || !readingOn && reached - c.start < c.length / 2) {
      return;
    }
    Chunk a = new Chunk(next);
    ahead = a;
    DaemonThreads.daemon(a, "pocache-striped-ahead").start();
  }

  @Override
  public void close() {
    closed = true;
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
    spare.clear();
  }

  /** Whether a chunk is being fetched ahead of the caller (for tests). */
  boolean fetchingAhead() {
    return ahead != null;
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

  /** File bytes [start, start + length), read by whoever runs it. */
  private final class Chunk implements Runnable {
    final long start;
    final int length;
    final byte[] data;
    /** Guarded by this. */
    private boolean done;
    private boolean abandoned;
    private Throwable failure;

    Chunk(long start) {
      this.start = start;
      this.length = (int) Math.min(chunkBytes, fileLength - start);
      this.data = takeArray();
    }

    @Override
    public void run() {
      Throwable t = null;
      try {
        fill.readFully(start, data, 0, length);
      } catch (Throwable e) { // handed to the caller that waits for this chunk (rethrow)
        t = e;
      }
      finish(t);
    }

    private synchronized void finish(Throwable t) {
      failure = t;
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
