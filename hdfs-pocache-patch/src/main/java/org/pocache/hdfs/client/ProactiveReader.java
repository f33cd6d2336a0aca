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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.PositionedReadable;
import org.pocache.cache.Crc32c;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParityProtection;
import org.pocache.cache.ParitySeal;
import org.pocache.cache.ParityValue;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.hdfs.client.read.Clock;
import org.pocache.hdfs.client.read.FetchEngine;
import org.pocache.hdfs.client.read.FetchEvent;
import org.pocache.hdfs.client.read.FetchEvents;
import org.pocache.hdfs.client.read.FetchIo;
import org.pocache.hdfs.client.read.FetchSettings;
import org.pocache.hdfs.client.read.Piece;
import org.pocache.hdfs.client.read.PieceSources;
import org.pocache.manager.protocol.ParityDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *
 * <p>What each fetch decides (what to read, when to ask for the parity, when to decode,
 * when a late read stops) is its {@link FetchEngine}'s; this class lays out the runs of
 * substripes and carries the decisions out: the reads, the GET, decoding and copying.
 */
final class ProactiveReader {
  /** At DEBUG, one line per fetch: when each piece and the parity arrived, what was skipped and decoded. */
  private static final Logger LOG = LoggerFactory.getLogger(ProactiveReader.class);

  /** What happened to the parity while reading, for the read report. */
  static final class Outcome {
    int substripes;
    int decoded;
    /** Of the decoded substripes, those decoded ahead, while the other pieces' later rows were on their way. */
    int decodedAhead;
    /** Parity GETs made (one per run of substripes fetched together). */
    int parityFetches;
    /** Parity values those GETs asked for (count x the parity pieces asked for per substripe). */
    int parityValues;
    boolean parityMissing;
    boolean parityCorrupt;
    boolean cacheError;

