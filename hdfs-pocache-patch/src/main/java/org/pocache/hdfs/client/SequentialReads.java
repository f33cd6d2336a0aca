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
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ReadOption;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.io.ByteBufferPool;

/**
 * The sequential reads of a {@link PoCacheInputStream} with a {@link SequentialSource}: the
 * caller's position, and which of three serves the next read. For a replicated file it is
 * HDFS's own stream on the caller's thread (the <em>direct</em> reads: through a fail-fast
 * stream of its own, {@link DirectStream}, timed per subblock and judged by
 * {@link DirectPace}), until a block is left to parity or a subblock is late by the
 * {@link SequentialReader}'s rules; then the {@code SequentialReader}, until it
 * hands the reads back at a subblock ({@link SequentialReader#handBack}); and, for a caller
 * that reads on past one block while a DataNode is suspect, the whole blocks fetched ahead
 * ({@link BlockPrefetch}). For an erasure-coded file the source is a {@link StripedReadAhead},
 * which times HDFS's stream itself. A source that fails hands the reads to HDFS's stream
 * for good ({@link #active} is then false), from the caller's position.
 *
 * <p>Not thread-safe: the owning stream's synchronized methods call it.
 */
final class SequentialReads {

  /** {@link #readDirect}'s answer when the read is the {@link SequentialReader}'s from here on. */
  private static final int HANDED_OVER = Integer.MIN_VALUE;

  private final DFSInputStream in;
  private final long fileLength;
  private final long blockSize;
  private final FileSystem.Statistics stats;
  private final ProactiveReader.Outcome outcome;
  private final Warnings warnings;
  /**
   * What serves the reads that are not HDFS's stream's own: {@code contiguous} for a
   * replicated file, a {@link StripedReadAhead} for an erasure-coded one. Null after a
   * fall-back: they are the HDFS stream's.
   */
  private SequentialSource sequential;
  /** A replicated file's sequential reader (its direct reads are judged by its rules); null if none. */
  private SequentialReader contiguous;
  /**
   * Where the reads have got to while {@code sequential} serves (and {@code in}'s position
   * while it reads directly); the caller is {@link SmallReads#buffered} bytes behind.
   */
  private long pos;
  /**
   * Sequential reads are {@code in}'s own, timed per subblock, until {@code sequential} is
   * needed (see the class comment); {@code in} then stays where it was, and {@code pos}
   * alone says where the caller is.
   */
  private boolean direct;
  /** While direct: the rules the caller's reads of HDFS's stream are judged by; null if none. */
  private final DirectPace pace;
  /** Whole blocks fetched ahead for a caller that reads on past one block; null: none. */
  private BlockPrefetch prefetch;
  /** The caller's current run of reads without a jump. */
  private final ReadRun run = new ReadRun();
  /** Sequential reads were handed over at a late subblock and may come back ({@link #resume}). */
  private boolean resumable;
  /** The bytes small reads are served from; {@code pos} is where they end. */
  private final SmallReads small;
  private final SmallReads.Source unbuffered = (b, off, len) -> read(b, off, len, null);
  /** The stream direct reads go through (fail-fast, if it could be opened). */
  private final DirectStream directs;
  /** Copies of what the caller reads that rebuilds of a later block of the stripe want; null: none. */
  private KeptBehind behind;
  /** When the last direct read ended (System.nanoTime()). */
  private long directEnded;
  /**
   * Bytes handed to the caller that the sequential reader or the whole-block prefetch read
   * through streams of their own (or rebuilt), not {@code in} or the direct stream: the
   * read statistics count them as read from DataNodes, as HDFS's stream's would have.
   */
  private final java.util.concurrent.atomic.AtomicLong elsewhere = new java.util.concurrent.atomic.AtomicLong();
  private boolean closed;

