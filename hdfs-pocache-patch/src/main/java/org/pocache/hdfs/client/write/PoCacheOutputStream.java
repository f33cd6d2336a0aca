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
package org.pocache.hdfs.client.write;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path for a file the Manager admitted (POCache paper section 3.1,
 * Table 1): every byte goes to HDFS first, and is also fed to a {@link ParityEncoder}
 * (incremental encoding; a substripe's parity is uploaded asynchronously as soon as
 * it is final). {@link #close()} closes the HDFS file first, then uploads what the
 * last (possibly short) stripe has, waits for the uploads and commits the
 * reservation. Memory per writer: m x block size for a replicated file, m + 1 cells
 * for an erasure-coded one (see {@link ParityEncoder}); before admission, the held bytes
 * below (up to min(min.blocks, k) - 1 blocks, whether or not the Manager will admit it).
 *
 * <p>A replicated file is cached on write only if it has at least min(min.blocks, k)
 * full blocks ({@code dfs.pocache.write.min.blocks}). Until it has more than one block
 * less than that, the Manager is not asked at all: the bytes written are held (in
 * {@link #PIECE}-byte pieces) and the admission happens when the file goes past them,
 * the held bytes then fed to the encoder first. A file that ends sooner (a _SUCCESS
 * marker, a small job output) costs a copy and no Manager call.
 *
 * <p>Any cache-side problem (Redis failing or too slow to keep the upload bound
 * without waiting, the Manager refusing the commit) abandons caching for this file
 * and releases the reservation; the HDFS write never fails or waits because of it.
 * hflush/hsync pass through: parity stays private until close.
 */
final class PoCacheOutputStream extends OutputStream implements Syncable, StreamCapabilities {
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheOutputStream.class);
  private static final long UPLOAD_WAIT_SECONDS = 60;
  /** Held bytes go in arrays of this size (a block in one array would be humongous for G1). */
  static final int PIECE = 128 << 10;
  /**
   * Calls under {@link ParityEncoder#FOLD_DIRECT_BYTES} are gathered into calls of this many
   * bytes; larger ones go to HDFS and the encoder as they are.
   */
  static final int GATHER = 64 << 10;

  /** What an admission hands the stream: the reservation, its descriptor and where parity goes. */
  static final class Admitted {
    final long reservationId;
    final ParityDescriptor d;
    final ParityEncoder.Parts parts;
    final ManagerClient manager;

    Admitted(long reservationId, ParityDescriptor d, ParityEncoder.Parts parts, ManagerClient manager) {
      this.reservationId = reservationId;
      this.d = d;
      this.parts = parts;
      this.manager = manager;
    }
  }

  /** Asks the Manager to admit the file: null if it is not to be cached (never throws). */
  interface Admitter {
    Admitted admit();
  }

  private final OutputStream out;
  private final Syncable sync;
  private final BufferPool buffers;
  private final AtomicLong abandoned;
  /** A replicated file of fewer blocks is not cached on write (dfs.pocache.write.min.blocks). */
  private final int minBlocks;
  /** Writes left uncached for that reason. */
  private final AtomicLong tooShort;
  /** Until admitted: who admits, and the bytes up to which the file is held rather than admitted. */
  private Admitter admitter;
  private final long holdUpTo;
  private final List<byte[]> held = new ArrayList<>();
  private int lastPieceFill;
  private ParityDescriptor d;
  private long reservationId;
  private ManagerClient manager;
  private ParityEncoder encoder;
  private long written;
  private boolean caching = true;
  private boolean closed;
  /** Bytes of small calls not yet passed on (see {@link #write(byte[], int, int)}); made at the first. */
  private byte[] gathered;
  private int gatheredBytes;

  /** A file the Manager has admitted already. */
  PoCacheOutputStream(OutputStream out, Admitted a, BufferPool buffers, AtomicLong abandoned, int minBlocks,
      AtomicLong tooShort) {
    this(out, null, 0, buffers, abandoned, minBlocks, tooShort);
    start(a);
  }

  /**
   * A file to be admitted once it is longer than {@code holdUpTo} bytes; until then it
   * is only held.
   */
  PoCacheOutputStream(OutputStream out, Admitter admitter, long holdUpTo, BufferPool buffers, AtomicLong abandoned,
      int minBlocks, AtomicLong tooShort) {
    this.out = out;
    this.sync = out instanceof Syncable ? (Syncable) out : null;
    this.admitter = admitter;
    this.holdUpTo = holdUpTo;
    this.buffers = buffers;
    this.abandoned = abandoned;
    this.minBlocks = minBlocks;
    this.tooShort = tooShort;
  }

  private void start(Admitted a) {
    this.d = a.d;
    this.reservationId = a.reservationId;
    this.manager = a.manager;
    this.encoder = new ParityEncoder(a.d, a.parts, buffers); // may throw: the caller abandons
  }

  @Override
  public synchronized void write(int b) throws IOException {
    if (closed || gathered == null || gatheredBytes == gathered.length) {
      write(new byte[] {(byte) b}, 0, 1);
      return;
    }
    gathered[gatheredBytes++] = (byte) b;
  }

  /**
   * Small calls (a record writer's: TeraSort's reducer makes two per 100-byte record, a
   * SequenceFile writer single bytes and a call per record; {@code -put} 4 KiB calls) are
   * gathered first and passed on {@link #GATHER} bytes at a time: each then costs one copy,
   * as a call to HDFS's own stream does, where HDFS's stream and the encoder would each
   * copy it, and the layers below are called once per {@link #GATHER} bytes. HDFS sees the
   * same bytes in the same order; a flush, hflush, hsync or close passes on what is
   * gathered first.
   */
  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    if (closed) {
      out.write(b, off, len); // HDFS's own error for a write after close
      return;
    }
    if (len >= ParityEncoder.FOLD_DIRECT_BYTES) {
      passOnGathered();
      passOn(b, off, len);
      return;
    }
    if (gathered == null) {
      gathered = new byte[GATHER];
    } else if (gatheredBytes + len > GATHER) {
      passOnGathered();
    }
    System.arraycopy(b, off, gathered, gatheredBytes, len);
    gatheredBytes += len;
  }

  private void passOnGathered() throws IOException {
    if (gatheredBytes > 0) {
      int n = gatheredBytes;
      gatheredBytes = 0; // if HDFS fails them, they are not passed on again
      passOn(gathered, 0, n);
    }
  }

  /** Passes bytes to HDFS, then to the encoder (or the held pieces before admission). */
  private void passOn(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len); // HDFS first: its errors are the caller's, the cache's are not
    written += len;
    if (!caching) {
      return;
    }
    if (admitter != null) {
      if (written <= holdUpTo) {
        hold(b, off, len);
        return;
      }
      Admitter a = admitter;
      admitter = null;
      Admitted admitted = a.admit();
      if (admitted == null) {
        caching = false;
        releaseHeld();
        return;
      }
      try {
        start(admitted);
        encoder.alsoCycles((long) held.size() * PIECE); // the pool keeps the held pieces for the next file too
        for (int i = 0; i < held.size(); i++) {
          encoder.feed(held.get(i), 0, i == held.size() - 1 ? lastPieceFill : PIECE);
        }
      } catch (RuntimeException | IOException | LinkageError e) {
        releaseHeld();
        abandon("encoding failed: " + e);
        return;
      }
      releaseHeld();
    }
    try {
      encoder.feed(b, off, len);
    } catch (RuntimeException | IOException | LinkageError e) { // the coder and Redis are reached here first
      abandon("encoding failed: " + e);
    }
  }

  /** Copies written bytes into the held pieces. */
  private void hold(byte[] b, int off, int len) {
    while (len > 0) {
      if (held.isEmpty() || lastPieceFill == PIECE) {
        held.add(buffers.borrow(PIECE));
        lastPieceFill = 0;
      }
      int n = Math.min(len, PIECE - lastPieceFill);
      System.arraycopy(b, off, held.get(held.size() - 1), lastPieceFill, n);
      lastPieceFill += n;
      off += n;
      len -= n;
    }
  }

  private void releaseHeld() {
    for (byte[] p : held) {
      buffers.release(p);
    }
    held.clear();
  }

  /** Stops caching a file HDFS failed to write, admitted or not. */
  private void giveUp(String why) {
    if (admitter != null) { // nothing reserved yet
      admitter = null;
      caching = false;
      releaseHeld();
    } else {
      abandon(why);
    }
  }

  /** Stops caching this file; the Manager deletes whatever was uploaded. */
  private void abandon(String why) {
    abandon(why, false);
  }

  /**
   * Stops caching this file. The Manager deletes what was uploaded when it ends the
   * reservation; when it cannot (it does not know the reservation: a failover moved the
   * cache to the other NameNode's Manager, or the Manager restarted) and every upload has
   * ended ({@code uploadsEnded}), this writer deletes its own values, so none are left in
   * Redis outside the index.
   */
  private void abandon(String why, boolean uploadsEnded) {
    if (!caching) {
      return;
    }
    caching = false;
    if (encoder != null) {
      encoder.discard();
    }
    abandoned.incrementAndGet();
    LOG.info("POCache stops caching the parity of {}: {}", d.getPath(), why);
    try {
      manager.abort(reservationId, why);
    } catch (IOException | RuntimeException | LinkageError e) {
      LOG.debug("abort of reservation {} not delivered (it will expire): {}", reservationId, e.toString());
      if (uploadsEnded && encoder != null && !String.valueOf(e.getMessage()).contains("no longer open: committed")) {
        encoder.deleteUploaded(written);
      }
    }
  }

  @Override
  public void flush() throws IOException {
    passOnGatheredNow();
    out.flush();
  }

  /**
   * Passes on what is gathered, holding this stream's lock only for that: HDFS's hflush and
   * hsync wait for the pipeline's acks outside it, so a thread writing is not held up behind
   * another's sync (HBase's WAL appends on one thread and syncs on others).
   */
  private synchronized void passOnGatheredNow() throws IOException {
    passOnGathered();
  }

  @Override
  public void hflush() throws IOException {
    passOnGatheredNow();
    if (sync != null) {
      sync.hflush();
    } else {
      out.flush();
    }
  }

  /** The HDFS stream's capabilities (hflush, hsync, ...): callers such as HBase check them before relying on them. */
  @Override
  public boolean hasCapability(String capability) {
    return out instanceof StreamCapabilities && ((StreamCapabilities) out).hasCapability(capability);
  }

  @Override
  public void hsync() throws IOException {
    passOnGatheredNow();
    if (sync != null) {
      sync.hsync();
    } else {
      out.flush();
    }
  }

  /**
   * Whether a replicated file of {@code length} bytes is too short to cache on write: with
   * minBlocks above 1, shorter than min(minBlocks, k) full blocks. Its stripe is then
   * incomplete, so none of its parity was final before close and nothing was uploaded; the
   * parity would be a whole block for less than minBlocks blocks of data (a reducer's output
   * of one block and a few records has a block of parity). A file of a full stripe or more
   * is always cached; with minBlocks 1, every file is.
   */
  private boolean tooShortToCache(long length) {
    return minBlocks > 1 && d.getLayout() != ParityDescriptor.Layout.STRIPED
        && length < (long) Math.min(minBlocks, d.getK()) * d.getBlockSize();
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    long t0 = System.nanoTime();
    try {
      passOnGathered();
    } catch (IOException | RuntimeException e) {
      try {
        out.close(); // the lease and HDFS's streamer threads are let go all the same
      } catch (IOException | RuntimeException suppressed) {
        if (suppressed != e) {
          // HDFS's stream throws the error it failed on again: the same object, which a
          // throwable cannot suppress (that would replace the caller's IOException).
          e.addSuppressed(suppressed);
        }
      }
      giveUp("the HDFS write failed: " + e);
      throw e;
    }
    try {
      out.close(); // the file is complete in HDFS before anything else
    } catch (IOException | RuntimeException e) {
      giveUp("the HDFS write failed: " + e);
      throw e;
    }
    if (!caching) {
      return;
    }
    if (admitter != null) { // never went past the held bytes: too short to cache on write
      admitter = null;
      caching = false;
      releaseHeld();
      if (written > 0) {
        tooShort.incrementAndGet();
      }
      return;
    }
    String notWorthIt = written == 0 ? "the file is empty" // a _SUCCESS marker, say
        : tooShortToCache(written)
            ? "a file shorter than " + Math.min(minBlocks, d.getK()) + " blocks ("
                + PoCacheConfigKeys.WRITE_MIN_BLOCKS_KEY + "): its parity, one block, would be more than 1/"
                + Math.min(minBlocks, d.getK()) + " of the file"
        : null;
    if (notWorthIt != null) {
      // Hand the reservation back quietly; a short file may still be cached when it is read.
      caching = false;
      encoder.discard();
      if (written > 0) {
        tooShort.incrementAndGet();
      }
      try {
        manager.abort(reservationId, notWorthIt);
      } catch (IOException | RuntimeException | LinkageError e) {
        LOG.debug("abort of reservation {} not delivered (it will expire): {}", reservationId, e.toString());
      }
      return;
    }
    boolean uploadsEnded = false;
    try {
      long t1 = System.nanoTime();
      encoder.finish(UPLOAD_WAIT_SECONDS);
      uploadsEnded = true;
      long t2 = System.nanoTime();
      manager.commit(reservationId, d.getFileId(), written, encoder.parityBytes(), encoder.valueDigests(written));
      if (LOG.isDebugEnabled()) {
        long t3 = System.nanoTime();
        LOG.debug(String.format(java.util.Locale.ROOT,
            "close of %s: HDFS %.1f ms, last uploads %.1f ms, commit %.1f ms", d.getPath(), (t1 - t0) / 1e6,
            (t2 - t1) / 1e6, (t3 - t2) / 1e6));
      }
    } catch (Exception | LinkageError e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      abandon("finishing the parity failed: " + e, uploadsEnded);
    }
  }
}