    synchronized void add(Outcome o) {
      substripes += o.substripes;
      decoded += o.decoded;
      decodedAhead += o.decodedAhead;
      parityFetches += o.parityFetches;
      parityValues += o.parityValues;
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

  /** How often a fetch looks again at the backlog of a DataNode whose piece it holds. */
  static final long HELD_RECHECK_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(5);

  private final PositionedReadable data;
  /** The file's pieces, read straight from its blocks; null: through {@link #data}. */
  private final DirectBlockReads direct;
  private final ParityDescriptor d;
  /** How the file's parity values are sealed (the file key from its descriptor). */
  private final ParitySeal seal;
  private final StripeLayout layout;
  private final ParityAccess access;
  private final ExecutorService pool;
  private final BufferPool buffers;
  private final SlowSources sources;
  private final PieceLocations locations;
  private final int inflight;
  /** Whether every fetch asks for its parity with the data, suspect DataNode or not. */
  private final boolean proactiveAlways;
  private final long minDeadlineNanos;
  private final FetchSettings settings;
  private final Clock clock;
  /** Length of every pooled piece array: a substripe's pieces never exceed a subblock. */
  private final int pieceBytes;
  /** Parity pieces of each substripe a fetch asks for ({@link #askedParity}); 0: all m. */
  private final int parityPieces;

  ProactiveReader(ReadContext ctx, int inflight) {
    this.data = ctx.data;
    this.direct = ctx.direct;
    this.d = ctx.descriptor;
    this.seal = ctx.seal;
    this.layout = ctx.layout;
    this.access = ctx.parity;
    this.pool = ctx.pool;
    this.buffers = ctx.buffers;
    this.sources = ctx.sources;
    this.locations = ctx.locations;
    this.inflight = inflight;
    this.proactiveAlways = ctx.proactiveAlways;
    this.minDeadlineNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(ctx.minDeadlineMillis);
    this.settings = new FetchSettings(minDeadlineNanos, HELD_RECHECK_NANOS, ctx.proactiveAlways);
    this.clock = ctx.clock;
    this.pieceBytes = layout.subblockSize();
    this.parityPieces = ctx.parityPieces;
  }

  /**
   * Parity pieces of each substripe a fetch asks for and can decode with: all m, or
   * {@code dfs.pocache.read.parity.pieces} if that is fewer (EC-Cache's late binding, k + that
   * many of the k + m pieces). Parity row r &lt; this is fetched; the rows past it stay in Redis.
   */
  int askedParity() {
    int m = d.getM();
    return parityPieces > 0 && parityPieces < m ? parityPieces : m;
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
    return s <= Integer.MAX_VALUE && d.isStripeCached((int) s);
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
   * at a time. Consecutive substripes whose data pieces continue each other where they
   * are stored (a replicated file's subblocks of one block; an erasure-coded file's rows
   * of cells of one block group, read from its internal blocks) are fetched together:
   * one read per data piece and one pipelined GET for all their parity, so a whole-file
   * read makes the same requests to the DataNodes as parallel block reads (or HDFS's own
   * striped read) would; two such runs are in flight. Otherwise (an erasure-coded file
   * whose internal blocks cannot be read directly) substripes are fetched one by one,
   * {@code inflight} at a time.
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
   * Whether every data piece of substripe (s, j) starts right where the same piece of
   * (s, j - 1) ends (or is empty), so both can be read as one range: in the file (a
   * replicated file's subblocks of one block), or in its internal block (an
   * erasure-coded file's cells of one column, when read from the internal blocks).
   */
  private boolean continues(long s, int j) {
    for (int i = 0; i < d.getK(); i++) {
      int n = layout.storedLength(s, j, i);
      if (n > 0 && (layout.storedLength(s, j - 1, i) != pieceBytes
          || (direct == null || !direct.striped())
          && layout.fileOffset(s, j, i, 0) != layout.fileOffset(s, j - 1, i, 0) + pieceBytes)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A run of {@code count} consecutive substripes in flight: one read per data piece
   * (none for a slow source left to parity) and one GET of all their parity; what to
   * read, when to ask for the parity and when to decode is its {@link FetchEngine}'s to
   * decide, and this class carries it out. Piece i's array holds substripe j0 + c at
   * offset c * S. A data read copies its piece into the caller's buffer as soon as it
   * arrives, so only pieces decoded are copied on the caller's time; pieces arriving
   * together copy at once, each to its own range. Closing the fetch shuts its
   * {@link CallerBufferGuard}, so after it no read touches the caller's buffer again.
   */
  private final class Fetch implements FetchIo, PieceSources {
    final long s;
    final int j0;
    final int count;
    /** Parity length of each substripe of the run. */
    final int[] len;
    /** Stored bytes of piece i in substripe j0 + c: stored[c][i]. */
    final int[][] stored;
    final Leases leases = new Leases(buffers);
    final Piece[] pieces;
    /** What the reads and the GET report, for the engine. */
    final LinkedBlockingQueue<FetchEvent> events = new LinkedBlockingQueue<>();
    final CallerBufferGuard guard = new CallerBufferGuard();
    final LatenessJudge judge;
    final FetchEngine engine;
    /** Whether reads report their run's first row (direct reads of several rows). */
    final boolean firstRows;
    /** When the parity GET ended, 0 before; for the trace. */
    volatile long parityAt;
    /** When decoding proper started (after any opening of the parity), and the decode's span; for the trace. */
    long codingFrom;
    long decodeFrom;
    long decodeTo;
    /**
     * Decoding ahead: the rows up to m pieces lack (left to parity, failed or lagging)
     * rebuilt while the other pieces' later rows are still on their way, so that once the
     * last piece arrives only its last row is left to decode. False once it cannot help
     * (other pieces came to lack a row, or a row did not check out).
     */
    boolean aheadOk = true;
    /** The pieces decoded ahead (null before the first row is), and their rebuilt rows. */
    int[] aheadErased;
    byte[][] aheadOut;
    /** Rows decoded ahead (from the run's first), and of those copied into the caller's buffer. */
    int aheadRows;
    int aheadCopiedRows;
    /** Whether the final decode took over the rows decoded ahead. */
    boolean aheadUsed;
    /** Bytes the final decode rebuilt (not those decoded ahead). */
    long finalDecodeBytes;
    /** Parity value r of substripe j0 + c at c * m + r. */
    volatile ParityValue[] parity;
    /** Whether the parity task already opened (if protected) and unpacked the values; set before {@link #parity}. */
    volatile boolean unpacked;
    /** Parity r of the whole run, substripe j0 + c at offset c * S; filled by the GET when every value is usable. */
    final byte[][] parityBytes;
    /** Where parity and decode problems are told (the read's outcome), while the fetch completes. */
    Outcome outcome;
    /** The caller's buffer: buf[off] is file offset pos; written only inside {@link #guard}. */
    private final long pos;
    private final byte[] buf;
    private final int off;

    Fetch(long s, int j0, int count, long pos, byte[] buf, int off) {
      this.s = s;
      this.j0 = j0;
      this.count = count;
      this.pos = pos;
      this.buf = buf;
      this.off = off;
      int k = d.getK();
      int m = askedParity();
      len = new int[count];
      stored = new int[count][k];
      int[] total = new int[k];
      for (int c = 0; c < count; c++) {
        len[c] = layout.parityLength(s, j0 + c);
        for (int i = 0; i < k; i++) {
          stored[c][i] = layout.storedLength(s, j0 + c, i);
          total[i] += stored[c][i];
        }
      }
      firstRows = direct != null && count > 1;
      // Arrays are lent to a read or the GET only when the engine starts it.
      parityBytes = new byte[m][];
      for (int r = 0; r < m; r++) {
        parityBytes[r] = leases.scratch(count * pieceBytes);
      }
      pieces = new Piece[k];
      for (int i = 0; i < k; i++) {
        if (total[i] > 0) {
          byte[] b = leases.scratch(count * pieceBytes);
          zeroPastStored(b, i); // the virtual zeros of a short piece
          pieces[i] = new Piece(i, total[i], b, Piece.State.SKIPPED, clock);
        } else {
          // Nothing stored (a short file's stripe): the decoder reads zeros, never writes them.
          pieces[i] = new Piece(i, 0, Zeros.of(count * pieceBytes), Piece.State.VIRTUAL_ZERO, clock);
        }
      }
      FetchEvents queue = new FetchEvents() {
        @Override
        public FetchEvent take() throws InterruptedException {
          return events.take();
        }

        @Override
        public FetchEvent poll(long nanos) throws InterruptedException {
          return nanos <= 0 ? events.poll() : events.poll(nanos, TimeUnit.NANOSECONDS);
        }
      };
      engine = new FetchEngine(pieces, m, count, firstRows, settings, clock, this, this, queue, LOG.isDebugEnabled());
      judge = new LatenessJudge(sources, k, i -> locations.of(s, i), engine.born(), minDeadlineNanos / 2);
      engine.start();
    }

    // PieceSources: the DataNodes of piece i, as SlowSources knows them.

    @Override
    public boolean judging() {
      return sources.judging();
    }

    @Override
    public boolean backlogged(int i) {
      return sources.backlogged(locations.of(s, i));
    }

    @Override
    public boolean listed(int i) {
      return sources.listedAll(locations.of(s, i));
    }

    @Override
    public boolean lateByOwnReads(int i) {
      return sources.lateByOwnReads(locations.of(s, i));
    }

    @Override
    public boolean skipAdvised(int i) {
      return sources.skip(locations.of(s, i));
    }

    @Override
    public boolean suspect(int i) {
      return sources.suspect(locations.of(s, i));
    }

    @Override
    public void onTime(int i) {
      judge.onTime(i);
    }

    @Override
    public void decoded(int i, long peersAt) {
      judge.decoded(i, peersAt);
    }

    // FetchIo: the engine's decisions carried out.

    @Override
    public void requestParity(boolean openNow) {
      for (byte[] b : parityBytes) {
        leases.lend(b);
      }
      int m = askedParity();
      pool.execute(() -> {
        FetchEvent end = FetchEvent.PARITY_IN;
        try {
          List<ParityKey> keys = new ArrayList<>(count * m);
          for (int c = 0; c < count; c++) {
            for (int p = 0; p < m; p++) {
              keys.add(access.store().key(seal, d.getFileId(), d.getGeneration(), (int) s, j0 + c, p));
            }
          }
          // Protected values are opened (digest, decryption) only if a decode needs them.
          ParityValue[] values = access.store().getAllUnopened(keys);
          if (seal.protection() == ParityProtection.NONE) {
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
        } catch (Throwable t) {
          end = FetchEvent.parityFailed(t);
        } finally {
          parityAt = clock.nanoTime();
          for (byte[] b : parityBytes) {
            leases.written(b);
          }
        }
        events.offer(end);
      });
    }

    @Override
    public void parityFailed(Throwable c) {
      outcome.parityCorrupt |= c instanceof org.pocache.cache.CorruptParityException;
      outcome.cacheError |= !(c instanceof org.pocache.cache.CorruptParityException);
    }

    @Override
    public long expectedDecodeNanos(long bytes) {
      return DecodeCost.expectedNanos(bytes);
    }

    private void zeroPastStored(byte[] b, int i) {
      for (int c = 0; c < count; c++) {
        if (stored[c][i] < len[c]) {
          java.util.Arrays.fill(b, c * pieceBytes + stored[c][i], c * pieceBytes + len[c], (byte) 0);
        }
      }
    }

    @Override
    public void startRead(Piece p) {
      int i = p.index;
      long at = layout.fileOffset(s, j0, i, 0);
      byte[] b = p.array();
      leases.lend(b);
      pool.execute(() -> {
        FetchEvent end;
        try {
          readPiece(p, at, b);
          end = FetchEvent.arrived(i);
        } catch (Throwable t) {
          end = FetchEvent.failed(i, t);
        }
        events.offer(end);
      });
    }

    /** On a pool thread: reads piece p into b, passing its rows into the caller's buffer as they come. */
    private void readPiece(Piece p, long at, byte[] b) throws IOException {
      int i = p.index;
      int n = p.bytes;
      boolean ok = false;
      Runnable inFlight = sources.reading(locations.of(s, i), n);
      // Bytes of b already in the caller's buffer: a direct read passes them on as they come,
      // so that only its last bytes are copied after it ends.
      int[] streamed = {0};
      try {
        long t0 = clock.nanoTime();
        try {
          if (direct != null) {
            direct.read(s, j0, i, b, n, new DirectBlockReads.Watch() {
              @Override
              public void arrived(int from, int to) {
                if (from == streamed[0] && guard.beginCopy()) {
                  try {
                    copyOut(i, b, from, to);
                    streamed[0] = to;
                  } finally {
                    guard.endCopy();
                  }
                }
                p.bytesIn(to);
                // Every row but the last is whole: rows below to / S are in. Told only once the
                // parity is in: the fetch looks at the rows in when the parity arrives anyway.
                if (p.rowsIn(Math.min(count - 1, to / pieceBytes)) && parity != null) {
                  events.offer(FetchEvent.ROWS_IN);
                }
              }

              @Override
              public void firstCell() {
                if (firstRows && p.firstRowAt(clock.nanoTime())) {
                  events.offer(FetchEvent.FIRST_ROW);
                }
              }

              @Override
              public boolean unwanted() {
                return p.unwanted();
              }
            });
          } else {
            data.readFully(at, b, 0, n);
          }
        } catch (DirectBlockReads.Stopped e) {
          // Counted as if its bytes had all arrived now, as a long read still in flight is
          // in a read report: at least as fast as the DataNode really is.
          sources.observed(locations.of(s, i), n, clock.nanoTime() - t0);
          throw e;
        } finally {
          if (inFlight != null) {
            inFlight.run();
          }
        }
        p.finishedAt(clock.nanoTime());
        ok = true;
        if (guard.beginCopy()) {
          boolean whole = false;
          try {
            copyOut(i, b, streamed[0], n); // outside any monitor: pieces arriving together copy at once
            whole = true;
          } finally {
            guard.endCopy(p, whole);
          }
        }
        sources.observed(locations.of(s, i), n, p.arrivedAt() - t0);
      } finally {
        leases.written(b);
        judge.ended(i, ok, p.arrivedAt());
      }
    }

    /**
     * Copies bytes {@code [lo, hi)} of piece i's array (row c at {@code c * pieceBytes})
     * into the caller's buffer, stored bytes only; only inside the guard, or after it closed.
     */
    private void copyOut(int i, byte[] from, int lo, int hi) {
      for (int c = lo / pieceBytes; c < count && c * pieceBytes < hi; c++) {
        int rowStart = c * pieceBytes;
        int a = Math.max(lo, rowStart);
        int e = Math.min(hi, rowStart + stored[c][i]);
        if (e > a) {
          long at = layout.fileOffset(s, j0 + c, i, a - rowStart);
          System.arraycopy(from, a, buf, off + (int) (at - pos), e - a);
        }
      }
    }

    /** No read copies into the caller's buffer after this; arrays go back as their reads end. */
    void close() {
      guard.closeAndAwait();
      leases.close();
    }

    void complete(Outcome outcome) throws IOException {
      this.outcome = outcome;
      outcome.substripes += count;
      engine.complete();
      guard.closeAndAwait(); // from here on the caller's buffer is the caller's alone
      for (Piece p : pieces) {
        if (!p.copied()) {
          // Decoded (its rows decoded ahead are in already), or virtual zeros (nothing stored).
          int from = aheadUsed && p.state() == Piece.State.DECODED ? aheadCopiedRows * pieceBytes : 0;
          copyOut(p.index, p.array(), from, count * pieceBytes);
        }
      }
      int m = askedParity();
      outcome.parityFetches += engine.parityRequested() ? 1 : 0;
      outcome.parityValues += engine.parityRequested() ? count * m : 0;
      if (LOG.isDebugEnabled()) {
        LOG.debug(trace());
      }
      engine.finish();
    }

    /**
     * One line on this fetch, milliseconds since it started: each piece's DataNode,
     * whether it was left to parity at the start, when its read started and its bytes
     * arrived (or its state), then the parity GET, when decoding became possible, the
     * decode, and the end.
     */
    private String trace() {
      StringBuilder b = new StringBuilder("fetch stripe ").append(s).append(" substripes ").append(j0);
      if (count > 1) {
        b.append('-').append(j0 + count - 1);
      }
      for (Piece p : pieces) {
        b.append(" | d").append(p.index).append(' ').append(locations.of(s, p.index));
        if (p.skippedFor() != null) {
          b.append(" skipped(").append(p.skippedFor()).append(')');
        }
        if (p.started()) {
          b.append(" read@").append(engine.ms(p.startedAt()));
        }
        if (p.firstRowAt() != 0) {
          b.append(" row1@").append(engine.ms(p.firstRowAt()));
        }
        if (p.arrivedAt() != 0) {
          b.append(" arrived@").append(engine.ms(p.arrivedAt()));
        }
        b.append(' ').append(p.state());
      }
      if (engine.parityDeferred()) {
        b.append(" | parity ").append(engine.parityRequested() ? "asked@" + engine.ms(engine.parityRequestedAt())
            : "never asked");
      }
      b.append(" | parity@").append(parityAt == 0 ? "-" : engine.ms(parityAt));
      if (engine.decodableAt() != 0) {
        b.append(" decodable@").append(engine.ms(engine.decodableAt()));
      }
      if (aheadRows > 0) {
        b.append(" ahead ").append(aheadRows).append(aheadUsed ? " rows" : " rows unused");
      }
      if (decodeFrom != 0) {
        b.append(" decode@").append(engine.ms(decodeFrom)).append('-').append(engine.ms(decodeTo));
      }
      return b.append(" done@").append(engine.ms(clock.nanoTime())).append(" | taken").append(engine.taken())
          .toString();
    }

    /** Whether every parity value arrived intact (the values' own checksums were checked by the store). */
    @Override
    public boolean parityUsable() {
      ParityValue[] p = parity;
      for (int x = 0; x < p.length; x++) {
        ParityValue v = p[x];
        if (v == null) {
          outcome.parityMissing = true;
          return false;
        }
        if (v.payloadLength() != len[x / askedParity()]) {
          outcome.parityCorrupt = true;
          return false;
        }
      }
      return true;
    }

    /** Rebuilds the missing data pieces of every substripe; false if a result does not match its stored CRC. */
    @Override
    public boolean decode() {
      decodeFrom = clock.nanoTime();
      boolean ok = decodeMissing(outcome);
      decodeTo = clock.nanoTime();
      if (ok && finalDecodeBytes > 0) {
        // Opening protected parity is not decoding, nor are the rows decoded ahead.
        DecodeCost.measured(finalDecodeBytes, decodeTo - codingFrom);
      }
      return ok;
    }

    /** Copies every value's payload into the parity arrays. */
    private void unpack(ParityValue[] values) {
      int m = askedParity();
      for (int x = 0; x < values.length; x++) {
        int c = x / m;
        if (values[x] != null && values[x].payloadLength() == len[c]) {
          values[x].copyPayloadTo(parityBytes[x % m], c * pieceBytes);
        }
      }
    }

    /**
     * Rebuilds, row by row from the run's first, the rows that up to m pieces (left to
     * parity, failed, or lagging) do not have while every other piece has them, and
     * copies them into the caller's buffer: once the last of the others arrives, only
     * its last row is left to decode. Needs the parity in; opens it here if the GET did
     * not (only once a row is to be decoded); stops for good if the pieces missing a row
     * change, or a row does not check out against its data CRCs (the final decode then
     * decides).
     */
    @Override
    public void decodeAhead() {
      if (!aheadOk || parity == null) {
        return;
      }
      int k = d.getK();
      int m = askedParity();
      ParityValue[] p = parity;
      while (aheadRows < count) {
        int c = aheadRows;
        int n = 0;
        int[] erased = new int[m];
        for (Piece piece : pieces) {
          if (!piece.have() && !(piece.state() == Piece.State.READING && piece.rowsIn() > c)) {
            if (n == m) {
              return; // more pieces lack row c than parity can rebuild
            }
            erased[n++] = piece.index;
          }
        }
        if (n == 0) {
          return; // row c is in everywhere: nothing to decode ahead
        }
        if (!unpacked && !open(parity)) {
          aheadOk = false; // the final decode meets it again, and waits for the data
          return;
        }
        erased = java.util.Arrays.copyOf(erased, n);
        if (aheadErased == null) {
          aheadErased = erased;
          aheadOut = new byte[n][];
          for (int e = 0; e < n; e++) {
            aheadOut[e] = leases.scratch(count * pieceBytes);
          }
        } else if (!java.util.Arrays.equals(aheadErased, erased)) {
          aheadOk = false; // other pieces lag now: the final decode does it all
          return;
        }
        byte[][] in = new byte[k + d.getM()][]; // the rows not asked for stay null: not available
        for (Piece piece : pieces) {
          in[piece.index] = piece.array();
        }
        for (int e : erased) {
          in[e] = null;
        }
        for (int r = 0; r < m; r++) {
          in[k + r] = parityBytes[r];
        }
        int at = c * pieceBytes;
        try {
          access.coder().decode(in, at, erased, aheadOut, at, len[c]);
        } catch (RuntimeException | LinkageError e) {
          aheadOk = false;
          return;
        }
        for (int e = 0; e < n; e++) {
          if (Crc32c.of(aheadOut[e], at, stored[c][erased[e]]) != p[c * m].dataCrc(erased[e])) {
            aheadOk = false;
            return;
          }
        }
        aheadRows++;
        if (aheadCopiedRows == c && guard.beginCopy()) {
          try {
            for (int e = 0; e < n; e++) {
              copyOut(erased[e], aheadOut[e], at, at + pieceBytes);
            }
            aheadCopiedRows = aheadRows;
          } finally {
            guard.endCopy();
          }
        }
      }
    }

    /**
     * Opens (if protected) and unpacks the parity values on the fetch's thread, when the
     * GET did not (it was asked for on a lag, and opened only once a row is to be decoded);
     * false if a value does not check out.
     */
    private boolean open(ParityValue[] values) {
      try {
        for (ParityValue v : values) {
          v.open();
        }
      } catch (org.pocache.cache.CorruptParityException e) {
        return false;
      }
      unpack(values);
      unpacked = true;
      return true;
    }

    private boolean decodeMissing(Outcome outcome) {
      ParityValue[] p = parity;
      if (!unpacked && !open(p)) {
        outcome.parityCorrupt = true; // forged or damaged: wait for the data
        return false;
      }
      codingFrom = clock.nanoTime();
      int k = d.getK();
      int m = askedParity();
      byte[][] in = new byte[k + d.getM()][]; // the rows not asked for stay null: not available
      int missing = 0;
      for (Piece piece : pieces) {
        in[piece.index] = piece.have() ? piece.array() : null;
        missing += piece.have() ? 0 : 1;
      }
      for (int r = 0; r < m; r++) {
        in[k + r] = parityBytes[r];
      }
      int[] erased = new int[missing];
      for (int i = 0, e = 0; i < k; i++) {
        if (!pieces[i].have()) {
          erased[e++] = i;
        }
      }
      byte[][] out = new byte[missing][];
      int first = 0;
      if (aheadOk && aheadRows > 0 && java.util.Arrays.equals(aheadErased, erased)) {
        out = aheadOut; // rows decoded ahead are done, and checked
        first = aheadRows;
        aheadUsed = true;
      } else {
        for (int e = 0; e < missing; e++) {
          out[e] = leases.scratch(count * pieceBytes);
        }
      }
      for (int c = first; c < count; c++) {
        int at = c * pieceBytes;
        try {
          access.coder().decode(in, at, erased, out, at, len[c]);
        } catch (RuntimeException | LinkageError e) {
          outcome.parityCorrupt = true; // parity that cannot even be decoded: wait for the data
          return false;
        }
        for (int e = 0; e < missing; e++) {
          int i = erased[e];
          finalDecodeBytes += stored[c][i];
          if (Crc32c.of(out[e], at, stored[c][i]) != p[c * m].dataCrc(i)) {
            outcome.parityCorrupt = true;
            return false; // never return bytes HDFS would not have returned
          }
        }
      }
      for (int e = 0; e < missing; e++) {
        // A late read still owns its array; the decoded bytes take its place.
        Piece piece = pieces[erased[e]];
        piece.decodedInto(out[e]);
        for (int c = 0; c < count; c++) {
          outcome.decoded += stored[c][piece.index] > 0 ? 1 : 0;
          outcome.decodedAhead += c < first && stored[c][piece.index] > 0 ? 1 : 0;
        }
      }
      return true;
    }
  }
}
