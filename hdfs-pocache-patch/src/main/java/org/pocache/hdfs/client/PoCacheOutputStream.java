package org.pocache.hdfs.client;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.pocache.cache.Crc32c;
import org.pocache.cache.RedisParityStore;
import org.pocache.coder.ErasureCoder;
import org.pocache.coder.layout.ContiguousLayout;
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;
import org.pocache.manager.protocol.ManagerClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path for a file the Manager admitted (POCache paper section 3.1,
 * Table 1): every byte goes to HDFS first, and is also sliced into data subblocks
 * that are folded into their substripe's parity as soon as each is complete
 * (incremental encoding, {@code ec_encode_data_update} with ISA-L). A substripe's
 * parity is final when the stripe's last data piece for it arrives; it is then
 * uploaded asynchronously. {@link #close()} closes the HDFS file first, then
 * uploads what the last (possibly short) stripe has, waits for the uploads and
 * commits the reservation.
 *
 * <p>A replicated file's substripe collects its pieces from the k blocks of a
 * stripe, so its parity accumulates while the whole stripe is written: memory per
 * writer is m x block size (allocated per substripe as data arrives, released on
 * upload) plus one subblock. An erasure-coded file is written a row of cells at a
 * time and its subblock is one cell (see the Manager), so each row's parity is
 * final when the row is: m cells plus one. Any cache-side problem (Redis failing or too slow to keep the upload
 * bound without waiting, the Manager refusing the commit) abandons caching for
 * this file and releases the reservation; the HDFS write never fails or waits
 * because of it. hflush/hsync pass through: parity stays private until close.
 */
final class PoCacheOutputStream extends OutputStream implements Syncable, StreamCapabilities {
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheOutputStream.class);
  private static final long UPLOAD_WAIT_SECONDS = 60;

  private final OutputStream out;
  private final Syncable sync;
  private final DescriptorProto d;
  private final long reservationId;
  private final RedisParityStore store;
  private final ErasureCoder coder;
  private final ManagerClient manager;
  private final AtomicLong abandoned;
  private final int k;
  private final int m;
  private final int sub;
  private final long block;
  private final int substripesPerBlock;
  /** An erasure-coded file: data subblock (s, j, i) is cell i of row j of block group s. */
  private final boolean striped;

  private long written;
  private final byte[] piece;
  private int pieceFill;
  /** Parity accumulators of the current stripe: [substripe][parity index]. */
  private byte[][][] parity;
  private int[][] dataCrcs;
  private long stripe = -1;
  private final List<CompletableFuture<Void>> uploads = new ArrayList<>();
  private long parityBytes;
  private boolean caching = true;
  private boolean closed;

  PoCacheOutputStream(OutputStream out, long reservationId, DescriptorProto d, RedisParityStore store,
      ErasureCoder coder, ManagerClient manager, AtomicLong abandoned) {
    this.out = out;
    this.sync = out instanceof Syncable ? (Syncable) out : null;
    this.d = d;
    this.reservationId = reservationId;
    this.store = store;
    this.coder = coder;
    this.manager = manager;
    this.abandoned = abandoned;
    this.k = d.getK();
    this.m = d.getM();
    this.sub = d.getSubblockBytes();
    this.block = d.getBlockSize();
    this.substripesPerBlock = (int) (block / sub);
    this.striped = d.getLayout() == org.pocache.manager.proto.PoCacheManagerProtos.LayoutProto.STRIPED;
    if (striped && d.getCellSize() != sub) {
      throw new IllegalArgumentException("an erasure-coded file's subblock must be its cell: cell " + d.getCellSize()
          + ", subblock " + sub);
    }
    this.piece = new byte[sub];
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len); // HDFS first: its errors are the caller's, the cache's are not
    if (!caching) {
      written += len;
      return;
    }
    try {
      while (len > 0) {
        int n = Math.min(len, sub - pieceFill);
        System.arraycopy(b, off, piece, pieceFill, n);
        pieceFill += n;
        written += n;
        off += n;
        len -= n;
        if (pieceFill == sub) { // S divides the block size (a cell the block group): pieces never straddle
          foldPiece(written - pieceFill);
        }
      }
    } catch (RuntimeException | IOException e) {
      abandon("encoding failed: " + e);
    }
  }

  /** Folds the data subblock starting at file offset {@code start} (pieceFill bytes) into its parity. */
  private void foldPiece(long start) throws IOException {
    long s = start / (block * k);
    long w = start % (block * k);
    int i = striped ? (int) (w % ((long) k * sub) / sub) : (int) (w / block);
    int j = striped ? (int) (w / ((long) k * sub)) : (int) (w % block / sub);
    if (s != stripe) {
      stripe = s;
      parity = new byte[substripesPerBlock][][];
      dataCrcs = new int[substripesPerBlock][];
    }
    if (parity[j] == null) {
      parity[j] = new byte[m][sub];
      dataCrcs[j] = new int[k];
      for (int x = 0; x < k; x++) {
        dataCrcs[j][x] = Crc32c.of(piece, 0, 0); // pieces never written are virtual zeros: no bytes
      }
    }
    java.util.Arrays.fill(piece, pieceFill, sub, (byte) 0);
    coder.update(i, piece, 0, parity[j], 0, sub);
    dataCrcs[j][i] = Crc32c.of(piece, 0, pieceFill);
    pieceFill = 0;
    if (i == k - 1) {
      upload(s, j, sub); // the stripe's last piece for this substripe: its parity is final
    }
  }

  private void upload(long s, int j, int len) throws IOException {
    if (store.inFlightBytes() + (long) len * m > store.settings().asyncMaxBytes) {
      throw new IOException("Redis uploads fell behind the writer (" + store.inFlightBytes() + " bytes in flight)");
    }
    for (int p = 0; p < m; p++) {
      try {
        uploads.add(store.putAsync(store.key(d.getFileId(), d.getGeneration(), (int) s, j, p), dataCrcs[j],
            ByteBuffer.wrap(parity[j][p], 0, len)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
      parityBytes += len;
    }
    parity[j] = null;
  }

  /** Stops caching this file; the Manager deletes whatever was uploaded. */
  private void abandon(String why) {
    if (!caching) {
      return;
    }
    caching = false;
    parity = null;
    abandoned.incrementAndGet();
    LOG.info("POCache stops caching the parity of {}: {}", d.getPath(), why);
    try {
      manager.abort(reservationId, why);
    } catch (IOException | RuntimeException e) {
      LOG.debug("abort of reservation {} not delivered (it will expire): {}", reservationId, e.toString());
    }
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void hflush() throws IOException {
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
    if (sync != null) {
      sync.hsync();
    } else {
      out.flush();
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    out.close(); // the file is complete in HDFS before anything else
    if (!caching) {
      return;
    }
    try {
      finishLastStripe();
      for (CompletableFuture<Void> f : uploads) {
        f.get(UPLOAD_WAIT_SECONDS, TimeUnit.SECONDS);
      }
      manager.commit(reservationId, d.getFileId(), written, parityBytes);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      abandon("finishing the parity failed: " + e);
    }
  }

  /** Folds a partial last piece and uploads the parity of the last stripe's substripes not yet uploaded. */
  private void finishLastStripe() throws IOException {
    if (pieceFill > 0) {
      foldPiece(written - pieceFill);
    }
    if (written == 0) {
      return; // an empty file has no stripes with data; its descriptor says so
    }
    long s = (written - 1) / (block * k);
    if (s != stripe || parity == null) {
      return;
    }
    org.pocache.coder.layout.StripeLayout layout = striped
        ? new org.pocache.coder.layout.StripedLayout(written, block, sub, sub, k)
        : new ContiguousLayout(written, block, sub, k);
    for (int j = 0; j < substripesPerBlock; j++) {
      if (parity[j] != null) {
        upload(s, j, layout.parityLength(s, j));
      }
    }
  }
}
