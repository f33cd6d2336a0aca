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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.pocache.cache.Crc32c;
import org.pocache.cache.ParityProtection;
import org.pocache.cache.ParitySeal;
import org.pocache.cache.ParityValue;
import org.pocache.cache.ParityStore;
import org.pocache.coder.ErasureCoder;
import org.pocache.coder.layout.ContiguousLayout;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.coder.layout.StripedLayout;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ParitySeals;

/**
 * Incremental encoding of a file's parity from its bytes in file order, as a writer
 * writes them or a reader reads them (POCache paper section 3.1, Table 1): the bytes
 * are sliced into data subblocks, each folded into its substripe's parity as soon as
 * it is complete ({@code ec_encode_data_update} with ISA-L); a substripe's parity is
 * final when the stripe's last data piece for it arrives, and is then uploaded
 * asynchronously under the descriptor's file id and generation.
 *
 * <p>A replicated file's substripe collects its pieces from the k blocks of a stripe,
 * so its parity accumulates while the whole stripe goes by: m x block size of
 * accumulators (taken from the FileSystem's buffer pool per substripe as data
 * arrives, returned when their upload ends) plus one subblock. An erasure-coded
 * file goes a row of cells at a time and its subblock is one cell (see the
 * Manager), so each row's parity is final when the row is: m cells.
 * Bytes are folded from the caller's array as they come, whatever the size of its
 * calls (the code is bytewise, so part of a subblock folds into the same part of the
 * accumulators): nothing is copied, and the CRC32C of the subblock runs along. Not
 * thread-safe: one writer or reader feeds it.
 */
public final class ParityEncoder {
  /**
   * Where an encoder gets its parity store and coder: on first use, so a file that is
   * never encoded (empty, or too short to cache on write) connects to nothing.
   */
  public interface Parts {
    /** The store; an IOException stops the encoding (the caller stops caching the file). */
    ParityStore store() throws IOException;

    ErasureCoder coder();
  }

  private final ParityDescriptor d;
  private final Parts parts;
  private ParityStore store;
  private ErasureCoder coder;
  /** Where accumulators come from and go back to once uploaded (1 MiB arrays are humongous for G1). */
  private final BufferPool buffers;
  private final int k;
  private final int m;
  private final int sub;
  private final long block;
  private final int substripesPerBlock;
  /** An erasure-coded file: data subblock (s, j, i) is cell i of row j of block group s. */
  private final boolean striped;
  /** Bytes in front of each parity accumulator, where the stored value's header goes. */
  private final int header;
  /** How the values are sealed (from the reservation), and the bytes of a full value's trailer. */
  private final ParitySeal seal;
  private final int trailer;
  /** The digest of every value uploaded, by slot ((stripe * substripes + substripe) * m + parity). */
  private final java.util.Map<Long, byte[]> digests = new java.util.concurrent.ConcurrentHashMap<>();

  private long position;
  /** Bytes of pooled arrays the caller cycles besides the accumulators (a writer's held pieces). */
  private long alsoCycled;
  /** Bytes of the current data subblock fed so far (folded, or the last {@link #staged} gathered), and their CRC32C. */
  private int pieceFill;
  /** Calls shorter than this are gathered in {@link #stage} and folded together. */
  static final int FOLD_DIRECT_BYTES = 16 << 10;
  static final int STAGE_BYTES = 64 << 10;
  private byte[] stage;
  private int staged;
  private final java.util.zip.Checksum pieceCrc = Crc32c.running();
  /** Parity accumulators of the current stripe: [substripe][parity index]. */
  private byte[][][] parity;
  private int[][] dataCrcs;
  /**
   * Per substripe of the current stripe, the data piece that set its accumulators
   * ({@link ErasureCoder#start}, part by part as its bytes came); the others fold into them.
   */
  private int[] setBy;
  private long stripe = -1;
  private final List<CompletableFuture<Void>> uploads = new ArrayList<>();
  private long parityBytes;

  public ParityEncoder(ParityDescriptor d, ParityStore store, ErasureCoder coder, BufferPool buffers) {
    this(d, new Parts() {
      @Override
      public ParityStore store() {
        return store;
      }

      @Override
      public ErasureCoder coder() {
        return coder;
      }
    }, buffers);
  }

  /** An encoder that reaches the store and the coder through {@code parts} at the first parity. */
  ParityEncoder(ParityDescriptor d, Parts parts, BufferPool buffers) {
    this.d = d;
    this.parts = parts;
    this.buffers = buffers;
    this.k = d.getK();
    this.m = d.getM();
    this.sub = d.getSubblockBytes();
    this.block = d.getBlockSize();
    this.substripesPerBlock = (int) (block / sub);
    this.striped = d.getLayout() == ParityDescriptor.Layout.STRIPED;
    if (striped && d.getCellSize() != sub) {
      throw new IllegalArgumentException("an erasure-coded file's subblock must be its cell: cell " + d.getCellSize()
          + ", subblock " + sub);
    }
    this.seal = ParitySeals.of(d);
    this.header = ParityValue.headerBytes(k, seal);
    this.trailer = ParityValue.valueBytes(k, sub, seal) - header - sub;
  }

