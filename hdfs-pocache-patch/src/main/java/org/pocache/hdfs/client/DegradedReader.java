package org.pocache.hdfs.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.fs.PositionedReadable;
import org.pocache.cache.Crc32c;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParityValue;
import org.pocache.cache.RedisParityStore;
import org.pocache.coder.ErasureCoder;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;

/**
 * Degraded reads (POCache paper section 3.1) for reads that do not cover whole
 * substripes, such as a MapReduce record reader going through one block: one data
 * subblock at a time is read directly, and rebuilt from the other k - 1 data pieces
 * plus parity instead when its DataNode is on the Manager's straggler list, or when
 * the direct read misses a deadline of {@code deadlineFactor} times the recent
 * subblock read time (never less than {@code minDeadlineMillis}); then whichever
 * finishes first wins. A rebuilt piece must match the CRC32C stored with the
 * parity, or the direct read is awaited.
 */
final class DegradedReader {
  private final PositionedReadable data;
  private final DescriptorProto d;
  private final StripeLayout layout;
  private final RedisParityStore store;
  private final ErasureCoder coder;
  private final ExecutorService pool;
  private final Supplier<Set<String>> stragglers;
  private final PieceLocations locations;
  private final double deadlineFactor;
  private final long minDeadlineMillis;
  /** Exponentially weighted mean of direct subblock read times, nanoseconds (0: none yet). */
  private volatile double meanNanos;

  /** The DataNodes holding data piece i of stripe s. */
  interface PieceLocations {
    List<String> of(long stripe, int dataIndex);
  }

  DegradedReader(PositionedReadable data, DescriptorProto d, StripeLayout layout, RedisParityStore store,
      ErasureCoder coder, ExecutorService pool, Supplier<Set<String>> stragglers, PieceLocations locations,
      double deadlineFactor, long minDeadlineMillis) {
    this.data = data;
    this.d = d;
    this.layout = layout;
    this.store = store;
    this.coder = coder;
    this.pool = pool;
    this.stragglers = stragglers;
    this.locations = locations;
    this.deadlineFactor = deadlineFactor;
    this.minDeadlineMillis = minDeadlineMillis;
  }

  /**
   * Reads the stored bytes of data subblock (s, j, i) into {@code dst} (at least S
   * bytes) and returns how many. The calling thread coordinates; pool threads only
   * read, so nothing waits on the pool from inside it.
   */
  int readSubblock(long s, int j, int i, byte[] dst, ProactiveReader.Outcome outcome) throws IOException {
    int n = layout.storedLength(s, j, i);
    if (n == 0) {
      return 0;
    }
    int k = d.getK();
    int m = d.getM();
    int len = layout.parityLength(s, j);
    long at = layout.fileOffset(s, j, i, 0);
    CompletionService<Integer> race = new ExecutorCompletionService<>(pool);
    byte[] direct = new byte[n];
    int pending = 0;
    boolean directStarted = false;
    long t0 = System.nanoTime();
    try {
      if (!onStraggler(s, i)) {
        submitDirect(race, at, direct);
        directStarted = true;
        pending++;
        Future<Integer> first = race.poll(deadlineNanos(), TimeUnit.NANOSECONDS);
        if (first != null) {
          pending--;
          take(first); // throws the direct read's error: nothing else is running
          learn(System.nanoTime() - t0);
          System.arraycopy(direct, 0, dst, 0, n);
          return n;
        }
      }
      // A known straggler, or late: rebuild from the other k - 1 pieces and the parity.
      byte[][] pieces = new byte[k + m][];
      ParityValue[][] parity = new ParityValue[1][];
      for (int x = 0; x < k; x++) {
        if (x != i) {
          byte[] b = new byte[len];
          pieces[x] = b;
          int nx = layout.storedLength(s, j, x);
          if (nx > 0) {
            long ax = layout.fileOffset(s, j, x, 0);
            int tag = x;
            race.submit(() -> {
              data.readFully(ax, b, 0, nx);
              return tag;
            });
            pending++;
          }
        }
      }
      race.submit(() -> {
        List<ParityKey> keys = new ArrayList<>(m);
        for (int p = 0; p < m; p++) {
          keys.add(store.key(d.getFileId(), d.getGeneration(), (int) s, j, p));
        }
        parity[0] = store.getAll(keys);
        return PARITY;
      });
      pending++;
      int rebuildInputs = pending - (directStarted ? 1 : 0);
      boolean rebuildDead = false;
      IOException directError = null;
      while (pending > 0) {
        Future<Integer> f = race.take();
        pending--;
        int tag;
        try {
          tag = f.get();
        } catch (ExecutionException e) {
          // DirectReadException marks the direct read; anything else is a rebuild input.
          IOException err = asIo(e);
          if (err instanceof DirectReadException) {
            directError = err; // the rebuild, if alive, may still answer (a dead DataNode)
          } else if (!rebuildDead) {
            rebuildDead = true;
            outcome.cacheError = true;
            if (!directStarted) {
              submitDirect(race, at, direct);
              directStarted = true;
              pending++;
            }
          }
          if (pending == 0 || (rebuildDead && directError != null)) {
            break;
          }
          continue;
        }
        if (tag == DIRECT) {
          learn(System.nanoTime() - t0);
          System.arraycopy(direct, 0, dst, 0, n);
          return n;
        }
        if (!rebuildDead && --rebuildInputs == 0) {
          byte[] rebuilt = decode(s, j, i, len, pieces, parity[0]);
          if (rebuilt != null) {
            outcome.decoded++;
            System.arraycopy(rebuilt, 0, dst, 0, n);
            return n;
          }
          outcome.parityCorrupt = true; // never return bytes HDFS would not have returned
          rebuildDead = true;
          if (!directStarted) {
            submitDirect(race, at, direct);
            directStarted = true;
            pending++;
          }
        }
      }
      if (directError != null) {
        throw directError.getCause() instanceof IOException ? (IOException) directError.getCause() : directError;
      }
      throw new IOException("no source left for " + n + " bytes of " + d.getPath() + " at " + at);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during a degraded read");
    }
  }

