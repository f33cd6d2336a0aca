package org.pocache.hdfs.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.PositionedReadable;
import org.pocache.cache.Crc32c;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParityStoreException;
import org.pocache.cache.ParityValue;
import org.pocache.cache.RedisParityStore;
import org.pocache.coder.ErasureCoder;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;

/**
 * Proactive reads (POCache paper section 3.1): for each substripe a positional read
 * covers completely, the k data pieces are read from HDFS and the m parity pieces
 * fetched from Redis at once, and the substripe is complete as soon as any k of
 * the k + m have arrived; a data piece still missing then is decoded, and checked
 * against the CRC32C the parity value carries for it, before it is copied out.
 * Up to {@code inflight} substripes are fetched at a time, in file order.
 *
 * <p>Late data reads are abandoned, not interrupted: they finish on the shared
 * pool into their own buffers, which are then dropped, so the caller's buffer is
 * never written after the read returns. A parity problem (missing, corrupt, Redis
 * down) only means waiting for the data pieces, as vanilla HDFS would; a data piece
 * that fails (a dead DataNode) is decoded from parity when parity is there.
 */
final class ProactiveReader {
  /** What happened to the parity while reading, for the read report. */
  static final class Outcome {
    int substripes;
    int decoded;
    boolean parityMissing;
    boolean parityCorrupt;
    boolean cacheError;

    synchronized void add(Outcome o) {
      substripes += o.substripes;
      decoded += o.decoded;
      parityMissing |= o.parityMissing;
      parityCorrupt |= o.parityCorrupt;
      cacheError |= o.cacheError;
    }

    synchronized void cacheErrorSeen() {
      cacheError = true;
    }

    synchronized Outcome snapshot() {
      Outcome c = new Outcome();
      c.add(this);
      return c;
    }
  }

  private final PositionedReadable data;
  private final DescriptorProto d;
  private final StripeLayout layout;
  private final RedisParityStore store;
  private final ErasureCoder coder;
  private final ExecutorService pool;
  private final BufferPool buffers;
  private final SlowSources sources;
  private final PieceLocations locations;
  private final int inflight;
  private final long minDeadlineNanos;
  /** Length of every pooled piece array: a substripe's pieces never exceed a subblock. */
  private final int pieceBytes;

  ProactiveReader(PositionedReadable data, DescriptorProto d, StripeLayout layout, RedisParityStore store,
      ErasureCoder coder, ExecutorService pool, BufferPool buffers, SlowSources sources, PieceLocations locations,
      int inflight, long minDeadlineMillis) {
    this.data = data;
    this.d = d;
    this.layout = layout;
    this.store = store;
    this.coder = coder;
    this.pool = pool;
    this.buffers = buffers;
    this.sources = sources;
    this.locations = locations;
    this.inflight = inflight;
    this.minDeadlineNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(minDeadlineMillis);
    this.pieceBytes = layout.subblockSize();
  }

  StripeLayout layout() {
    return layout;
  }

  /** Whether substripe (s, j) lies entirely within [pos, end) and its stripe is cached. */
  boolean covers(long s, int j, long pos, long end) {
    if (!cached(s)) {
      return false;
    }
    for (int i = 0; i < d.getK(); i++) {
      int n = layout.storedLength(s, j, i);
      if (n > 0) {
        long at = layout.fileOffset(s, j, i, 0);
        if (at < pos || at + n > end) {
          return false;
        }
      }
    }
    return true;
  }

  boolean isCached(long s) {
    return cached(s);
  }

  private boolean cached(long s) {
    int b = (int) (s >>> 3);
    return b < d.getCachedStripes().size() && (d.getCachedStripes().byteAt(b) >>> (s & 7) & 1) != 0;
  }

  /** The substripes (as {stripe, substripe}) that [pos, pos + len) covers entirely, in file order of piece 0. */
  List<long[]> covered(long pos, int len) {
    List<long[]> out = new ArrayList<>();
    long end = pos + len;
    if (len <= 0) {
      return out;
    }
    long first = layout.locate(pos).stripe;
    long last = layout.locate(end - 1).stripe;
    for (long s = first; s <= last; s++) {
      for (int j = 0; j < layout.substripes(s); j++) {
        if (covers(s, j, pos, end)) {
          out.add(new long[] {s, j});
        }
      }
    }
    return out;
  }

