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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.PositionedReadable;
import org.pocache.cache.CorruptParityException;
import org.pocache.cache.Crc32c;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParityStoreException;
import org.pocache.cache.ParityValue;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.manager.protocol.ParityDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds of one data subblock from the other k - 1 data pieces of its substripe and
 * the cached parity, for the readers that race a late or listed DataNode: the degraded
 * subblock read and the sequential reader. The other pieces' reads and the parity GET
 * go to the read pool together; whichever of them ends last decodes, on its own thread,
 * and the rebuilt piece must match the CRC32C stored with the parity, so a rebuild never
 * returns bytes HDFS would not have returned.
 */
final class PieceRebuilds {
  private static final Logger LOG = LoggerFactory.getLogger(PieceRebuilds.class);

  /**
   * File bytes a reader holds in memory, for its rebuilds' reads of the other pieces: a
   * sequential reader that rebuilds a block would otherwise read the stripe's other
   * blocks twice, once for the rebuilds and once for itself. Called on the pool's threads.
   */
  interface Held {
    /** Copies file bytes {@code [at, at + n)} into {@code b} and returns true if all of them are held. */
    boolean copy(long at, byte[] b, int n);

    /**
     * A rebuild read file bytes {@code [at, at + n)} into {@code b} from their DataNode and
     * is done with them: returns true if they are kept, {@code b} with them (a pooled array
     * of at least a subblock; the rebuild must not release it).
     */
    boolean keep(long at, byte[] b, int n);

    /**
     * File bytes {@code [at, at + n)}, held for rebuilds alone (the caller has read them
     * already), handed over: their pooled array of at least a subblock, now the rebuild's
     * (it releases it), so they need no copy; null if they are not held so.
     */
    default byte[] take(long at, int n) {
      return null;
    }
  }

  /** What the file's readers share: its data, parity, layout, pools and what is known of slow DataNodes. */
  private final ReadContext ctx;
  private final ParityDescriptor d;
  private final StripeLayout layout;

  PieceRebuilds(ReadContext ctx) {
    this.ctx = ctx;
    this.d = ctx.descriptor;
    this.layout = ctx.layout;
  }