  private static final int DIRECT = -2;
  private static final int PARITY = -1;

  /** Marks a failure of the direct read, so it is told apart from a failed rebuild input. */
  private static final class DirectReadException extends IOException {
    private static final long serialVersionUID = 1L;

    DirectReadException(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  private void submitDirect(CompletionService<Integer> race, long at, byte[] into) {
    race.submit(() -> {
      try {
        data.readFully(at, into, 0, into.length);
      } catch (IOException e) {
        throw new DirectReadException(e);
      }
      return DIRECT;
    });
  }

  private static void take(Future<Integer> f) throws IOException, InterruptedException {
    try {
      f.get();
    } catch (ExecutionException e) {
      IOException err = asIo(e);
      throw err instanceof DirectReadException && err.getCause() instanceof IOException
          ? (IOException) err.getCause() : err;
    }
  }

  private static IOException asIo(ExecutionException e) {
    Throwable c = e.getCause();
    return c instanceof IOException ? (IOException) c : new IOException(c);
  }

  private boolean onStraggler(long s, int i) {
    Set<String> slow = stragglers.get();
    if (slow.isEmpty()) {
      return false;
    }
    List<String> where = locations.of(s, i);
    if (where.isEmpty()) {
      return false;
    }
    for (String dn : where) {
      if (!slow.contains(dn)) {
        return false; // HDFS may pick a healthy replica
      }
    }
    return true;
  }

  private long deadlineNanos() {
    double mean = meanNanos;
    long floor = TimeUnit.MILLISECONDS.toNanos(minDeadlineMillis);
    return mean == 0 ? Math.max(floor, TimeUnit.SECONDS.toNanos(1)) : Math.max(floor, (long) (mean * deadlineFactor));
  }

  private void learn(long nanos) {
    double m = meanNanos;
    meanNanos = m == 0 ? nanos : 0.8 * m + 0.2 * nanos;
  }

  /** Data piece i of substripe (s, j) from the other pieces and the parity; null if it fails its CRC. */
  private byte[] decode(long s, int j, int i, int len, byte[][] pieces, ParityValue[] parity) {
    int k = d.getK();
    int m = d.getM();
    for (int p = 0; p < m; p++) {
      if (parity == null || parity[p] == null || parity[p].payloadLength() != len) {
        return null;
      }
      byte[] b = new byte[len];
      parity[p].payload().duplicate().get(b);
      pieces[k + p] = b;
    }
    byte[][] out = {new byte[len]};
    try {
      coder.decode(pieces, 0, new int[] {i}, out, 0, len);
    } catch (RuntimeException e) {
      return null; // treated like a CRC mismatch: the direct read answers
    }
    int n = layout.storedLength(s, j, i);
    return Crc32c.of(out[0], 0, n) == parity[0].dataCrc(i) ? out[0] : null;
  }
}