  /**
   * Reads of {@code in} served by {@code source}: a replicated file's {@code contiguous}
   * reader (with its {@code prefetch} and {@code failFast} stream) or a striped file's.
   */
  SequentialReads(DFSInputStream in, SequentialSource source, SequentialReader contiguous, BlockPrefetch prefetch,
      SequentialReader.Opener failFast, long blockSize, FileSystem.Statistics stats, ProactiveReader.Outcome outcome,
      Warnings warnings) {
    this.in = in;
    this.sequential = source;
    this.contiguous = contiguous;
    this.direct = contiguous != null;
    this.prefetch = contiguous != null ? prefetch : null;
    this.directs = new DirectStream(in, failFast, warnings);
    this.behind = contiguous == null ? null
        : new KeptBehind(contiguous, contiguous.verdicts().subblockSize(), contiguous.verdicts().blockSize(),
            in.getFileLength());
    this.fileLength = in.getFileLength();
    this.pace = contiguous == null ? null : new DirectPace(contiguous, fileLength);
    this.blockSize = blockSize;
    this.stats = stats;
    this.small = new SmallReads(stats);
    this.outcome = outcome;
    this.warnings = warnings;
  }

  /** Whether these reads still serve: false once they fell back to HDFS's stream. */
  boolean active() {
    return sequential != null;
  }