  /**
   * Rebuilds data subblock (s, j, i) without reading piece i at all. The future holds an
   * array from the buffer pool with the piece's stored bytes at [0, n) (the caller
   * releases it), or null when the rebuild cannot answer (parity missing or damaged,
   * another piece failed, the pool closed); it never completes exceptionally. What went
   * wrong with the parity is marked on {@code outcome}. {@code readsLeft}, if not null,
   * counts the other pieces' reads not yet ended. {@code held}, if not null, serves the
   * other pieces it holds from memory and is offered the ones read from DataNodes.
   */
  CompletableFuture<byte[]> rebuild(long s, int j, int i, ProactiveReader.Outcome outcome, AtomicInteger readsLeft,
      Held held) {
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    int k = d.getK();
    int m = d.getM();
    int n = layout.storedLength(s, j, i);
    int len = layout.parityLength(s, j);
    int pieceBytes = Math.max(len, layout.subblockSize());
    byte[][] pieces = new byte[k + m][];
    ParityValue[][] parity = new ParityValue[1][];
    AtomicInteger inputs = new AtomicInteger(1);
    AtomicBoolean failed = new AtomicBoolean();
    // Where each piece read from its DataNode starts, for the held pieces to keep once decoded (-1: none).
    long[] readAt = new long[k];
    Arrays.fill(readAt, -1);
    List<Runnable> reads = new ArrayList<>();
    for (int x = 0; x < k; x++) {
      if (x == i) {
        continue;
      }
      int nx = layout.storedLength(s, j, x);
      long ax = nx > 0 ? layout.fileOffset(s, j, x, 0) : 0;
      byte[] own = nx > 0 && held != null ? held.take(ax, nx) : null;
      if (own != null && own.length >= pieceBytes) {
        Arrays.fill(own, nx, len, (byte) 0); // virtual zeros past the stored bytes
        pieces[x] = own;
        synchronized (outcome) {
          outcome.heldInputBytes += nx;
          outcome.handedInputBytes += nx;
        }
        continue; // read by the caller already, kept for this rebuild
      }
      if (own != null) {
        ctx.buffers.release(own);
      }
      byte[] b = ctx.buffers.borrow(pieceBytes);
      Arrays.fill(b, nx, len, (byte) 0); // virtual zeros past the stored bytes
      pieces[x] = b;
      if (nx > 0) {
        if (held != null && held.copy(ax, b, nx)) {
          synchronized (outcome) {
            outcome.heldInputBytes += nx;
          }
          continue; // read already, by the reader's own stream or its fetches ahead
        }
        int tag = x;
        inputs.incrementAndGet();
        if (readsLeft != null) {
          readsLeft.incrementAndGet();
        }
        reads.add(() -> {
          try {
            long started = System.nanoTime();
            readCounted(ctx.sources, ctx.rebuildData, ax, b, nx, ctx.locations.of(s, tag));
            ctx.sources.observed(ctx.locations.of(s, tag), nx, System.nanoTime() - started);
            synchronized (outcome) {
              outcome.rebuildInputBytes += nx;
            }
            readAt[tag] = ax; // published to the decode by the count of inputs left
          } catch (IOException | RuntimeException | LinkageError e) {
            failed.set(true);
            LOG.debug("rebuild of piece {} of substripe ({}, {}): reading piece {} failed", i, s, j, tag, e);
          } finally {
            if (readsLeft != null) {
              readsLeft.decrementAndGet();
            }
          }
        });
      }
    }
    reads.add(() -> {
      try {
        List<ParityKey> keys = new ArrayList<>(m);
        for (int p = 0; p < m; p++) {
          keys.add(ctx.parity.store().key(d.getKeyPrefix(), ctx.seal, d.getFileId(), d.getGeneration(), (int) s, j, p));
        }
        parity[0] = ctx.parity.store().getAll(keys);
      } catch (ParityStoreException | RuntimeException | LinkageError e) {
        failed.set(true);
        if (e.getCause() instanceof CorruptParityException) {
          synchronized (outcome) {
            outcome.parityCorrupt = true; // told to the Manager, which drops the values
          }
        } else {
          outcome.cacheErrorSeen();
        }
        LOG.debug("rebuild of piece {} of substripe ({}, {}): its parity could not be read", i, s, j, e);
      }
    });
    Runnable last = () -> {
      byte[] out = null;
      try {
        if (!failed.get()) {
          out = decode(pieces, parity[0], i, n, len, pieceBytes);
          if (out != null) {
            ctx.times.rebuiltOne();
          } else {
            LOG.debug("rebuild of piece {} of substripe ({}, {}): parity missing or failing its checks", i, s, j);
            synchronized (outcome) {
              if (parity[0] == null || parity[0][0] == null) {
                outcome.parityMissing = true;
              } else {
                outcome.parityCorrupt = true;
              }
            }
          }
        }
      } catch (RuntimeException | LinkageError e) {
        out = null;
      } finally {
        for (int x = 0; x < k + m; x++) {
          if (x < k && readAt[x] >= 0 && held != null && keepRead(held, readAt[x], pieces[x],
              layout.storedLength(s, j, x))) {
            continue; // kept for the caller, array and all
          }
          ctx.buffers.release(pieces[x]);
        }
        result.complete(out);
      }
    };
    for (Runnable r : reads) {
      try {
        ctx.pool.execute(() -> {
          try {
            r.run();
          } finally {
            if (inputs.decrementAndGet() == 0) {
              last.run();
            }
          }
        });
      } catch (RejectedExecutionException closed) {
        failed.set(true);
        if (inputs.decrementAndGet() == 0) {
          last.run();
        }
      }
    }
    return result;
  }

  /** Whether {@code held} kept a piece a rebuild read (and took its array); a failure to keep is only no saving. */
  private static boolean keepRead(Held held, long at, byte[] b, int n) {
    try {
      return held.keep(at, b, n);
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  /** Piece i decoded into a pooled array, or null if parity is unusable or it fails its CRC. */
  private byte[] decode(byte[][] pieces, ParityValue[] parity, int i, int n, int len, int pieceBytes) {
    int k = d.getK();
    int m = d.getM();
    for (int p = 0; p < m; p++) {
      if (parity == null || parity[p] == null || parity[p].payloadLength() != len) {
        return null;
      }
      byte[] b = ctx.buffers.borrow(pieceBytes);
      parity[p].copyPayloadTo(b, 0);
      pieces[k + p] = b;
    }
    byte[][] out = {ctx.buffers.borrow(pieceBytes)};
    try {
      ctx.parity.coder().decode(pieces, 0, new int[] {i}, out, 0, len);
    } catch (RuntimeException | LinkageError e) {
      ctx.buffers.release(out[0]);
      return null;
    }
    if (Crc32c.of(out[0], 0, n) != parity[0].dataCrc(i)) {
      ctx.buffers.release(out[0]);
      return null; // never return bytes HDFS would not have returned
    }
    return out[0];
  }

  /** Reads {@code n} bytes at {@code at} into {@code b}, counted in flight on {@code where} while it runs. */
  static void readCounted(SlowSources sources, PositionedReadable from, long at, byte[] b, int n, List<String> where)
      throws IOException {
    Runnable inFlight = sources.reading(where, n);
    try {
      from.readFully(at, b, 0, n);
    } finally {
      if (inFlight != null) {
        inFlight.run();
      }
    }
  }
}
