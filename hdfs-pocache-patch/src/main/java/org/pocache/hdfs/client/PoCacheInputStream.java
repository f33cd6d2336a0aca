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
  /** Sequential reads that are more than HDFS's stream's own; null: they are all HDFS's. */
  private final SequentialReads seq;
  /** Reads of {@code in} that do not count in FileSystem statistics (this stream counts what it returns). */
  private final PositionedReadable uncounted;
  /** HDFS's positional reads of {@code in}, as the caller's (counted); one at a time for a striped stream. */
  private final PositionedReadable preads;
  private final FileSystem.Statistics stats;
  private final ProactiveReader.Outcome outcome;
  private final Consumer<ProactiveReader.Outcome> onClose;
  private boolean closed;

  PoCacheInputStream(DFSInputStream in, ProactiveReader proactive, DegradedReader degraded,
      SequentialReader sequential, BlockPrefetch prefetch, PositionedReadable uncounted,
      FileSystem.Statistics stats, ProactiveReader.Outcome outcome, Consumer<ProactiveReader.Outcome> onClose,
      Warnings warnings, SequentialReader.Opener failFast, StripedReadAhead.Watch striped) {
    this.in = in;
    this.positional = new PositionalReads(proactive, degraded, uncounted, outcome);
    this.proactive = proactive;
    this.degraded = degraded;
    SequentialSource source = sequential != null ? sequential
        : striped == null ? null
        : new StripedReadAhead(positional::readUncounted, in, n -> {
          if (stats != null) {
            stats.incrementBytesRead(-n);
          }
        }, proactive.layout(), striped);
    this.seq = source == null ? null : new SequentialReads(in, source, sequential, prefetch, failFast,
        proactive.layout().blockSize(), stats, outcome, warnings);
    this.uncounted = uncounted;
    this.preads = SerialPreads.of(in);
    this.stats = stats;
    this.outcome = outcome;
    this.fileLength = in.getFileLength();
    this.onClose = onClose;
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

  /** Whether sequential reads are more than HDFS's stream's own (not after a fall-back). */
  private boolean ours() {
    return seq != null && seq.active();
  }

  @Override
  public synchronized int read() throws IOException {
    if (!ours()) {
      return in.read();
    }
    byte[] one = new byte[1];
    return read(one, 0, 1) <= 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    if (!ours() || b == null || off < 0 || len < 0 || len > b.length - off) {
      return in.read(b, off, len); // HDFS's own read, or its error
    }
    return seq.read(b, off, len);
  }

  @Override
  public synchronized int read(ByteBuffer buf) throws IOException {
    return ours() ? seq.read(buf) : in.read(buf);
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    if (ours()) {
      seq.seek(target);
    } else {
      in.seek(target);
    }
  }

  @Override
  public synchronized long getPos() throws IOException {
    return ours() ? seq.getPos() : in.getPos();
  }

  @Override
  public synchronized boolean seekToNewSource(long targetPos) throws IOException {
    // Every subblock read of POCache's picks its source afresh.
    return !ours() && in.seekToNewSource(targetPos);
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    return ours() ? seq.skip(n) : in.skip(n);
  }

  @Override
  public synchronized int available() throws IOException {
    return ours() ? seq.available() : in.available();
  }

  /** Bytes the caller took from the read-ahead, the prefetch or rebuilds (read statistics count them). */
  long bytesReadElsewhere() {
    return seq == null ? 0 : seq.bytesReadElsewhere();
  }

  void clearBytesReadElsewhere() {
    if (seq != null) {
      seq.clearBytesReadElsewhere();
    }
  }

  /** Bytes handed to the caller count in the caller thread's FileSystem statistics, as HDFS's would. */
  private void counted(int n) {
    if (stats != null && n > 0) {
      stats.incrementBytesRead(n);
    }
  }

  @Override
  public synchronized void setReadahead(Long readahead) throws IOException {
    in.setReadahead(readahead);
    DFSInputStream d = separateDirectStream();
    if (d != null) {
      d.setReadahead(readahead);
    }
  }

  @Override
  public synchronized void setDropBehind(Boolean dropBehind) throws IOException {
    in.setDropBehind(dropBehind);
    DFSInputStream d = separateDirectStream();
    if (d != null) {
      d.setDropBehind(dropBehind);
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
    if (ours()) {
      seq.release();
    }
    DFSInputStream d = separateDirectStream();
    if (d != null) {
      d.unbuffer();
    }
  }

  /** Zero-copy reads are HDFS's own, from this stream's position. */
  @Override
  public synchronized ByteBuffer read(ByteBufferPool bufferPool, int maxLength, EnumSet<ReadOption> opts)
      throws IOException {
    return ours() ? seq.read(bufferPool, maxLength, opts) : in.read(bufferPool, maxLength, opts);
  }

  @Override
  public void releaseBuffer(ByteBuffer buffer) {
    in.releaseBuffer(buffer);
  }

  /** The stream direct reads went through if it is not {@code in} (its read statistics count too), else null. */
  DFSInputStream separateDirectStream() {
    return seq == null ? null : seq.separateDirectStream();
  }

  /** The HDFS stream underneath (read statistics, file length). */
  DFSInputStream hdfsStream() {
    return in;
  }

  /** Bytes fetched ahead in whole blocks so far, 0 without a prefetch (for tests). */
  synchronized long prefetchedBytes() {
    return seq == null ? 0 : seq.prefetchedBytes();
  }

  /** Whether sequential reads are still HDFS's stream's own, on the caller's thread (for tests). */
  synchronized boolean readsDirectly() {
    return seq != null && seq.readsDirectly();
  }

  /** How often sequential reads came back to HDFS's stream after a late subblock (for tests). */
  int handedBack() {
    SequentialReader s = seq == null ? null : seq.contiguous();
    return s == null ? 0 : s.handedBack();
  }

  /** The sequential reader's streamed bytes, 0 if there is none yet (for tests). */
  long streamedBytes() {
    SequentialReader s = seq == null ? null : seq.contiguous();
    return s == null ? 0 : s.streamedBytes();
  }

  /** Whether the sequential reader's streamer waits for the caller (for tests); false if there is none. */
  boolean streamerWaiting() {
    SequentialReader s = seq == null ? null : seq.contiguous();
    return s != null && s.streamerWaiting();
  }

  /** Subblocks the sequential reader rebuilt from parity, per block of the file (for tests). */
  java.util.Map<Long, Integer> decodedPerBlock() {
    SequentialReader s = seq == null ? null : seq.contiguous();
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
    boolean sequentialReads = ours();
    try {
      if (seq != null) {
        seq.close();
      }
      if (degraded != null) {
        degraded.close();
      }
    } catch (IOException e) {
      // the rebuilds' stream's close: nothing of the caller's depends on it
    } finally {
      try {
        in.close();
      } finally {
        if (LOG.isDebugEnabled() && sequentialReads) {
          // Where a sequential read's bytes came from: what a rebuild costs the other DataNodes.
          LOG.debug("closed: read ahead {} bytes, fetched ahead {}, took {} that rebuilds had read; rebuilds read {}"
              + " of other pieces and took {} from memory ({} without a copy); {} substripes, {} decoded",
              streamedBytes(), seq.prefetchedBytes(), outcome.keptAheadBytes, outcome.rebuildInputBytes,
              outcome.heldInputBytes, outcome.handedInputBytes, outcome.substripes, outcome.decoded);
        }
        onClose.accept(outcome);
      }
    }
  }
}