  /**
   * A read into {@code b}, the caller's arguments checked already: a small one from the
   * bytes a fill read ahead ({@link SmallReads}).
   */
  int read(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("Stream closed");
    }
    int n = small.read(b, off, len, unbuffered);
    if (small.buffered() > 0 && !active()) {
      // Fell back during a fill: HDFS's stream serves from here on, from the caller's position.
      in.seek(in.getPos() - small.buffered());
      small.clear();
    }
    return n;
  }

  /** A read into {@code buf}. */
  int read(ByteBuffer buf) throws IOException {
    if (!closed && small.buffered() > 0) {
      return small.take(buf);
    }
    if (buf.hasArray()) {
      int n = read(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining(), null);
      if (n > 0) {
        buf.position(buf.position() + n);
      }
      return n;
    }
    return read(null, 0, buf.remaining(), buf);
  }

  /** A read into {@code b}, or else into {@code buf} ({@code len}: its remaining bytes). */
  private int read(byte[] b, int off, int len, ByteBuffer buf) throws IOException {
    long at = pos;
    int bufAt = buf == null ? 0 : buf.position();
    int n = readOnce(b, off, len, buf);
    if (n > 0 && behind != null) {
      if (contiguous == null) {
        behind.close(); // fell back: HDFS's stream reads alone from here
        behind = null;
      } else {
        Throwable failed = behind.deliveredOrClosed(at, b, off, buf, bufAt, n);
        if (failed != null) {
          behind = null;
          outcome.cacheErrorSeen();
          warnings.once("POCache stopped keeping read subblocks for rebuilds", failed);
        }
      }
    }
    return n;
  }

  private int readOnce(byte[] b, int off, int len, ByteBuffer buf) throws IOException {
    if (closed) {
      throw new IOException("Stream closed");
    }
    if (len == 0) {
      return 0;
    }
    if (pos >= fileLength) {
      return -1;
    }
    long entered = run.enter();
    long left = 0;
    try {
      long t0 = entered;
      if (prefetch != null && pos - run.start() > blockSize) {
        int n = fromPrefetch(b, off, len, buf);
        if (n > 0) {
          return n;
        }
        t0 = 0;
      }
      if (!direct && resumable) {
        resume();
        t0 = 0;
      }
      if (direct) {
        int n = readDirect(b, off, len, buf, t0);
        if (n != HANDED_OVER) {
          left = directEnded;
          return n;
        }
      }
      int n;
      try {
        n = buf == null ? sequential.read(pos, b, off, len) : sequential.read(pos, buf);
      } catch (SequentialReader.FallBack | RuntimeException | LinkageError e) {
        fallBackToHdfs(e);
        return buf == null ? in.read(b, off, len) : in.read(buf);
      }
      pos += n;
      counted(n);
      readElsewhere(n);
      return n;
    } finally {
      run.left(entered, left);
    }
  }

  /**
   * A sequential read of HDFS's own stream, into {@code b} or else {@code buf}: timed per
   * subblock and reported as the read-ahead's subblocks are. Returns {@link #HANDED_OVER}
   * (having read nothing) once the {@link SequentialReader} is to serve: the block here is
   * left to parity, a subblock is late, or HDFS's stream failed where parity may answer.
   * {@code entered} is System.nanoTime() when the caller's read began, if nothing but
   * bookkeeping happened since (else 0): two clock reads per call instead of four, which
   * counts for 4 KiB calls. The time the read ended is left in {@link #directEnded}.
   */
  private int readDirect(byte[] b, int off, int len, ByteBuffer buf, long entered) throws IOException {
    directEnded = 0; // set only by a read of the direct stream (a fallback's read is timed by the caller)
    if (directs.at(pos, closed)) {
      directMoved();
      entered = 0; // the open or seek is not the read's
    }
    long g;
    try {
      g = pace.beforeRead(pos);
    } catch (RuntimeException | LinkageError e) {
      fallBackToHdfs(e);
      return buf == null ? in.read(b, off, len) : in.read(buf);
    }
    if (g < 0) {
      direct = false;
      return HANDED_OVER;
    }
    long t0 = entered != 0 ? entered : System.nanoTime();
    int n;
    try {
      n = directs.read(b, off, len, buf);
    } catch (java.io.InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      if (closed) {
        throw e;
      }
      // HDFS's stream failed here (a DataNode down or failing, and no other replica): parity
      // may still stand in; the SequentialReader's own streams retry as HDFS does if not.
      direct = false;
      if (directs.failsFast()) {
        try {
          contiguous.verdicts().blockDown(pos); // at once, not after HDFS's retries
        } catch (RuntimeException | LinkageError e2) {
          fallBackToHdfs(e2);
          return buf == null ? in.read(b, off, len) : in.read(buf);
        }
      }
      return HANDED_OVER;
    }
    directEnded = System.nanoTime();
    pace.spent(directEnded - t0, directEnded);
    if (n <= 0) {
      return n;
    }
    pos += n;
    try {
      DirectPace.Next next = pace.afterRead(g, pos, directEnded);
      if (next != DirectPace.Next.KEEP) {
        direct = false; // the SequentialReader's: the rest of this subblock (until handBack) or of the block
        resumable = next == DirectPace.Next.LATE;
      }
    } catch (RuntimeException | LinkageError e) {
      fallBackToHdfs(e);
    }
    return n;
  }

  /**
   * Bytes at {@code pos} from the blocks fetched ahead (and the fetches moved along with
   * the caller); 0 if none are in there. Counted as the caller's, as HDFS's would be.
   */
  private int fromPrefetch(byte[] b, int off, int len, ByteBuffer buf) throws IOException {
    int n;
    try {
      // Only while some DataNode is suspect: with none, the fetches' threads and copies cost
      // a CPU-bound reader more than they save, and HDFS's stream on the caller's thread is
      // the cheapest read there is.
      if (run.lookAhead(pos, DirectStream.CHUNK) && run.waitsOnReads() && contiguous.anySuspect()) {
        prefetch.ahead(pos, run.start()); // looked at every 128 KiB, not at every small read
      }
      n = prefetch.read(pos, b, off, len, buf);
    } catch (RuntimeException | LinkageError e) {
      outcome.cacheErrorSeen();
      prefetch.close();
      prefetch = null;
      contiguous.fetchesAhead(null);
      warnings.once("POCache's read-ahead of whole blocks stopped", e);
      return 0;
    }
    if (n > 0) {
      long subblock = contiguous.verdicts().subblockSize();
      if ((pos + n) / subblock != pos / subblock || pos + n == fileLength) {
        contiguous.deliveredElsewhere(); // the end of a subblock, from memory
      }
      pos += n;
      counted(n);
      readElsewhere(n);
      directs.behind(direct);
    }
    return n;
  }

  /**
   * After a late subblock: the caller's own reads of HDFS's stream again, from the next
   * subblock the {@link SequentialReader} gives back ({@link SequentialReader#handBack}).
   */
  private void resume() {
    try {
      if (contiguous.handBack(pos)) {
        direct = true;
        resumable = false;
        directs.behind(true); // the direct stream seeks to pos at its next read
        directMoved();
      }
    } catch (RuntimeException | LinkageError e) {
      resumable = false; // the SequentialReader serves on; it falls back itself if it must
    }
  }

  /** Forgets the direct reads' timing and block check: the direct stream was moved. */
  private void directMoved() {
    if (pace != null) {
      pace.moved();
    }
  }

  /** From here on sequential reads are the HDFS stream's, from this stream's position. */
  private void fallBackToHdfs(Throwable why) throws IOException {
    outcome.cacheErrorSeen();
    SequentialSource s = sequential;
    sequential = null;
    contiguous = null;
    direct = false;
    resumable = false;
    directs.behind(false);
    if (prefetch != null) {
      prefetch.close();
      prefetch = null;
    }
    s.close();
    in.seek(pos);
    warnings.once("POCache's sequential reads fell back to HDFS's stream", why);
  }

  private void readElsewhere(int n) {
    if (n > 0 && sequential == contiguous) {
      elsewhere.addAndGet(n); // a striped file's reads are its HDFS stream's, counted there
    }
  }

  /** Bytes handed to the caller count in the caller thread's FileSystem statistics, as HDFS's would. */
  private void counted(int n) {
    if (stats != null && n > 0) {
      stats.incrementBytesRead(n);
    }
  }

  void seek(long target) throws IOException {
    if (target < 0) {
      throw new java.io.EOFException("Cannot seek to negative offset");
    }
    if (target > fileLength) {
      throw new java.io.EOFException("Cannot seek after EOF");
    }
    if (closed) {
      throw new IOException("Stream closed");
    }
    if (small.seekWithin(pos, target)) {
      return;
    }
    small.clear();
    if (direct) {
      directs.behind(true); // the direct stream seeks at its next read
      directMoved();
    }
    if (target != pos) {
      run.restart(target);
    }
    pos = target;
  }

  long getPos() {
    return pos - small.buffered();
  }

  long skip(long n) {
    if (n <= 0) {
      return 0;
    }
    int buffered = small.buffered();
    if (n <= buffered) {
      small.skip((int) n);
      return n;
    }
    small.clear();
    n -= buffered;
    long to = Math.min(fileLength, pos + n);
    long skipped = to - pos;
    if (direct) {
      directs.behind(true);
      directMoved();
    }
    run.restart(to);
    pos = to;
    return buffered + skipped;
  }

  int available() throws IOException {
    if (closed) {
      throw new IOException("Stream closed");
    }
    return (int) Math.min(Integer.MAX_VALUE, fileLength - getPos());
  }

  /** A zero-copy read: HDFS's own, from this position. */
  ByteBuffer read(ByteBufferPool bufferPool, int maxLength, EnumSet<ReadOption> opts) throws IOException {
    pos = getPos(); // what the small reads' buffer holds is read again
    small.clear();
    in.seek(pos); // hand HDFS's stream this position and take it back
    ByteBuffer b = in.read(bufferPool, maxLength, opts);
    pos = in.getPos();
    directs.behind(true);
    directMoved();
    return b;
  }

  /** The stream direct reads went through if it is not {@code in} (its read statistics count too), else null. */
  DFSInputStream separateDirectStream() {
    return directs.separate();
  }

  /** Lets go of what the source holds between reads (unbuffer). */
  void release() {
    if (sequential != null) {
      sequential.release();
    }
  }

  /** Bytes the caller took from the read-ahead, the prefetch or rebuilds (see {@link #readElsewhere}). */
  long bytesReadElsewhere() {
    return elsewhere.get();
  }

  void clearBytesReadElsewhere() {
    elsewhere.set(0);
  }

  /** Bytes fetched ahead in whole blocks so far, 0 without a prefetch (for tests). */
  long prefetchedBytes() {
    return prefetch == null ? 0 : prefetch.fetchedBytes();
  }

  /** Whether sequential reads are still HDFS's stream's own, on the caller's thread (for tests). */
  boolean readsDirectly() {
    return direct;
  }

  /** The replicated file's sequential reader, null if none (or after a fall-back). */
  SequentialReader contiguous() {
    return contiguous;
  }

  /** Closes the source, the prefetch and the direct stream (not {@code in}). */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    small.close();
    if (behind != null) {
      behind.close();
      behind = null;
    }
    if (sequential != null) {
      sequential.close();
    }
    if (prefetch != null) {
      prefetch.close();
    }
    directs.close();
  }
}