  /** Reads the given substripes into buf (buf[off] is file offset pos), {@code inflight} at a time. */
  void read(List<long[]> substripes, long pos, byte[] buf, int off, Outcome outcome) throws IOException {
    // Fetches left in the window when this throws just finish on the pool into their own buffers.
    Deque<Fetch> window = new ArrayDeque<>();
    int next = 0;
    try {
      while (next < substripes.size() || !window.isEmpty()) {
        while (next < substripes.size() && window.size() < inflight) {
          long[] ss = substripes.get(next++);
          window.add(new Fetch(ss[0], (int) ss[1]));
        }
        Fetch f = window.poll();
        try {
          f.complete(pos, buf, off, outcome);
        } finally {
          f.leases.close();
        }
      }
    } finally {
      for (Fetch f : window) {
        f.leases.close(); // never completed: their arrays go back as their reads end
      }
    }
  }

  /** One substripe in flight: k data reads (fewer if a slow source is left to parity) and one parity GET. */
  private final class Fetch {
    final long s;
    final int j;
    final int len;
    final Leases leases = new Leases(buffers);
    /** The data pieces as they will be used: the arrays the reads fill, or decoded replacements. */
    final byte[][] pieces;
    final boolean[] have;
    /** Pieces whose read was not started because their source is slow; read only if parity fails. */
    final boolean[] skipped;
    /** Pieces replaced by decoded bytes before their read arrived. */
    final boolean[] decoded;
    final CompletionService<Integer> done = new ExecutorCompletionService<>(pool);
    final long born = System.nanoTime();
    /** When each data read finished (System.nanoTime), written by the read before its future completes. */
    final long[] arrivedAt;
    /** When the last data piece taken so far arrived, if any has. */
    long lastArrival;
    boolean anyArrived;
    /** Data read futures by piece index (null: virtual zeros, or not started). */
    final Future<?>[] reads;
    final Future<Integer> parityGet;
    int outstanding;
    volatile ParityValue[] parity;

    Fetch(long s, int j) {
      this.s = s;
      this.j = j;
      this.len = layout.parityLength(s, j);
      int k = d.getK();
      int m = d.getM();
      pieces = new byte[k][];
      have = new boolean[k];
      skipped = new boolean[k];
      decoded = new boolean[k];
      reads = new Future<?>[k];
      arrivedAt = new long[k];
      parityGet = done.submit(() -> {
        List<ParityKey> keys = new ArrayList<>(m);
        for (int p = 0; p < m; p++) {
          keys.add(store.key(d.getFileId(), d.getGeneration(), (int) s, j, p));
        }
        parity = store.getAll(keys);
        return -1;
      });
      outstanding++;
      int skips = 0;
      for (int i = 0; i < k; i++) {
        int n = layout.storedLength(s, j, i);
        if (n > 0) {
          byte[] b = leases.forTask(Math.max(len, pieceBytes));
          java.util.Arrays.fill(b, n, len, (byte) 0); // the virtual zeros of a short piece
          pieces[i] = b;
          if (skips < m && sources.judging() && sources.skip(locations.of(s, i))) {
            skipped[i] = true;
            skips++;
            leases.written(b); // no read writes into it unless started later
          } else {
            startRead(i);
          }
        } else {
          byte[] b = leases.scratch(Math.max(len, pieceBytes));
          java.util.Arrays.fill(b, 0, len, (byte) 0);
          pieces[i] = b;
          have[i] = true;
        }
      }
    }

    private void startRead(int i) {
      int n = layout.storedLength(s, j, i);
      long at = layout.fileOffset(s, j, i, 0);
      byte[] b = pieces[i];
      if (skipped[i]) {
        leases.lend(b); // a skipped piece's array goes back to a read after all
        skipped[i] = false;
      }
      reads[i] = done.submit(() -> {
        try {
          data.readFully(at, b, 0, n);
          arrivedAt[i] = System.nanoTime();
        } finally {
          leases.written(b);
        }
        return i;
      });
      outstanding++;
    }

