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
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanSetDropBehind;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.HasEnhancedByteBufferAccess;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.ReadOption;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.io.ByteBufferPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream {@link PoCacheFileSystem#open} returns for a file whose parity is
 * cached. Positional reads that cover whole substripes go through the
 * {@link ProactiveReader} (k data reads plus parity at once, first k win); other
 * positional reads are the HDFS stream's. For a replicated (contiguous) file,
 * sequential reads are the HDFS stream's own, on the caller's thread and timed per
 * subblock, until a block's DataNodes are to be left to parity (listed, or late for
 * this client) or a subblock is late by the {@link SequentialReader}'s deadline; from
 * then on the {@link SequentialReader} serves them (streamed ahead, late subblocks
 * rebuilt from parity), with this stream keeping the position. With nothing slow a
 * sequential read is then exactly HDFS's, at HDFS's cost. For an erasure-coded file
 * the {@link StripedReadAhead} serves them: chunks of whole substripes through the
 * proactive reader, one chunk fetched ahead of a caller that reads on. A caller
 * that reads on past one block gets the blocks after its own fetched in parallel
 * ({@link BlockPrefetch}) and takes their bytes from memory. Everything else
 * (unbuffer, readahead, drop-behind, zero-copy reads) is the HDFS stream's. On
 * close a read report goes to the Manager.
 */