  /**
   * The digests of the values uploaded for a file of {@code length} bytes, one slot per
   * (stripe, substripe, parity) in key order, zeros where nothing was stored: what the
   * commit hands the Manager, which gives them to readers. Call after {@link #finish}.
   */
  public byte[] valueDigests(long length) {
    if (seal.protection() == ParityProtection.NONE) {
      return new byte[0];
    }
    long stripeBytes = block * k;
    long stripes = Math.max(1, (length + stripeBytes - 1) / stripeBytes);
    long slots = stripes * substripesPerBlock * m;
    byte[] out = new byte[(int) (slots * ParityValue.DIGEST_BYTES)];
    for (java.util.Map.Entry<Long, byte[]> e : digests.entrySet()) {
      if (e.getKey() < slots) {
        System.arraycopy(e.getValue(), 0, out, (int) (e.getKey() * ParityValue.DIGEST_BYTES), ParityValue.DIGEST_BYTES);
      }
    }
    return out;
  }

  /**
   * The caller also borrows {@code bytes} of the pool's arrays per file (a writer's held
   * pieces): the pool is asked to keep those too ({@link BufferPool#expect}).
   */
  void alsoCycles(long bytes) {
    alsoCycled = Math.max(0, bytes);
  }

  /** Bytes of the file fed so far: the offset the next {@link #feed} continues from. */
  public long position() {
    return position;
  }

  /** Parity bytes handed to Redis so far. */
  public long parityBytes() {
    return parityBytes;
  }

