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
import org.pocache.cache.ParitySeal;
import org.pocache.cache.ParityStoreException;
import org.pocache.cache.ParityValue;
import org.pocache.cache.ParityStore;
import org.pocache.coder.ErasureCoder;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;
import org.pocache.manager.protocol.ParitySeals;

/**
 * Proactive reads (POCache paper section 3.1): for each substripe a positional read
 * covers completely, the k data pieces are read from HDFS and the m parity pieces
 * fetched from Redis at once, and the substripe is complete as soon as any k of
 * the k + m have arrived; a data piece still missing then is decoded, and checked
 * against the CRC32C the parity value carries for it, before it is copied out.
 * Up to {@code inflight} substripes are fetched at a time, in file order.
 *
 * <p>One refinement of "the first k": when the pieces in hand could be decoded but a
 * missing piece's read is under way, the reader waits for that read at most as long
 * as the decode is expected to take (timed on this machine, {@link DecodeCost}), then
 * decodes. Without a straggler the last piece is usually a fraction of a millisecond
 * behind its peers, less than a decode of several MiB takes on a core the arriving
 * data also needs; with one, the read finishes at most that decode time later than it
 * would have. Either way it is within twice the better choice.
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

  /**
   * What decoding costs on this machine, nanoseconds per decoded byte (CRC check
   * included), as a moving average over the JVM's decodes: the wait for a piece just
   * behind its peers is bounded by it.
   */
  static final class DecodeCost {
    /** Before any decode was timed: 0.5 ms per MiB, a slow core's rate; the first decode replaces it. */
    private static final double INITIAL_NANOS_PER_BYTE = 0.5;
    /** A decode's time is never worth more than this much waiting (a GC pause inflates one). */
    static final long MAX_GRACE_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(5);
    private static volatile double nanosPerByte = INITIAL_NANOS_PER_BYTE;

    private DecodeCost() {
    }

    static long expectedNanos(long bytes) {
      return Math.min(MAX_GRACE_NANOS, (long) (nanosPerByte * bytes));
    }

    static void measured(long bytes, long nanos) {
      if (bytes > 0 && nanos > 0) {
        nanosPerByte = 0.8 * nanosPerByte + 0.2 * ((double) nanos / bytes); // racy updates only lose a sample
      }
    }
  }

  private final PositionedReadable data;
  private final DescriptorProto d;
  /** How the file's parity values are sealed (the file key from its descriptor). */
  private final ParitySeal seal;
  private final StripeLayout layout;
  private final ParityAccess access;
  private final ExecutorService pool;
  private final BufferPool buffers;
  private final SlowSources sources;
  private final PieceLocations locations;
  private final int inflight;
  private final long minDeadlineNanos;
  /** Length of every pooled piece array: a substripe's pieces never exceed a subblock. */
  private final int pieceBytes;

  ProactiveReader(PositionedReadable data, DescriptorProto d, StripeLayout layout, ParityAccess parity,
      ExecutorService pool, BufferPool buffers, SlowSources sources, PieceLocations locations,
      int inflight, long minDeadlineMillis) {
    this.data = data;
    this.d = d;
    this.seal = ParitySeals.forReading(d);
    this.layout = layout;
    this.access = parity;
    this.pool = pool;
    this.buffers = buffers;
    this.sources = sources;
    this.locations = locations;
    this.inflight = inflight;
    this.minDeadlineNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(minDeadlineMillis);
    this.pieceBytes = layout.subblockSize();
  }

  /** Parity pieces per substripe. */
  int m() {
    return d.getM();
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

  /**
   * Reads the given substripes into buf (buf[off] is file offset pos), {@code inflight}
   * at a time. Consecutive substripes whose data pieces continue each other in the
   * file (a replicated file's subblocks of one block) are fetched together: one read
   * per data piece and one pipelined GET for all their parity, so a whole-file read
   * makes the same requests to the DataNodes as parallel block reads would; two such
   * runs are in flight. An erasure-coded file's substripes (rows of cells) are fetched
   * one by one, {@code inflight} at a time.
   */
  void read(List<long[]> substripes, long pos, byte[] buf, int off, Outcome outcome) throws IOException {
    // Fetches left in flight when this throws just finish on the pool into their own arrays.
    Deque<Fetch> window = new ArrayDeque<>();
    int next = 0;
    try {
      while (next < substripes.size() || !window.isEmpty()) {
        while (next < substripes.size() && window.size() < inflight) {
          long s = substripes.get(next)[0];
          int j0 = (int) substripes.get(next)[1];
          int count = 1;
          while (count < inflight && next + count < substripes.size()
              && substripes.get(next + count)[0] == s && substripes.get(next + count)[1] == j0 + count
              && continues(s, j0 + count)) {
            count++;
          }
          next += count;
          window.add(new Fetch(s, j0, count, pos, buf, off));
          if (count > 1 && window.size() >= 2) {
            break; // two runs in flight are enough to keep every DataNode busy
          }
        }
        Fetch f = window.poll();
        try {
          f.complete(outcome);
        } finally {
          f.close();
        }
      }
    } finally {
      for (Fetch f : window) {
        f.close(); // never completed: no more copies into buf; arrays go back as their reads end
      }
    }
  }

  /**
   * Whether every data piece of substripe (s, j) starts in the file right where the
   * same piece of (s, j - 1) ends (or is empty), so both can be read as one range.
   */
  private boolean continues(long s, int j) {
    for (int i = 0; i < d.getK(); i++) {
      int n = layout.storedLength(s, j, i);
      if (n > 0 && (layout.storedLength(s, j - 1, i) != pieceBytes
          || layout.fileOffset(s, j, i, 0) != layout.fileOffset(s, j - 1, i, 0) + pieceBytes)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A run of {@code count} consecutive substripes in flight: one read per data piece
   * (none for a slow source left to parity) and one GET of all their parity. Piece i's
   * array holds substripe j0 + c at offset c * S. A data read copies its piece into
   * the caller's buffer as soon as it arrives, so only pieces decoded are copied on
   * the caller's time; pieces arriving together copy at once, each to its own range.
   * Closing the fetch waits for copies under way and stops new ones, so after it no
   * read touches the caller's buffer again.
   */
  private final class Fetch {
    /** A decoded piece whose read took this many times its peers' time was late, not just last. */
    static final double LATE_FACTOR = 1.5;

    final long s;
    final int j0;
    final int count;
    /** Parity length of each substripe of the run. */
    final int[] len;
    /** Stored bytes of piece i in substripe j0 + c: stored[c][i]. */
    final int[][] stored;
    /** Stored bytes of piece i in the whole run. */
    final int[] total;
    final Leases leases = new Leases(buffers);
    /** The data pieces as they will be used: the arrays the reads fill, or decoded replacements. */
    final byte[][] pieces;
    final boolean[] have;
    /** Pieces whose read was not started because their source is slow; read only if parity fails. */
    final boolean[] skipped;
    /** Skipped pieces not to be read just because a read piece lags: their DataNode has a backlog. */
    final boolean[] held;
    /** Pieces replaced by decoded bytes before their read arrived. */
    final boolean[] decoded;
    /** Pieces whose read failed (a dead DataNode): only decoding can bring them. */
    final boolean[] failed;
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
    /** Parity value r of substripe j0 + c at c * m + r. */
    volatile ParityValue[] parity;
    /** Whether the parity task already opened (if protected) and unpacked the values; set before {@link #parity}. */
    volatile boolean unpacked;
    /** Parity r of the whole run, substripe j0 + c at offset c * S; filled by the GET when every value is usable. */
    final byte[][] parityBytes;
    /** The caller's buffer: buf[off] is file offset pos. Guarded by this fetch's monitor. */
    private final long pos;
    private final byte[] buf;
    private final int off;
    /** Pieces already in the caller's buffer; once closed, reads no longer copy. Guarded by this. */
    private final boolean[] copied;
    private boolean closed;
    /** Reads copying into the caller's buffer right now (they start only while not closed). Guarded by this. */
    private int copying;
    /** Reads that ended, and how; decoded pieces waiting for their read to end to be judged. Guarded by this. */
    private final boolean[] ended;
    private final boolean[] endedOk;
    private final boolean[] judgeLater;
    /** When the pieces that completed the fetch had arrived (for judging decoded ones). Guarded by this. */
    private long peersAt;
    /** For a decoded piece whose read still runs: what ends its place in the DataNode's backlog. Guarded by this. */
    private final Runnable[] backlogged;

    Fetch(long s, int j0, int count, long pos, byte[] buf, int off) {
      this.s = s;
      this.j0 = j0;
      this.count = count;
      this.pos = pos;
      this.buf = buf;
      this.off = off;
      int k = d.getK();
      int m = d.getM();
      len = new int[count];
      stored = new int[count][k];
      total = new int[k];
      for (int c = 0; c < count; c++) {
        len[c] = layout.parityLength(s, j0 + c);
        for (int i = 0; i < k; i++) {
          stored[c][i] = layout.storedLength(s, j0 + c, i);
          total[i] += stored[c][i];
        }
      }
      pieces = new byte[k][];
      have = new boolean[k];
      skipped = new boolean[k];
      held = new boolean[k];
      decoded = new boolean[k];
      failed = new boolean[k];
      reads = new Future<?>[k];
      arrivedAt = new long[k];
      copied = new boolean[k];
      ended = new boolean[k];
      endedOk = new boolean[k];
      judgeLater = new boolean[k];
      backlogged = new Runnable[k];
      parityBytes = new byte[m][];
      for (int r = 0; r < m; r++) {
        parityBytes[r] = leases.forTask(count * pieceBytes);
      }
      // Skip decisions first: when a piece is skipped the parity will be decoded, so the
      // parity task opens protected values (digest, decryption) in the background rather
      // than leaving it to the caller's time.
      boolean[] skipNow = new boolean[k];
      int skips = 0;
      for (int i = 0; i < k; i++) {
        if (total[i] > 0 && skips < m && sources.judging() && sources.skip(locations.of(s, i))) {
          skipNow[i] = true;
          skips++;
        }
      }
      boolean openNow = skips > 0;
      parityGet = done.submit(() -> {
        try {
          List<ParityKey> keys = new ArrayList<>(count * m);
          for (int c = 0; c < count; c++) {
            for (int p = 0; p < m; p++) {
              keys.add(access.store().key(seal, d.getFileId(), d.getGeneration(), (int) s, j0 + c, p));
            }
          }
          // Protected values are opened (digest, decryption) only if a decode needs them.
          ParityValue[] values = access.store().getAllUnopened(keys);
          if (seal.protection() == org.pocache.cache.ParityProtection.NONE) {
            unpack(values); // here, while the data is still on its way, not on the caller's time
            unpacked = true;
          } else if (openNow) {
            try {
              for (ParityValue v : values) {
                if (v != null) {
                  v.open();
                }
              }
              unpack(values);
              unpacked = true;
            } catch (org.pocache.cache.CorruptParityException e) {
              // the decode meets it again and waits for the data
            }
          }
          parity = values;
        } finally {
          for (byte[] b : parityBytes) {
            leases.written(b);
          }
        }
        return -1;
      });
      outstanding++;
      for (int i = 0; i < k; i++) {
        if (total[i] > 0) {
          byte[] b = leases.forTask(count * pieceBytes);
          zeroPastStored(b, i); // the virtual zeros of a short piece
          pieces[i] = b;
          if (skipNow[i]) {
            skipped[i] = true;
            leases.written(b); // no read writes into it unless started later
          } else {
            startRead(i);
          }
        } else {
          byte[] b = leases.scratch(count * pieceBytes);
          zeroPastStored(b, i);
          pieces[i] = b;
          have[i] = true;
        }
      }
    }

    private void zeroPastStored(byte[] b, int i) {
      for (int c = 0; c < count; c++) {
        if (stored[c][i] < len[c]) {
          java.util.Arrays.fill(b, c * pieceBytes + stored[c][i], c * pieceBytes + len[c], (byte) 0);
        }
      }
    }

    private void startRead(int i) {
      int n = total[i];
      long at = layout.fileOffset(s, j0, i, 0);
      byte[] b = pieces[i];
      if (skipped[i]) {
        leases.lend(b); // a skipped piece's array goes back to a read after all
        skipped[i] = false;
      }
      reads[i] = done.submit(() -> {
        boolean ok = false;
        Runnable inFlight = sources.reading(locations.of(s, i), n);
        try {
          long t0 = System.nanoTime();
          try {
            data.readFully(at, b, 0, n);
          } finally {
            if (inFlight != null) {
              inFlight.run();
            }
          }
          arrivedAt[i] = System.nanoTime();
          ok = true;
          if (beginCopy()) {
            boolean whole = false;
            try {
              copyOut(i, b); // outside the monitor: pieces arriving together copy at once
              whole = true;
            } finally {
              endCopy(i, whole);
            }
          }
          sources.observed(locations.of(s, i), n, arrivedAt[i] - t0);
        } finally {
          leases.written(b);
          ended(i, ok);
        }
        return i;
      });
      outstanding++;
    }

    /**
     * The next finished read or GET; null if a skipped piece should be read now: some
     * data piece has arrived, and the pieces still out have lagged behind the last
     * arrival by half the time the arrivals took since the start (at least the minimum
     * deadline). Healthy pieces of one fetch arrive within a few percent of each other.
     */
    private Future<Integer> next() throws InterruptedException {
      boolean anySkipped = false;
      for (int i = 0; i < skipped.length; i++) {
        anySkipped |= skipped[i] && !held[i];
      }
      if (!anySkipped || !anyArrived) {
        return done.take();
      }
      long wait = Math.max(minDeadlineNanos, (lastArrival - born) / 2);
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

    /**
     * Starts the reads left to parity because a piece that was read lags (the skip may
     * rest on stale history), except those on a DataNode with a backlog of abandoned
     * reads: it has not answered the reads it has. Those stay held for this fetch
     * unless parity fails ({@link #startSkipped}).
     */
    private void startSkippedUnlessBacklogged() {
      for (int i = 0; i < skipped.length; i++) {
        if (skipped[i] && !held[i]) {
          if (sources.backlogged(locations.of(s, i))) {
            held[i] = true;
          } else {
            startRead(i);
          }
        }
      }
    }

    /** Copies piece i (from {@code from}) into the caller's buffer. Called holding this fetch's monitor. */
    private void copyOut(int i, byte[] from) {
      for (int c = 0; c < count; c++) {
        int n = stored[c][i];
        if (n > 0) {
          long at = layout.fileOffset(s, j0 + c, i, 0);
          System.arraycopy(from, c * pieceBytes, buf, off + (int) (at - pos), n);
        }
      }
    }

    /** Whether a read that arrived may copy into the caller's buffer: not once the fetch is closed. */
    private synchronized boolean beginCopy() {
      if (closed) {
        return false;
      }
      copying++;
      return true;
    }

    private synchronized void endCopy(int i, boolean whole) {
      copied[i] = whole;
      if (--copying == 0) {
        notifyAll();
      }
    }

    /**
     * Marks the fetch closed and waits for copies already under way (a piece's copy
     * takes about a millisecond): after this no read touches the caller's buffer.
     * Called holding this fetch's monitor.
     */
    private void closeAndAwaitCopies() {
      closed = true;
      boolean interrupted = false;
      while (copying > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true; // the copies end by themselves; the caller's buffer must be ours first
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    /** No read copies into the caller's buffer after this; arrays go back as their reads end. */
    void close() {
      synchronized (this) {
        closeAndAwaitCopies();
      }
      leases.close();
    }

    void complete(Outcome outcome) throws IOException {
      int k = d.getK();
      int m = d.getM();
      boolean parityOk = false;
      IOException dataError = null;
      outcome.substripes += count;
      long decodableAt = 0;
      try {
        while (true) {
          int missing = k - count(have);
          if (missing == 0) {
            break;
          }
          Future<Integer> f;
          if (parityOk && missing <= m) {
            // Decodable now. A piece whose read is under way may still be worth a wait no
            // longer than the decode would take: either way at most twice the better choice.
            long grace = graceNanos();
            if (decodableAt == 0) {
              decodableAt = System.nanoTime();
            }
            long left = decodableAt + grace - System.nanoTime();
            f = left <= 0 ? null : done.poll(left, java.util.concurrent.TimeUnit.NANOSECONDS);
            if (f == null) {
              break;
            }
          } else {
            if (outstanding == 0) {
              if (startSkipped()) {
                continue;
              }
              break;
            }
            f = next();
            if (f == null) {
              // A piece that was read lags behind its peers while a skipped one waits: the
              // skip may rest on stale history (the straggler moved), so read it after all.
              startSkippedUnlessBacklogged();
              continue;
            }
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
              for (int i = 0; i < reads.length; i++) {
                failed[i] |= reads[i] == f; // nothing more to wait for from it
              }
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
      synchronized (this) {
        closeAndAwaitCopies(); // from here on the caller's buffer is the caller's alone
        for (int i = 0; i < k; i++) {
          if (!copied[i]) {
            copyOut(i, pieces[i]); // decoded, or virtual zeros (nothing stored)
          }
        }
      }
      for (int i = 0; i < k; i++) {
        if (reads[i] != null && !decoded[i] && sources.judging()) {
          sources.served(locations.of(s, i), false);
        }
      }
      synchronized (this) {
        // A decoded piece is judged when its read ends: only then is it known how late it was.
        peersAt = anyArrived ? lastArrival : System.nanoTime();
        for (int i = 0; i < k; i++) {
          if (reads[i] != null && decoded[i]) {
            judgeLater[i] = true;
            if (ended[i]) {
              judge(i);
            } else {
              backlogged[i] = sources.abandoned(locations.of(s, i));
            }
          }
        }
      }
    }

    /** The read of piece i ended ({@code ok}: with its bytes). */
    private synchronized void ended(int i, boolean ok) {
      ended[i] = true;
      endedOk[i] = ok;
      if (backlogged[i] != null) {
        backlogged[i].run();
        backlogged[i] = null;
      }
      if (judgeLater[i]) {
        judge(i);
      }
    }

    /**
     * Records whether decoded piece i's read was late: it failed, or it took at least
     * {@link #LATE_FACTOR} times as long as the pieces that completed the fetch. A
     * healthy DataNode that merely came last is not late. Called holding this monitor.
     */
    private void judge(int i) {
      judgeLater[i] = false;
      long peers = Math.max(1, peersAt - born);
      boolean late = !endedOk[i] || arrivedAt[i] - born >= LATE_FACTOR * peers;
      sources.served(locations.of(s, i), late);
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
      ParityValue[] p = parity;
      for (int x = 0; x < p.length; x++) {
        ParityValue v = p[x];
        if (v == null) {
          outcome.parityMissing = true;
          return false;
        }
        if (v.payloadLength() != len[x / d.getM()]) {
          outcome.parityCorrupt = true;
          return false;
        }
      }
      return true;
    }

    /**
     * How long a decode of the pieces still missing is expected to take, if every one
     * of them has a read under way (0 otherwise: a skipped or failed piece is not coming).
     */
    private long graceNanos() {
      long bytes = 0;
      for (int i = 0; i < have.length; i++) {
        if (!have[i]) {
          if (reads[i] == null || failed[i]) {
            return 0;
          }
          bytes += total[i];
        }
      }
      return DecodeCost.expectedNanos(bytes);
    }

    /** Rebuilds the missing data pieces of every substripe; false if a result does not match its stored CRC. */
    private boolean decode(Outcome outcome) {
      long start = System.nanoTime();
      boolean ok = decodeMissing(outcome);
      if (ok) {
        long bytes = 0;
        for (int i = 0; i < decoded.length; i++) {
          bytes += decoded[i] ? total[i] : 0;
        }
        DecodeCost.measured(bytes, System.nanoTime() - start);
      }
      return ok;
    }

    /** Copies every value's payload into the parity arrays. */
    private void unpack(ParityValue[] values) {
      int m = d.getM();
      for (int x = 0; x < values.length; x++) {
        int c = x / m;
        if (values[x] != null && values[x].payloadLength() == len[c]) {
          values[x].copyPayloadTo(parityBytes[x % m], c * pieceBytes);
        }
      }
    }

    private boolean decodeMissing(Outcome outcome) {
      ParityValue[] p = parity;
      if (!unpacked) {
        try {
          for (ParityValue v : p) {
            v.open();
          }
        } catch (org.pocache.cache.CorruptParityException e) {
          outcome.parityCorrupt = true; // forged or damaged: wait for the data
          return false;
        }
        unpack(p);
      }
      int k = d.getK();
      int m = d.getM();
      byte[][] in = new byte[k + m][];
      int missing = 0;
      for (int i = 0; i < k; i++) {
        in[i] = have[i] ? pieces[i] : null;
        missing += have[i] ? 0 : 1;
      }
      for (int r = 0; r < m; r++) {
        in[k + r] = parityBytes[r];
      }
      int[] erased = new int[missing];
      for (int i = 0, e = 0; i < k; i++) {
        if (!have[i]) {
          erased[e++] = i;
        }
      }
      byte[][] out = new byte[missing][];
      for (int e = 0; e < missing; e++) {
        out[e] = leases.scratch(count * pieceBytes);
      }
      for (int c = 0; c < count; c++) {
        int at = c * pieceBytes;
        try {
          access.coder().decode(in, at, erased, out, at, len[c]);
        } catch (RuntimeException | LinkageError e) {
          outcome.parityCorrupt = true; // parity that cannot even be decoded: wait for the data
          return false;
        }
        for (int e = 0; e < missing; e++) {
          int i = erased[e];
          if (Crc32c.of(out[e], at, stored[c][i]) != p[c * m].dataCrc(i)) {
            outcome.parityCorrupt = true;
            return false; // never return bytes HDFS would not have returned
          }
        }
      }
      for (int e = 0; e < missing; e++) {
        // A late read still owns its array; the decoded bytes take its place.
        pieces[erased[e]] = out[e];
        have[erased[e]] = true;
        decoded[erased[e]] = true;
        for (int c = 0; c < count; c++) {
          outcome.decoded += stored[c][erased[e]] > 0 ? 1 : 0;
        }
      }
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