final class PoCacheInputStream extends FSInputStream
    implements ByteBufferReadable, CanSetDropBehind, CanSetReadahead, CanUnbuffer, HasEnhancedByteBufferAccess,
    StreamCapabilities {
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheInputStream.class);
  private final DFSInputStream in;
  private final ProactiveReader proactive;
  /** Null: short positional reads are the HDFS stream's. */
  private final DegradedReader degraded;
  /** Positional reads that are more than HDFS's own: proactive, lazy, raced. */
  private final PositionalReads positional;
  private final long fileLength;
  private final long blockSize;
  /**
   * What serves sequential reads that are not HDFS's stream's own: {@code contiguous} for a
   * replicated file, a {@link StripedReadAhead} for an erasure-coded one. Null: they are the
   * HDFS stream's (there is no parity reader for them, or after a fall-back).
   */
  private SequentialSource sequential;
  /** A replicated file's sequential reader (its direct reads are judged by its rules); null if none. */
  private SequentialReader contiguous;
  /** Reads of {@code in} that do not count in FileSystem statistics (this stream counts what it returns). */
  private final PositionedReadable uncounted;
  /** HDFS's positional reads of {@code in}, as the caller's (counted); one at a time for a striped stream. */
  private final PositionedReadable preads;
  private final FileSystem.Statistics stats;
  /** The caller's position while {@code sequential} serves (and {@code in}'s while it reads directly). */
  private long pos;
  /**
   * Sequential reads are {@code in}'s own, timed per subblock, until {@code sequential} is
   * needed (see the class comment); {@code in} then stays where it was, and {@code pos}
   * alone says where the caller is.
   */
  private boolean direct;
  /** While direct: the block holding {@code pos} was checked up to here (exclusive), -1 after a seek. */
  private long checkedTo = -1;
  /** While direct: how long the caller's reads of HDFS's stream took, per subblock and block. */
  private final DirectReadTimes directTimes = new DirectReadTimes();
  /** Whole blocks fetched ahead for a caller that reads on past one block; null: none. */
  private BlockPrefetch prefetch;
  /** Where the caller's current run of reads without a jump began. */
  private long runStart;
  /** When the run's first read began (System.nanoTime), 0 before it. */
  private long runStartNanos;
  /** Time the caller has spent inside sequential reads in this run. */
  private long runReadNanos;
  /** The fetches ahead are moved along once the caller reads at or past here. */
  private long aheadAt;
  /** While direct: the direct stream may not be at {@code pos} (a seek, the prefetch served bytes): seek it first. */
  private boolean inBehind;
  /** Sequential reads were handed over at a late subblock and may come back ({@link #resume}). */
  private boolean resumable;
  /**
   * Opens the stream direct reads go through: one whose DataNode failures end its read at
   * once ({@code dfs.client.max.block.acquire.failures} 0), so a block whose DataNode is
   * down (a restart) goes to parity at once, not after HDFS's retries with seconds of
   * back-off. Null: direct reads go through {@code in}.
   */
  private final SequentialReader.Opener failFast;
  /** The stream direct reads go through, opened at the first; null before (read unlocked: read statistics). */
  private volatile DFSInputStream directIn;
  private final ProactiveReader.Outcome outcome;
  private final Consumer<ProactiveReader.Outcome> onClose;
  private boolean closed;
  /** Where this stream's fallbacks are said, once each. */
  private final Warnings warnings;

  PoCacheInputStream(DFSInputStream in, ProactiveReader proactive, DegradedReader degraded,
      SequentialReader sequential, BlockPrefetch prefetch, PositionedReadable uncounted,
      FileSystem.Statistics stats, ProactiveReader.Outcome outcome, Consumer<ProactiveReader.Outcome> onClose,
      Warnings warnings, SequentialReader.Opener failFast, StripedReadAhead.Watch striped) {
    this.in = in;
    this.positional = new PositionalReads(proactive, degraded, uncounted, outcome);
    this.failFast = failFast;
    this.proactive = proactive;
    this.degraded = degraded;
    this.contiguous = sequential;
    this.sequential = sequential != null ? sequential
        : striped == null ? null
        : new StripedReadAhead(positional::readUncounted, in, n -> {
          if (stats != null) {
            stats.incrementBytesRead(-n);
          }
        }, proactive.layout(), striped);
    this.direct = sequential != null;
    this.prefetch = sequential != null ? prefetch : null;
    this.uncounted = uncounted;
    this.preads = SerialPreads.of(in);
    this.stats = stats;
    this.outcome = outcome;
    this.fileLength = in.getFileLength();
    this.blockSize = proactive.layout().blockSize();
    this.onClose = onClose;
    this.warnings = warnings;
  }

  // --- positional reads: proactive where whole substripes are covered ---------------

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    long fileLength = in.getFileLength();
    if (buffer == null || length <= 0 || offset < 0 || length > buffer.length - offset || position < 0
        || position >= fileLength) {
      return in.read(position, buffer, offset, length); // HDFS's own answer (0, -1 or an error)
    }
    int n = (int) Math.min(length, fileLength - position);
    readFully(position, buffer, offset, n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    try {
      readFullyWithParity(position, buffer, offset, length);
    } catch (RuntimeException | LinkageError e) {
      // A cache-side bug or an inconsistent descriptor must not fail the read: HDFS answers.
      outcome.cacheErrorSeen();
      preads.readFully(position, buffer, offset, length);
    }
  }

  private void readFullyWithParity(long position, byte[] buffer, int offset, int length) throws IOException {
    if (buffer == null || length <= 0 || offset < 0 || length > buffer.length - offset || position < 0
        || position + length > fileLength) {
      preads.readFully(position, buffer, offset, length); // HDFS's own answer, or its error
      return;
    }
    List<long[]> covered = proactive.covered(position, length);
    if (covered.isEmpty() && degraded == null) {
      preads.readFully(position, buffer, offset, length);
      return;
    }
    positional.readParts(covered, position, buffer, offset, length);
    counted(length);
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    if (buffer == null) {
      in.readFully(position, buffer); // HDFS's own error
      return;
    }
    readFully(position, buffer, 0, buffer.length);
  }

  // --- sequential reads: streamed ahead, late subblocks rebuilt (SequentialReader) ------

  @Override
  public synchronized int read() throws IOException {
    if (sequential == null) {
      return in.read();
    }
    byte[] one = new byte[1];
    return read(one, 0, 1) <= 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    if (sequential == null || b == null || off < 0 || len < 0 || len > b.length - off) {
      return in.read(b, off, len); // HDFS's own read, or its error
    }
    if (closed) {
      throw new IOException("Stream closed");
    }
    if (len == 0) {
      return 0;
    }
    if (pos >= fileLength) {
      return -1;
    }
    long entered = enterRead();
    long left = 0;
    try {
      long t0 = entered;
      if (prefetch != null && pos - runStart > blockSize) {
        int n = fromPrefetch(b, off, len, null);
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
        int n = readDirect(b, off, len, null, t0);
        if (n != HANDED_OVER) {
          left = directEnded;
          return n;
        }
      }
      int n;
      try {
        n = sequential.read(pos, b, off, len);
      } catch (SequentialReader.FallBack | RuntimeException | LinkageError e) {
        fallBackToHdfs(e);
        return in.read(b, off, len);
      }
      pos += n;
      counted(n);
      readElsewhere(n);
      return n;
    } finally {
      runReadNanos += (left != 0 ? left : System.nanoTime()) - entered;
    }
  }

  /** A sequential read begins: the time of the run's first read, and now. */
  private long enterRead() {
    long now = System.nanoTime();
    if (runStartNanos == 0) {
      runStartNanos = now;
    }
    return now;
  }

  /**
   * Whether the caller has spent at least half its run waiting in reads: it reads as fast
   * as bytes come (hdfs dfs -cat), and blocks fetched in parallel would serve it sooner. A
   * task that computes on what it reads waits far less, and its blocks are not fetched
   * ahead (its split may end within the next block: fetches past it would load the
   * DataNodes the tasks of the next splits read).
   */
  private boolean waitsOnReads() {
    return runReadNanos * 2 >= System.nanoTime() - runStartNanos;
  }

  /** When the last direct read ended (System.nanoTime()). */
  private long directEnded;

  /** Most bytes one direct read asks HDFS's stream for. */
  private static final int DIRECT_CHUNK = SequentialReader.PIECE;

  /** {@link #readDirect}'s answer when the read is the {@link SequentialReader}'s from here on. */
  private static final int HANDED_OVER = Integer.MIN_VALUE;

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
    int subblock;
    long g;
    DFSInputStream src = directStream();
    if (inBehind) {
      src.seek(pos);
      inBehind = false;
      directMoved();
      entered = 0; // the seek is not the read's
    }
    try {
      if (pos >= checkedTo) {
        if (contiguous.verdicts().leftToParityAt(pos)) {
          direct = false;
          return HANDED_OVER;
        }
        checkedTo = contiguous.verdicts().blockEnd(pos);
        directTimes.beginBlock(System.nanoTime(), contiguous.verdicts().perSubblockDeadline());
      }
      subblock = contiguous.verdicts().subblockSize();
      g = pos / subblock;
      if (!directTimes.timing(g)) {
        // At each later subblock of a block (at its first, leftToParity was asked just above).
        if (g * subblock % contiguous.verdicts().blockSize() != 0
            && contiguous.verdicts().listedSince(pos, directTimes.readBound(System.nanoTime()))) {
          direct = false; // listed while this block was being read: the rest of it is left to parity
          return HANDED_OVER;
        }
        directTimes.beginSubblock(g, pos == g * subblock);
      }
    } catch (RuntimeException | LinkageError e) {
      fallBackToHdfs(e);
      return buf == null ? in.read(b, off, len) : in.read(buf);
    }
    long t0 = entered != 0 ? entered : System.nanoTime();
    int n;
    try {
      // At most a chunk per call: a caller's large read (Parquet reads a column chunk of many
      // MiB in one call) is judged between chunks, not once it is over.
      if (buf == null) {
        n = src.read(b, off, Math.min(len, DIRECT_CHUNK));
      } else if (buf.remaining() <= DIRECT_CHUNK) {
        n = src.read(buf);
      } else {
        ByteBuffer part = buf.duplicate();
        part.limit(part.position() + DIRECT_CHUNK);
        n = src.read(part);
        if (n > 0) {
          buf.position(buf.position() + n);
        }
      }
    } catch (java.io.InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      if (closed) {
        throw e;
      }
      // HDFS's stream failed here (a DataNode down or failing, and no other replica): parity
      // may still stand in; the SequentialReader's own streams retry as HDFS does if not.
      direct = false;
      if (src != in) {
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
    directTimes.spent(directEnded - t0);
    if (n <= 0) {
      return n;
    }
    pos += n;
    try {
      if (pos >= Math.min(fileLength, (g + 1) * subblock)) {
        contiguous.deliveredElsewhere();
        long whole = directTimes.subblockDone();
        if (whole >= 0) {
          contiguous.verdicts().readElsewhere(g, whole);
        }
      } else if (contiguous.verdicts().lateForCaller(g, directTimes)) {
        direct = false; // the rest of this subblock, and what follows until handBack, are the SequentialReader's
        resumable = true;
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
      if (pos >= aheadAt) {
        aheadAt = pos + DIRECT_CHUNK; // looked at every 128 KiB, not at every small read
        if (waitsOnReads() && contiguous.anySuspect()) {
          prefetch.ahead(pos, runStart);
        }
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
      inBehind = direct;
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
        inBehind = true; // the direct stream seeks to pos at its next read
        directMoved();
      }
    } catch (RuntimeException | LinkageError e) {
      resumable = false; // the SequentialReader serves on; it falls back itself if it must
    }
  }

  /** The caller jumped to {@code at}: a new run of reads begins there. */
  private void newRun(long at) {
    runStart = at;
    runStartNanos = 0;
    runReadNanos = 0;
    aheadAt = 0;
  }

  /**
   * The stream direct reads go through: the fail-fast one, opened at the first direct read
   * (positional readers never need it), else {@code in}.
   */
  private DFSInputStream directStream() throws IOException {
    if (directIn == null) {
      DFSInputStream s = null;
      if (failFast != null) {
        try {
          s = failFast.open();
        } catch (IOException | RuntimeException | LinkageError e) {
          if (closed) {
            throw new IOException("Stream closed");
          }
          warnings.once("POCache could not open its fail-fast stream; sequential reads wait out HDFS's retries"
              + " on a DataNode that is down", e);
        }
      }
      directIn = s != null ? s : in;
      inBehind = true;
    }
    return directIn;
  }

  /** Forgets the direct reads' timing and block check: the direct stream was moved. */
  private void directMoved() {
    checkedTo = -1;
    directTimes.forget();
  }

  /** From here on sequential reads are the HDFS stream's, from this stream's position. */
  private void fallBackToHdfs(Throwable why) throws IOException {
    outcome.cacheErrorSeen();
    SequentialSource s = sequential;
    sequential = null;
    contiguous = null;
    direct = false;
    resumable = false;
    inBehind = false;
    if (prefetch != null) {
      prefetch.close();
      prefetch = null;
    }
    s.close();
    in.seek(pos);
    warnings.once("POCache's sequential reads fell back to HDFS's stream", why);
  }

  /**
   * Bytes handed to the caller that the sequential reader or the whole-block prefetch read
   * through streams of their own (or rebuilt), not {@code in} or the direct stream: the
   * read statistics count them as read from DataNodes, as HDFS's stream's would have.
   */
  private final java.util.concurrent.atomic.AtomicLong elsewhere = new java.util.concurrent.atomic.AtomicLong();

  private void readElsewhere(int n) {
    if (n > 0 && sequential == contiguous) {
      elsewhere.addAndGet(n); // a striped file's reads are its HDFS stream's, counted there
    }
  }

  /** Bytes the caller took from the read-ahead, the prefetch or rebuilds (see {@link #readElsewhere}). */
  long bytesReadElsewhere() {
    return elsewhere.get();
  }

  void clearBytesReadElsewhere() {
    elsewhere.set(0);
  }

  /** Bytes handed to the caller count in the caller thread's FileSystem statistics, as HDFS's would. */
  private void counted(int n) {
    if (stats != null && n > 0) {
      stats.incrementBytesRead(n);
    }
  }

  @Override
  public int read(ByteBuffer buf) throws IOException {
    synchronized (this) {
      if (sequential == null) {
        return in.read(buf);
      }
      if (buf.hasArray()) {
        int n = read(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
        if (n > 0) {
          buf.position(buf.position() + n);
        }
        return n;
      }
      if (closed) {
        throw new IOException("Stream closed");
      }
      if (!buf.hasRemaining()) {
        return 0;
      }
      if (pos >= fileLength) {
        return -1;
      }
      long entered = enterRead();
      long left = 0;
      try {
        long t0 = entered;
        if (prefetch != null && pos - runStart > blockSize) {
          int n = fromPrefetch(null, 0, buf.remaining(), buf);
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
          int n = readDirect(null, 0, 0, buf, t0);
          if (n != HANDED_OVER) {
            left = directEnded;
            return n;
          }
        }
        int n;
        try {
          n = sequential.read(pos, buf);
        } catch (SequentialReader.FallBack | RuntimeException | LinkageError e) {
          fallBackToHdfs(e);
          return in.read(buf);
        }
        pos += n;
        counted(n);
        readElsewhere(n);
        return n;
      } finally {
        runReadNanos += (left != 0 ? left : System.nanoTime()) - entered;
      }
    }
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    if (sequential == null) {
      in.seek(target);
      return;
    }
    if (target < 0) {
      throw new java.io.EOFException("Cannot seek to negative offset");
    }
    if (target > fileLength) {
      throw new java.io.EOFException("Cannot seek after EOF");
    }
    if (closed) {
      throw new IOException("Stream closed");
    }
    if (direct) {
      inBehind = true; // the direct stream seeks at its next read
      directMoved();
    }
    if (target != pos) {
      newRun(target);
    }
    pos = target;
  }

  @Override
  public synchronized long getPos() throws IOException {
    return sequential == null ? in.getPos() : pos;
  }

  @Override
  public synchronized boolean seekToNewSource(long targetPos) throws IOException {
    if (sequential == null) {
      return in.seekToNewSource(targetPos);
    }
    return false; // every subblock read picks its source afresh
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    if (sequential == null) {
      return in.skip(n);
    }
    if (n <= 0) {
      return 0;
    }
    long to = Math.min(fileLength, pos + n);
    long skipped = to - pos;
    if (direct) {
      inBehind = true;
      directMoved();
    }
    newRun(to);
    pos = to;
    return skipped;
  }

  @Override
  public synchronized int available() throws IOException {
    if (sequential == null) {
      return in.available();
    }
    if (closed) {
      throw new IOException("Stream closed");
    }
    return (int) Math.min(Integer.MAX_VALUE, fileLength - pos);
  }

  @Override
  public synchronized void setReadahead(Long readahead) throws IOException {
    in.setReadahead(readahead);
    if (directIn != null && directIn != in) {
      directIn.setReadahead(readahead);
    }
  }

  @Override
  public synchronized void setDropBehind(Boolean dropBehind) throws IOException {
    in.setDropBehind(dropBehind);
    if (directIn != null && directIn != in) {
      directIn.setDropBehind(dropBehind);
    }
  }

  /**
   * The HDFS stream's answer for what this stream implements too (readahead, drop-behind,
   * unbuffer, reads into a ByteBuffer); no for the rest, so that no caller is sent to an
   * interface this stream lacks.
   */
  @Override
  public boolean hasCapability(String capability) {
    return sharedCapability(in, capability);
  }

  /**
   * What a POCache stream over {@code in} answers (this one and {@link FillingInputStream}):
   * the HDFS stream's word for readahead, drop-behind, unbuffer and reads into a
   * ByteBuffer, which both implement too; no for the rest.
   */
  static boolean sharedCapability(DFSInputStream in, String capability) {
    switch (capability == null ? "" : capability.toLowerCase(java.util.Locale.ROOT)) {
      case StreamCapabilities.READAHEAD:
      case StreamCapabilities.DROPBEHIND:
      case StreamCapabilities.UNBUFFER:
      case "in:readbytebuffer":
        return in.hasCapability(capability);
      default:
        return false;
    }
  }

  @Override
  public synchronized void unbuffer() {
    in.unbuffer();
    if (sequential != null) {
      sequential.release();
    }
    if (directIn != null && directIn != in) {
      directIn.unbuffer();
    }
  }

  @Override
  public synchronized ByteBuffer read(ByteBufferPool bufferPool, int maxLength, EnumSet<ReadOption> opts)
      throws IOException {
    if (sequential == null) {
      return in.read(bufferPool, maxLength, opts);
    }
    in.seek(pos); // zero-copy reads are HDFS's own: hand it this stream's position and take it back
    ByteBuffer b = in.read(bufferPool, maxLength, opts);
    pos = in.getPos();
    inBehind = true;
    directMoved();
    return b;
  }

  @Override
  public void releaseBuffer(ByteBuffer buffer) {
    in.releaseBuffer(buffer);
  }

  /** The stream direct reads went through if it is not {@code in} (its read statistics count too), else null. */
  DFSInputStream separateDirectStream() {
    DFSInputStream d = directIn;
    return d == in ? null : d;
  }

  /** The HDFS stream underneath (read statistics, file length). */
  DFSInputStream hdfsStream() {
    return in;
  }

  /** Bytes fetched ahead in whole blocks so far, 0 without a prefetch (for tests). */
  synchronized long prefetchedBytes() {
    return prefetch == null ? 0 : prefetch.fetchedBytes();
  }

  /** Whether sequential reads are still HDFS's stream's own, on the caller's thread (for tests). */
  synchronized boolean readsDirectly() {
    return direct;
  }

  /** How often sequential reads came back to HDFS's stream after a late subblock (for tests). */
  int handedBack() {
    SequentialReader s = contiguous;
    return s == null ? 0 : s.handedBack();
  }

  /** The sequential reader's streamed bytes, 0 if there is none yet (for tests). */
  long streamedBytes() {
    SequentialReader s = contiguous;
    return s == null ? 0 : s.streamedBytes();
  }

  /** Whether the sequential reader's streamer waits for the caller (for tests); false if there is none. */
  boolean streamerWaiting() {
    SequentialReader s = contiguous;
    return s != null && s.streamerWaiting();
  }

  /** Subblocks the sequential reader rebuilt from parity, per block of the file (for tests). */
  java.util.Map<Long, Integer> decodedPerBlock() {
    SequentialReader s = contiguous;
    return s == null ? java.util.Collections.emptyMap() : s.decodedPerBlock();
  }

  /** What parity did for the reads so far. */
  ProactiveReader.Outcome outcome() {
    return outcome;
  }

  /** Synchronized as HDFS's stream's is: a read in progress ends before the reader's buffers go back to the pool. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (sequential != null) {
      sequential.close();
    }
    if (prefetch != null) {
      prefetch.close();
    }
    try {
      if (degraded != null) {
        degraded.close();
      }
    } catch (IOException e) {
      // the rebuilds' stream's close: nothing of the caller's depends on it
    }
    try {
      if (directIn != null && directIn != in) {
        directIn.close();
      }
    } catch (IOException e) {
      // the direct stream's close: nothing of the caller's depends on it
    } finally {
      try {
        in.close();
      } finally {
        if (LOG.isDebugEnabled() && sequential != null) {
          // Where a sequential read's bytes came from: what a rebuild costs the other DataNodes.
          LOG.debug("closed: read ahead {} bytes, fetched ahead {}, rebuilds read {} of other pieces and took {}"
              + " from memory; {} substripes, {} decoded", streamedBytes(), prefetch == null ? 0
              : prefetch.fetchedBytes(), outcome.rebuildInputBytes, outcome.heldInputBytes, outcome.substripes,
              outcome.decoded);
        }
        onClose.accept(outcome);
      }
    }
  }
}