  /**
   * The next {@code len} bytes of the file.
   *
   * @throws IOException if Redis uploads fell behind (the caller should stop caching)
   */
  public void feed(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      // S divides the block size (a cell the block group): a call's bytes never straddle two pieces here.
      int n = Math.min(len, sub - pieceFill);
      if (n < FOLD_DIRECT_BYTES) {
        // A small call (a record writer's, a 4 KiB read's) is gathered first: one coder call
        // per STAGE_BYTES, not one per call.
        if (staged + n > STAGE_BYTES) {
          foldStaged();
        }
        if (stage == null) {
          stage = new byte[STAGE_BYTES];
        }
        System.arraycopy(b, off, stage, staged, n);
        staged += n;
      } else {
        foldStaged();
        foldPart(position - pieceFill, pieceFill, b, off, n);
      }
      pieceFill += n;
      position += n;
      off += n;
      len -= n;
      if (pieceFill == sub) {
        foldStaged();
        endPiece(position - sub);
      }
    }
  }

  /** Where the data subblock starting at file offset {@code start} goes: {stripe, piece index, substripe}. */
  private long[] placeOf(long start) {
    long s = start / (block * k);
    long w = start % (block * k);
    long i = striped ? w % ((long) k * sub) / sub : w / block;
    long j = striped ? w / ((long) k * sub) : w % block / sub;
    return new long[] {s, i, j};
  }

  /**
   * Folds the gathered bytes of small calls, the last {@code staged} of the current piece's
   * {@link #pieceFill}.
   */
  private void foldStaged() throws IOException {
    if (staged > 0) {
      foldPart(position - pieceFill, pieceFill - staged, stage, 0, staged);
      staged = 0;
    }
  }

  /**
   * Folds {@code n} bytes at {@code src[off]}, bytes {@code at} to {@code at + n} of the data
   * subblock starting at file offset {@code start}, into the same part of its substripe's parity.
   */
  private void foldPart(long start, int at, byte[] src, int off, int n) throws IOException {
    long[] place = placeOf(start);
    long s = place[0];
    int i = (int) place[1];
    int j = (int) place[2];
    if (coder == null) {
      coder = parts.coder();
    }
    if (s != stripe) {
      stripe = s;
      parity = new byte[substripesPerBlock][][];
      dataCrcs = new int[substripesPerBlock][];
      setBy = new int[substripesPerBlock];
      // A stripe's accumulators (and what the writer held before admission), to be reused by
      // the next stripe and the next file.
      buffers.expect((long) m * substripesPerBlock * (header + sub + trailer) + alsoCycled);
    }
    if (parity[j] == null) {
      parity[j] = new byte[m][];
      for (int p = 0; p < m; p++) {
        // Room for the stored value's header in front: uploaded without a copy.
        parity[j][p] = buffers.borrow(header + sub + trailer);
      }
      dataCrcs[j] = new int[k];
      java.util.Arrays.fill(dataCrcs[j], EMPTY_CRC); // pieces never fed are virtual zeros: no bytes
      setBy[j] = i;
    }
    // The substripe's first piece sets the accumulators (a borrowed buffer holds old bytes),
    // the others fold into them; pieces never fed count as zeros either way.
    if (setBy[j] == i) {
      coder.start(i, src, off, parity[j], header + at, n);
    } else {
      coder.update(i, src, off, parity[j], header + at, n);
    }
    pieceCrc.update(src, off, n);
  }

  /** CRC32C of no bytes: a data piece the file never had. */
  private static final int EMPTY_CRC = Crc32c.of(new byte[0], 0, 0);

  /**
   * The data subblock starting at file offset {@code start} ends ({@link #pieceFill} bytes,
   * fewer for the file's last): its CRC is known, and its substripe's parity is final after
   * the stripe's last piece. Past a short piece that set its accumulators the file has no
   * bytes, so its substripe's value ends where that piece does ({@link StripeLayout#parityLength}):
   * what the accumulators hold beyond it is never uploaded.
   */
  private void endPiece(long start) throws IOException {
    long[] at = placeOf(start);
    long s = at[0];
    int i = (int) at[1];
    int j = (int) at[2];
    dataCrcs[j][i] = (int) pieceCrc.getValue();
    pieceCrc.reset();
    pieceFill = 0;
    if (i == k - 1) {
      upload(s, j, sub); // the stripe's last piece for this substripe: its parity is final
    }
  }

  private void upload(long s, int j, int len) throws IOException {
    if (store == null) {
      store = parts.store();
    }
    if (store.inFlightBytes() + (long) len * m > store.uploadWindowBytes()) {
      throw new IOException("Redis uploads fell behind (" + store.inFlightBytes() + " bytes in flight)");
    }
    for (int p = 0; p < m; p++) {
      byte[] value = parity[j][p];
      if (len != sub) {
        // A short last substripe's value is shorter than its accumulator.
        value = java.util.Arrays.copyOf(parity[j][p], ParityValue.valueBytes(k, len, seal));
        buffers.release(parity[j][p]);
      }
      parity[j][p] = null;
      try {
        CompletableFuture<Void> f = store.putInPlaceAsync(
            store.key(d.getKeyPrefix(), seal, d.getFileId(), d.getGeneration(), (int) s, j, p), dataCrcs[j], value);
        byte[] uploaded = value;
        long slot = (s * substripesPerBlock + j) * m + p;
        // finish() waits for this stage, not for the SET alone: a waiter on the SET's future can
        // wake before this runs, and a commit without the last value's digest made the Manager
        // see that value as damaged (the last substripe of a reader-filled file went missing).
        uploads.add(f.whenComplete((ok, failed) -> {
          if (failed == null) {
            digests.put(slot, ParityValue.digest(uploaded)); // sealed before the SET
          }
          buffers.release(uploaded); // the SET is done with it either way
        }));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
      parityBytes += len;
    }
    parity[j] = null;
  }

  /**
   * The file ended at {@link #position()}: folds a partial last piece, uploads the
   * last stripe's substripes not yet uploaded, and waits for every upload.
   */
  public void finish(long waitSeconds) throws IOException, InterruptedException, ExecutionException, TimeoutException {
    if (pieceFill > 0) {
      foldStaged();
      endPiece(position - pieceFill);
    }
    if (position > 0) { // an empty file has no stripes with data; its descriptor says so
      long s = (position - 1) / (block * k);
      if (s == stripe && parity != null) {
        StripeLayout layout = striped ? new StripedLayout(position, block, sub, sub, k)
            : new ContiguousLayout(position, block, sub, k);
        for (int j = 0; j < substripesPerBlock; j++) {
          if (parity[j] != null) {
            upload(s, j, layout.parityLength(s, j));
          }
        }
      }
    }
    for (CompletableFuture<Void> f : uploads) {
      f.get(waitSeconds, TimeUnit.SECONDS);
    }
  }

  /** Drops the accumulators (caching abandoned); uploads under way return theirs when they end. */
  /**
   * Deletes what this encoder uploaded for a file of {@code length} bytes, when no Manager
   * will: its reservation was forgotten (a failover to the other NameNode's Manager, or a
   * Manager restart). Only after every upload has ended; best effort.
   */
  public void deleteUploaded(long length) {
    ParityStore s = store;
    if (s == null) {
      return; // nothing was uploaded
    }
    long stripeBytes = d.getBlockSize() * d.getK();
    int stripes = (int) Math.max(1, (length + stripeBytes - 1) / stripeBytes);
    try {
      for (int st = 0; st < stripes; st++) {
        for (int j = 0; j < d.getSubstripesPerStripe(); j++) {
          for (int p = 0; p < d.getM(); p++) {
            s.delete(s.key(d.getKeyPrefix(), ParitySeal.NONE, d.getFileId(), d.getGeneration(), st, j, p));
          }
        }
      }
    } catch (org.pocache.cache.ParityStoreException | RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(ParityEncoder.class).debug("parity of {} not deleted: {}", d.getPath(),
          e.toString());
    }
  }

  public void discard() {
    if (parity != null) {
      for (byte[][] substripe : parity) {
        if (substripe != null) {
          for (byte[] p : substripe) {
            buffers.release(p);
          }
        }
      }
    }
    parity = null;
  }
}
