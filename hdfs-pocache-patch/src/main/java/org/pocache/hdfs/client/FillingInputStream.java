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
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanSetDropBehind;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.HasEnhancedByteBufferAccess;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.ReadOption;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.io.ByteBufferPool;
import org.pocache.hdfs.client.write.ParityEncoder;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream for a file the Manager admitted on this read and handed to this reader
 * to fill (a read miss): every operation is the HDFS stream's, and the bytes the
 * reader gets, in file order from the start, are also fed to a {@link ParityEncoder}.
 * If the reader reads the whole file that way (sequentially, or with positional
 * reads that continue each other; re-reading bytes already fed is fine), the parity
 * is uploaded as it becomes final and committed, off the reader's thread, when the
 * stream closes. Columnar readers do not quite: Parquet reads the footer at the end
 * first, then the column chunks from byte 4. So bytes far ahead of what was fed are
 * passed over (not fed, the fill goes on), a small gap (at most {@value #GAP_BYTES}
 * bytes) is read by the fill itself and fed, and a tail of at most {@value #TAIL_BYTES}
 * bytes the reader did not read again after it had read it first is read when the stream
 * closes, off the reader's thread. Any other pattern (a partial read) or a cache-side
 * failure aborts the reservation, and the Manager's fill worker takes the file over:
 * it reads the whole file again, from a straggler too, while the reader may still read
 * it. Nothing here ever fails or changes a read.
 */
final class FillingInputStream extends FSInputStream
    implements ByteBufferReadable, CanSetDropBehind, CanSetReadahead, CanUnbuffer, HasEnhancedByteBufferAccess,
    StreamCapabilities {
  private static final Logger LOG = LoggerFactory.getLogger(FillingInputStream.class);
  private static final long UPLOAD_WAIT_SECONDS = 60;
  /** A jump ahead of at most this many bytes is read by the fill itself (Parquet skips its 4-byte magic). */
  static final int GAP_BYTES = 64 << 10;
  /** At close, at most this many bytes not fed yet are read by the fill (a footer read before the rest). */
  static final long TAIL_BYTES = 1 << 20;

  private final DFSInputStream in;
  /** The reader's positional reads: {@code in}'s, or its blocks at once ({@link ParallelBlockPreads}). */
  private final PositionedReadable preads;
  private final long reservationId;
  private final ParityDescriptor d;
  private final ParityEncoder encoder;
  private final ManagerClient manager;
  private final Executor pool;
  private final AtomicLong committed;
  private final long fileLength;
  /** Guarded by encoder's monitor. */
  private boolean filling = true;
  private byte[] scratch;
  private boolean closed;

  FillingInputStream(DFSInputStream in, PositionedReadable preads, long reservationId, ParityDescriptor d,
      ParityEncoder encoder, ManagerClient manager, Executor pool, AtomicLong committed) {
    this.in = in;
    this.preads = preads;
    this.reservationId = reservationId;
    this.d = d;
    this.encoder = encoder;
    this.manager = manager;
    this.pool = pool;
    this.committed = committed;
    this.fileLength = in.getFileLength();
  }

  /** Feeds bytes the reader got at file offset {@code at}, if they continue what was fed. */
  private void tap(long at, byte[] b, int off, int len) {
    synchronized (encoder) {
      if (!filling || len <= 0) {
        return;
      }
      long next = encoder.position();
      if (at > next) {
        if (at - next > GAP_BYTES) {
          return; // far ahead (a footer read first): not fed; the reader may come back for the rest
        }
        try {
          byte[] gap = new byte[(int) (at - next)];
          in.readFully(next, gap, 0, gap.length);
          encoder.feed(gap, 0, gap.length);
        } catch (IOException | RuntimeException | LinkageError e) {
          stop("reading the " + (at - next) + " bytes the reader skipped at " + next + " failed: " + e);
          return;
        }
        next = at;
      }
      if (at + len <= next) {
        return; // bytes fed before
      }
      int skip = (int) (next - at);
      try {
        encoder.feed(b, off + skip, len - skip);
      } catch (IOException | RuntimeException | LinkageError e) {
        stop("encoding failed: " + e);
      }
    }
  }

  private void tap(long at, ByteBuffer from, int start, int len) {
    if (len <= 0) {
      return;
    }
    if (from.hasArray()) {
      tap(at, from.array(), from.arrayOffset() + start, len);
      return;
    }
    synchronized (encoder) {
      if (!filling) {
        return;
      }
      if (scratch == null || scratch.length < len) {
        scratch = new byte[Math.min(Math.max(len, 64 << 10), 1 << 20)];
      }
      ByteBuffer src = from.duplicate();
      src.position(start);
      for (int done = 0; done < len; ) {
        int n = Math.min(scratch.length, len - done);
        src.limit(start + done + n);
        src.get(scratch, 0, n);
        tap(at + done, scratch, 0, n);
        done += n;
      }
    }
  }

  /** Stops filling; the Manager's fill worker takes the file over. Called holding encoder's monitor. */
  private void stop(String why) {
    filling = false;
    encoder.discard();
    LOG.debug("Reader fill of {} stopped: {}", d.getPath(), why);
    try {
      manager.abort(reservationId, why);
    } catch (IOException | RuntimeException | LinkageError e) {
      LOG.debug("abort of reservation {} not delivered (it will expire): {}", reservationId, e.toString());
    }
  }

  // --- reads: the HDFS stream's, tapped ---------------------------------------------

  @Override
  public synchronized int read() throws IOException {
    long at = in.getPos();
    int x = in.read();
    if (x >= 0) {
      tap(at, new byte[] {(byte) x}, 0, 1);
    }
    return x;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    long at = in.getPos();
    int n = in.read(b, off, len);
    tap(at, b, off, n);
    return n;
  }

  @Override
  public synchronized int read(ByteBuffer buf) throws IOException {
    long at = in.getPos();
    int start = buf.position();
    int n = in.read(buf);
    tap(at, buf, start, n);
    return n;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    int n = preads.read(position, buffer, offset, length);
    tap(position, buffer, offset, n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    preads.readFully(position, buffer, offset, length);
    tap(position, buffer, offset, length);
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }

  @Override
  public synchronized ByteBuffer read(ByteBufferPool bufferPool, int maxLength, EnumSet<ReadOption> opts)
      throws IOException {
    long at = in.getPos();
    ByteBuffer b = in.read(bufferPool, maxLength, opts);
    if (b != null) {
      tap(at, b, b.position(), b.remaining());
    }
    return b;
  }

  @Override
  public void releaseBuffer(ByteBuffer buffer) {
    in.releaseBuffer(buffer);
  }

  // --- everything else is the HDFS stream's -------------------------------------------

  @Override
  public synchronized void seek(long pos) throws IOException {
    in.seek(pos);
  }

  @Override
  public synchronized long getPos() throws IOException {
    return in.getPos();
  }

  @Override
  public synchronized boolean seekToNewSource(long targetPos) throws IOException {
    return in.seekToNewSource(targetPos);
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    return in.skip(n);
  }

  @Override
  public synchronized int available() throws IOException {
    return in.available();
  }

  @Override
  public void setReadahead(Long readahead) throws IOException {
    in.setReadahead(readahead);
  }

  @Override
  public void setDropBehind(Boolean dropBehind) throws IOException {
    in.setDropBehind(dropBehind);
  }

  /**
   * The HDFS stream's answer for what this stream implements too (readahead, drop-behind,
   * unbuffer, reads into a ByteBuffer); no for the rest, so that no caller is sent to an
   * interface this stream lacks.
   */
  @Override
  public boolean hasCapability(String capability) {
    return PoCacheInputStream.sharedCapability(in, capability);
  }

  @Override
  public void unbuffer() {
    in.unbuffer();
  }

  /** The HDFS stream underneath (read statistics). */
  DFSInputStream hdfsStream() {
    return in;
  }

  @Override
  public void close() throws IOException {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    boolean finish;
    long tail;
    synchronized (encoder) {
      if (filling && fileLength - encoder.position() > TAIL_BYTES) {
        stop("the reader read " + encoder.position() + " of " + fileLength + " bytes from the start");
      }
      finish = filling;
      tail = finish ? fileLength - encoder.position() : 0;
      filling = false; // no more taps: a pread still running on another thread is not fed
    }
    if (tail > 0) {
      finishLater(encoder.position(), (int) tail); // reads the tail from the stream, then closes it
      return;
    }
    try {
      in.close();
    } finally {
      if (finish) {
        finishLater(fileLength, 0);
      }
    }
  }

  /**
   * Uploads the rest and commits, on the pool: closing never waits for Redis (the
   * FileSystem's close waits for it, briefly, so a client that exits still commits).
   */
  private void finishLater(long tailFrom, int tailBytes) {
    boolean[] uploadsEnded = {false};
    Runnable finish = () -> {
      try {
        if (tailBytes > 0) {
          try {
            byte[] tail = new byte[tailBytes];
            in.readFully(tailFrom, tail, 0, tailBytes);
            synchronized (encoder) {
              encoder.feed(tail, 0, tailBytes);
            }
          } finally {
            closeQuietly();
          }
        }
        encoder.finish(UPLOAD_WAIT_SECONDS);
        uploadsEnded[0] = true;
        manager.commit(reservationId, d.getFileId(), fileLength, encoder.parityBytes(),
            encoder.valueDigests(fileLength));
        committed.incrementAndGet();
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        LOG.debug("Reader fill of {} not committed: {}", d.getPath(), e.toString());
        try {
          manager.abort(reservationId, "the reader's fill failed: " + e);
        } catch (IOException | RuntimeException | LinkageError notDelivered) {
          // It expires, or no Manager knows it (a failover): then no Manager deletes what was uploaded.
          if (uploadsEnded[0] && !String.valueOf(notDelivered.getMessage()).contains("no longer open: committed")) {
            encoder.deleteUploaded(fileLength);
          }
        }
      }
    };
    try {
      pool.execute(finish);
    } catch (RejectedExecutionException shuttingDown) {
      finish.run();
    }
  }

  private void closeQuietly() {
    try {
      in.close();
    } catch (IOException e) {
      LOG.debug("closing the filled stream: {}", e.toString());
    }
  }
}