    /**
     * The next finished read or GET; null if a skipped piece should be read now: some
     * data piece has arrived, and the pieces still out have taken longer since the last
     * arrival than the arrivals took since the start (at least the minimum deadline).
     */
    private Future<Integer> next() throws InterruptedException {
      boolean anySkipped = false;
      for (boolean x : skipped) {
        anySkipped |= x;
      }
      if (!anySkipped || !anyArrived) {
        return done.take();
      }
      long wait = Math.max(minDeadlineNanos, lastArrival - born);
      long left = lastArrival + wait - System.nanoTime();
      return left <= 0 ? done.poll() : done.poll(left, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** Starts the reads left to parity; false if there were none. */
    private boolean startSkipped() {
      boolean any = false;
      for (int i = 0; i < skipped.length; i++) {
        if (skipped[i]) {
          startRead(i);
          any = true;
        }
      }
      return any;
    }

    void complete(long pos, byte[] buf, int off, Outcome outcome) throws IOException {
      int k = d.getK();
      int m = d.getM();
      boolean parityOk = false;
      IOException dataError = null;
      outcome.substripes++;
      try {
        while (true) {
          int missing = k - count(have);
          if (missing == 0 || (parityOk && missing <= m)) {
            break;
          }
          if (outstanding == 0) {
            if (startSkipped()) {
              continue;
            }
            break;
          }
          Future<Integer> f = next();
          if (f == null) {
            // A piece that was read lags behind its peers while a skipped one waits: the
            // skip may rest on stale history (the straggler moved), so read it after all.
            startSkipped();
            continue;
          }
          outstanding--;
          try {
            int i = f.get();
            if (i < 0) {
              parityOk = usable(outcome);
              if (!parityOk) {
                startSkipped(); // parity cannot stand in for them: read them after all
              }
            } else {
              have[i] = true;
              lastArrival = anyArrived ? Math.max(lastArrival, arrivedAt[i]) : arrivedAt[i];
              anyArrived = true;
            }
          } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (f == parityGet) {
              outcome.parityCorrupt |= c instanceof org.pocache.cache.CorruptParityException;
              outcome.cacheError |= !(c instanceof org.pocache.cache.CorruptParityException);
              startSkipped();
            } else {
              dataError = c instanceof IOException ? (IOException) c : new IOException(c);
              startSkipped(); // rebuilding the failed piece needs every other one
            }
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted during a proactive read");
      }
      if (count(have) < k && !(parityOk && k - count(have) <= m && decode(outcome))) {
        // Parity could not stand in: the data pieces themselves, as vanilla HDFS would.
        if (dataError != null) {
          throw dataError;
        }
        startSkipped();
        waitForData();
      }
      for (int i = 0; i < k; i++) {
        if (reads[i] != null && (decoded[i] || sources.judging())) {
          sources.served(locations.of(s, i), decoded[i]);
        }
        int n = layout.storedLength(s, j, i);
        if (n > 0) {
          long at = layout.fileOffset(s, j, i, 0);
          System.arraycopy(pieces[i], 0, buf, off + (int) (at - pos), n);
        }
      }
    }

    private int count(boolean[] b) {
      int n = 0;
      for (boolean x : b) {
        n += x ? 1 : 0;
      }
      return n;
    }

    /** Whether every parity value arrived intact (the values' own checksums were checked by the store). */
    private boolean usable(Outcome outcome) {
      for (ParityValue v : parity) {
        if (v == null) {
          outcome.parityMissing = true;
          return false;
        }
        if (v.payloadLength() != len) {
          outcome.parityCorrupt = true;
          return false;
        }
      }
      return true;
    }

    /** Rebuilds the missing data pieces; false if the result does not match the stored CRCs. */
    private boolean decode(Outcome outcome) {
      ParityValue[] p = parity;
      int k = d.getK();
      int m = d.getM();
      byte[][] in = new byte[k + m][];
      int missing = 0;
      for (int i = 0; i < k; i++) {
        in[i] = have[i] ? pieces[i] : null;
        missing += have[i] ? 0 : 1;
      }
      for (int r = 0; r < m; r++) {
        byte[] b = leases.scratch(Math.max(len, pieceBytes));
        p[r].payload().duplicate().get(b, 0, len);
        in[k + r] = b;
      }
      int[] erased = new int[missing];
      for (int i = 0, e = 0; i < k; i++) {
        if (!have[i]) {
          erased[e++] = i;
        }
      }
      byte[][] out = new byte[missing][];
      for (int e = 0; e < missing; e++) {
        out[e] = leases.scratch(Math.max(len, pieceBytes));
      }
      try {
        coder.decode(in, 0, erased, out, 0, len);
      } catch (RuntimeException e) {
        outcome.parityCorrupt = true; // parity that cannot even be decoded: wait for the data
        return false;
      }
      for (int e = 0; e < missing; e++) {
        int i = erased[e];
        if (Crc32c.of(out[e], 0, layout.storedLength(s, j, i)) != p[0].dataCrc(i)) {
          outcome.parityCorrupt = true;
          return false; // never return bytes HDFS would not have returned
        }
      }
      for (int e = 0; e < missing; e++) {
        // A late read still owns its array; the decoded bytes take its place.
        pieces[erased[e]] = out[e];
        have[erased[e]] = true;
        decoded[erased[e]] = true;
      }
      outcome.decoded += missing;
      return true;
    }

    private void waitForData() throws IOException {
      for (int i = 0; i < d.getK(); i++) {
        if (!have[i]) {
          try {
            reads[i].get();
            have[i] = true;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted during a proactive read");
          } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof IOException ? (IOException) c : new IOException(c);
          }
        }
      }
    }
  }
}
