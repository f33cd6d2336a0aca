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
import org.pocache.cache.ParityProtection;
import org.pocache.cache.ParitySeal;
import org.pocache.cache.ParityValue;
import org.pocache.coder.layout.StripeLayout;
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
 * <p><b>Size.</b> Long because Fetch is the read path's one state machine; its parts
 * that stand alone are classes of their own (Piece, CallerBufferGuard, LatenessJudge,
 * DecodeCost).
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

  /**
   * Put in a fetch's queue of finished reads when a read of several rows has its first
   * row: the piece's pace is known then, before the rest of the run arrives.
   */
  private static final Future<Integer> FIRST_ROW = java.util.concurrent.CompletableFuture.completedFuture(-2);

  /**
   * Put in a fetch's queue when a direct read has another whole row of its run in and the
   * parity is in: the rows up to m pieces lack are decoded as the others' come.
   */
  private static final Future<Integer> ROWS_IN = java.util.concurrent.CompletableFuture.completedFuture(-3);

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
   * (none for a slow source left to parity) and one GET of all their parity. Piece i's
   * array holds substripe j0 + c at offset c * S. A data read copies its piece into
   * the caller's buffer as soon as it arrives, so only pieces decoded are copied on
   * the caller's time; pieces arriving together copy at once, each to its own range.
   * Closing the fetch shuts its {@link CallerBufferGuard}, so after it no read touches
   * the caller's buffer again. Each piece has one {@link Piece.State}, changed only by
   * the thread completing the fetch.
   */
  private final class Fetch {
    final long s;
    final int j0;
    final int count;
    /** Parity length of each substripe of the run. */
    final int[] len;
    /** Stored bytes of piece i in substripe j0 + c: stored[c][i]. */
    final int[][] stored;
    final Leases leases = new Leases(buffers);
    final Piece[] pieces;
    /** Finished reads and GETs, and {@link #FIRST_ROW} marks. */
    final java.util.concurrent.BlockingQueue<Future<Integer>> finished =
        new java.util.concurrent.LinkedBlockingQueue<>();
    final CompletionService<Integer> done = new ExecutorCompletionService<>(pool, finished);
    final long born = System.nanoTime();
    final CallerBufferGuard guard = new CallerBufferGuard();
    final LatenessJudge judge;
    /** When the last data piece taken so far arrived, if any has. */
    long lastArrival;
    boolean anyArrived;
    /**
     * Pieces whose pace is known: their run's first row is in (or, read whole at once,
     * they arrived). When the last such was known, if any is. A piece still without its
     * first row well after its peers had theirs lags, and a run of rows need not wait
     * for its whole length to tell.
     */
    final boolean[] paced;
    /** Whether reads report their run's first row (direct reads of several rows). */
    final boolean firstRows;
    long lastPaced;
    boolean anyPaced;
    /** The parity GET; null until requested. */
    Future<Integer> parityGet;
    /** Whether the GET was not started with the data reads (no DataNode was suspect). */
    boolean parityDeferred;
    /** When the GET was started (System.nanoTime), 0 before. */
    long parityRequestedAt;
    /** When the parity GET ended (System.nanoTime), 0 before; for the trace. */
    volatile long parityAt;
    /** Why each piece was left to parity from the start (listed, backlog, history), or null; for the trace. */
    final String[] skippedFor;
    /** When the pieces in hand first sufficed, when the decode started and ended; 0 if not; for the trace. */
    long decodeFrom;
    long decodeTo;
    /** When decoding proper started, after any opening of the parity. */
    long codingFrom;
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
    /** What the completing thread took, in order; only at DEBUG. */
    final StringBuilder taken = LOG.isDebugEnabled() ? new StringBuilder() : null;
    /** Reads and the GET not yet taken from {@link #done}. */
    int outstanding;
    /** Parity value r of substripe j0 + c at c * m + r. */
    volatile ParityValue[] parity;
    /** Whether the parity task already opened (if protected) and unpacked the values; set before {@link #parity}. */
    volatile boolean unpacked;
    /** Parity r of the whole run, substripe j0 + c at offset c * S; filled by the GET when every value is usable. */
    final byte[][] parityBytes;
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
      judge = new LatenessJudge(sources, k, i -> locations.of(s, i), born, minDeadlineNanos / 2);
      pieces = new Piece[k];
      paced = new boolean[k];
      firstRows = direct != null && count > 1;
      parityBytes = new byte[m][];
      for (int r = 0; r < m; r++) {
        parityBytes[r] = leases.forTask(count * pieceBytes);
      }
      // A piece is left to parity on this client's history's word, or on the Manager's
      // list's, only while a parity piece stays spare for a DataNode nobody suspects yet:
      // with m = 1 either word alone is not enough, since when it is wrong (the straggler
      // moved on) and another piece is slow, the read waits for one of the two. Such a piece
      // is read, with the parity asked for at once, and its read stops as soon as it is
      // late. The two words together (listed, and late in this client's own last reads),
      // and a backlog of abandoned reads (the DataNode has not answered the reads it has),
      // may take all m.
      // A backlogged DataNode's piece is held: read as soon as the backlog shrinks, if
      // the fetch is not complete by then.
      boolean judging = sources.judging();
      boolean[] skipNow = new boolean[k];
      boolean[] holdNow = new boolean[k];
      skippedFor = new String[k];
      int skips = 0;
      for (int i = 0; i < k; i++) {
        if (total[i] > 0 && judging) {
          List<String> where = locations.of(s, i);
          boolean backlogged = sources.backlogged(where);
          boolean listed = sources.listedAll(where);
          int budget = backlogged || listed && sources.lateByOwnReads(where) ? m : m - 1;
          if (skips < budget && sources.skip(where)) {
            skipNow[i] = true;
            skippedFor[i] = backlogged ? "backlog" : listed ? "listed" : "history";
            holdNow[i] = backlogged;
            skips++;
          }
        }
      }
      // Without a suspect DataNode the parity is fetched only once a data piece lags
      // behind its peers (unless every read is to fetch it: dfs.pocache.read.proactive).
      // While some DataNode is suspect it comes with the data, and protected values are
      // opened in the background, since a decode is likely.
      if (judging || proactiveAlways) {
        requestParity(judging);
      } else {
        for (byte[] b : parityBytes) {
          leases.written(b); // no GET writes into them unless requested
        }
        parityDeferred = true;
      }
      for (int i = 0; i < k; i++) {
        if (total[i] > 0) {
          byte[] b = leases.forTask(count * pieceBytes);
          zeroPastStored(b, i); // the virtual zeros of a short piece
          pieces[i] = new Piece(i, total[i], b, Piece.State.SKIPPED);
          if (skipNow[i]) {
            leases.written(b); // no read writes into it unless started later
            if (holdNow[i]) {
              pieces[i].hold();
            }
          } else {
            startRead(pieces[i], false);
          }
        } else {
          // Nothing stored (a short file's stripe): the decoder reads zeros, never writes them.
          pieces[i] = new Piece(i, 0, Zeros.of(count * pieceBytes), Piece.State.VIRTUAL_ZERO);
        }
      }
    }

    /**
     * Starts the GET of the run's parity; {@code openNow}: open protected values in
     * the background too (a decode is likely).
     */
    private void requestParity(boolean openNow) {
      if (parityDeferred) {
        for (byte[] b : parityBytes) {
          leases.lend(b);
        }
      }
      parityRequestedAt = System.nanoTime();
      int m = askedParity();
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
        } finally {
          parityAt = System.nanoTime();
          for (byte[] b : parityBytes) {
            leases.written(b);
          }
        }
        return -1;
      });
      outstanding++;
    }

    private void zeroPastStored(byte[] b, int i) {
      for (int c = 0; c < count; c++) {
        if (stored[c][i] < len[c]) {
          java.util.Arrays.fill(b, c * pieceBytes + stored[c][i], c * pieceBytes + len[c], (byte) 0);
        }
      }
    }

    /** Starts piece p's read; {@code wasSkipped}: its array was set aside and goes back to a read after all. */
    private void startRead(Piece p, boolean wasSkipped) {
      int i = p.index;
      int n = p.bytes;
      long at = layout.fileOffset(s, j0, i, 0);
      byte[] b = p.array();
      if (wasSkipped) {
        leases.lend(b);
      }
      p.reading(done.submit(() -> {
        boolean ok = false;
        Runnable inFlight = sources.reading(locations.of(s, i), n);
        // Bytes of b already in the caller's buffer: a direct read passes them on as they come,
        // so that only its last bytes are copied after it ends.
        int[] streamed = {0};
        try {
          long t0 = System.nanoTime();
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
                  // Every row but the last is whole: rows below to / S are in. Told only once the
                  // parity is in: the fetch looks at the rows in when the parity arrives anyway.
                  if (p.rowsIn(Math.min(count - 1, to / pieceBytes)) && parity != null) {
                    finished.offer(ROWS_IN);
                  }
                }

                @Override
                public void firstCell() {
                  if (firstRows && p.firstRowAt(System.nanoTime())) {
                    finished.offer(FIRST_ROW);
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
            sources.observed(locations.of(s, i), n, System.nanoTime() - t0);
            throw e;
          } finally {
            if (inFlight != null) {
              inFlight.run();
            }
          }
          p.finishedAt(System.nanoTime());
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
        return i;
      }));
      outstanding++;
    }

    /**
     * The next finished read or GET; null when the fetch should look at its pieces
     * again ({@link #onWake}): a piece was read and the pieces still out are past the
     * {@link #lagDeadline} while a skipped piece or the parity waits to be asked for, or
     * a held piece's DataNode is due another look.
     */
    private Future<Integer> next() throws InterruptedException {
      boolean anySkipped = false;
      boolean anyHeld = false;
      for (Piece p : pieces) {
        anySkipped |= p.state() == Piece.State.SKIPPED;
        anyHeld |= p.state() == Piece.State.HELD;
      }
      long deadline = anySkipped || parityGet == null ? lagDeadline() : Long.MAX_VALUE;
      boolean watchLag = deadline != Long.MAX_VALUE;
      if (!watchLag && !anyHeld) {
        return done.take();
      }
      long timeout = HELD_RECHECK_NANOS;
      if (watchLag) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return done.poll();
        }
        timeout = anyHeld ? Math.min(left, HELD_RECHECK_NANOS) : left;
      }
      return done.poll(timeout, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /**
     * When the pieces still out count as lagging behind those that arrived, or
     * {@code Long.MAX_VALUE} while none can (nothing arrived yet). For a skipped piece,
     * half the time the arrivals took (at least the minimum deadline): reading it costs
     * its DataNode a read. For parity not yet asked for (nothing was suspect), as long
     * again as the arrivals took (at least the minimum deadline). A piece still without
     * its run's first row that long after its peers had theirs lags too (for a skipped
     * piece, a quarter, and only if the parity cannot stand in for both), so a run of rows
     * tells a lagging piece by its first row, as a fetch of one row would, not by the
     * whole run.
     */
    private long lagDeadline() {
      if (parityGet != null) {
        long at = anyArrived ? lastArrival + Math.max(minDeadlineNanos, (lastArrival - born) / 2) : Long.MAX_VALUE;
        if (anyPaced && unpacedAndSkipped() > askedParity()) {
          at = Math.min(at, lastPaced + Math.max(minDeadlineNanos / 4, (lastPaced - born) / 4));
        }
        return at;
      }
      // Parity not asked for: no DataNode was suspect when the fetch began. A piece lags
      // once it is out twice as long as its peers took, and at least the minimum deadline
      // after them: a piece a few milliseconds behind is the machine's scheduling, not a
      // straggler (on busy cores it is routine), and parity fetched for it costs the GET
      // and often a decode. A straggler unknown so far is still left behind early (a tenth
      // of its peers' pace costs it ten times their time); its lateness then makes it
      // suspect, and the fetches after this one ask for the parity at once.
      long at = Long.MAX_VALUE;
      if (anyArrived) {
        at = lastArrival + Math.max(minDeadlineNanos, lastArrival - born);
      }
      if (anyPaced && someReadUnpaced()) {
        at = Math.min(at, lastPaced + Math.max(minDeadlineNanos, lastPaced - born));
      }
      return at;
    }

    /** Pieces being read that have not shown their pace yet, and pieces left to parity. */
    private int unpacedAndSkipped() {
      int n = 0;
      for (Piece p : pieces) {
        n += p.state() == Piece.State.READING && !paced[p.index] || p.leftToParity() ? 1 : 0;
      }
      return n;
    }

    /** Whether a piece being read has not shown its pace yet. */
    private boolean someReadUnpaced() {
      for (Piece p : pieces) {
        if (p.state() == Piece.State.READING && !paced[p.index]) {
          return true;
        }
      }
      return false;
    }

    /** Piece i's pace is known as of {@code at}. */
    private void paced(int i, long at) {
      if (!paced[i]) {
        paced[i] = true;
        lastPaced = anyPaced ? Math.max(lastPaced, at) : at;
        anyPaced = true;
      }
    }

    /** Takes in the first rows that reads reported (a {@link #FIRST_ROW} mark was taken). */
    private void firstRows() {
      for (Piece p : pieces) {
        if (p.state() == Piece.State.READING && p.firstRowAt() != 0) {
          paced(p.index, p.firstRowAt());
        }
      }
    }

    /**
     * {@link #next} found nothing finished: past the lag deadline the parity is asked
     * for if it was not, else the skipped pieces are read after all (the skip may rest
     * on stale history: the straggler moved); and held pieces whose DataNode has worked
     * its backlog off are read.
     */
    private void onWake() {
      boolean lagging = System.nanoTime() >= lagDeadline();
      if (lagging && parityGet == null) {
        requestParity(true); // a piece lags well behind its peers: the parity will likely stand in
      } else if (lagging) {
        startSkippedUnlessBacklogged();
      } else {
        for (Piece p : pieces) {
          if (p.state() == Piece.State.HELD && !sources.backlogged(locations.of(s, p.index))) {
            startRead(p, true);
          }
        }
      }
    }

    /** Starts the reads left to parity; false if there were none. */
    private boolean startSkipped() {
      boolean any = false;
      for (Piece p : pieces) {
        if (p.leftToParity()) {
          startRead(p, true);
          any = true;
        }
      }
      return any;
    }

    /**
     * Starts the reads left to parity because a piece that was read lags (the skip may
     * rest on stale history), except those on a DataNode with a backlog of abandoned
     * reads: it has not answered the reads it has. Those are held, and looked at again
     * every {@link #HELD_RECHECK_NANOS} until the backlog shrinks (or parity fails:
     * {@link #startSkipped}).
     */
    private void startSkippedUnlessBacklogged() {
      for (Piece p : pieces) {
        if (p.leftToParity()) {
          if (sources.backlogged(locations.of(s, p.index))) {
            p.hold();
          } else {
            startRead(p, true);
          }
        }
      }
    }

    /** Copies piece i (from {@code from}) into the caller's buffer; only inside the guard, or after it closed. */
    private void copyOut(int i, byte[] from) {
      copyOut(i, from, 0, count * pieceBytes);
    }

    /**
     * Copies bytes {@code [lo, hi)} of piece i's array (row c at {@code c * pieceBytes})
     * into the caller's buffer, stored bytes only; under the same rule as the whole copy.
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

    private int missing() {
      int n = 0;
      for (Piece p : pieces) {
        n += p.have() ? 0 : 1;
      }
      return n;
    }

    void complete(Outcome outcome) throws IOException {
      int m = askedParity();
      boolean parityOk = false;
      IOException dataError = null;
      outcome.substripes += count;
      long decodableAt = 0;
      try {
        while (true) {
          int missing = missing();
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
              onWake();
              continue;
            }
          }
          if (f == FIRST_ROW) {
            if (taken != null) {
              taken.append(" row@").append(ms(System.nanoTime()));
            }
            firstRows();
            continue;
          }
          if (f == ROWS_IN) {
            if (parityOk) {
              decodeAhead();
            }
            continue;
          }
          outstanding--;
          if (taken != null) {
            taken.append(' ').append(f == parityGet ? "P" : "?").append('@').append(ms(System.nanoTime()));
          }
          try {
            int i = f.get();
            if (taken != null && i >= 0) {
              taken.append("=d").append(i);
            }
            if (i < 0) {
              parityOk = usable(outcome);
              if (!parityOk) {
                startSkipped(); // parity cannot stand in for them: read them after all
              } else {
                decodeAhead();
              }
            } else {
              Piece p = pieces[i];
              p.arrived();
              lastArrival = anyArrived ? Math.max(lastArrival, p.arrivedAt()) : p.arrivedAt();
              anyArrived = true;
              paced(i, p.firstRowAt() != 0 ? p.firstRowAt() : p.arrivedAt());
              if (parityOk) {
                decodeAhead();
              }
            }
          } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (f == parityGet) {
              outcome.parityCorrupt |= c instanceof org.pocache.cache.CorruptParityException;
              outcome.cacheError |= !(c instanceof org.pocache.cache.CorruptParityException);
              startSkipped();
            } else {
              dataError = c instanceof IOException ? (IOException) c : new IOException(c);
              if (parityGet == null) {
                requestParity(true); // the failed piece may be rebuilt
              }
              for (Piece p : pieces) {
                if (p.read() == f) {
                  p.failed(); // nothing more to wait for from it
                }
              }
              startSkipped(); // rebuilding the failed piece needs every other one
            }
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted during a proactive read");
      }
      int missing = missing();
      if (missing > 0 && !(parityOk && missing <= m && decode(outcome))) {
        // Parity could not stand in: the data pieces themselves, as vanilla HDFS would.
        if (dataError != null) {
          throw dataError;
        }
        startSkipped();
        waitForData();
      }
      guard.closeAndAwait(); // from here on the caller's buffer is the caller's alone
      for (Piece p : pieces) {
        if (!p.copied()) {
          // Decoded (its rows decoded ahead are in already), or virtual zeros (nothing stored).
          int from = aheadUsed && p.state() == Piece.State.DECODED ? aheadCopiedRows * pieceBytes : 0;
          copyOut(p.index, p.array(), from, count * pieceBytes);
        }
      }
      outcome.parityFetches += parityGet != null ? 1 : 0;
      outcome.parityValues += parityGet != null ? count * m : 0;
      if (LOG.isDebugEnabled()) {
        LOG.debug(trace(decodableAt));
      }
      long peersAt = anyArrived ? lastArrival : System.nanoTime();
      for (Piece p : pieces) {
        if (p.read() == null || !sources.judging() && p.state() != Piece.State.DECODED) {
          continue;
        }
        if (p.state() == Piece.State.DECODED) {
          judge.decoded(p.index, peersAt);
          // A read still running stops (a direct read does, between packets) once it is late
          // by the judge's measure, or at once if its pace so far cannot make it in time: a
          // straggler does not go on sending what nobody waits for, to slow the reads that
          // come after, as a DataNode that recovered would otherwise.
          p.unwantedFrom(LatenessJudge.stopAt(born, peersAt, p.startedAt(), p.rowsIn(), count,
              System.nanoTime()));
        } else {
          judge.onTime(p.index);
        }
      }
    }

    /**
     * One line on this fetch, milliseconds since it started: each piece's DataNode,
     * whether it was left to parity at the start, when its read started and its bytes
     * arrived (or its state), then the parity GET, when decoding became possible, the
     * decode, and the end.
     */
    private String trace(long decodableAt) {
      StringBuilder b = new StringBuilder("fetch stripe ").append(s).append(" substripes ").append(j0);
      if (count > 1) {
        b.append('-').append(j0 + count - 1);
      }
      for (Piece p : pieces) {
        b.append(" | d").append(p.index).append(' ').append(locations.of(s, p.index));
        if (skippedFor[p.index] != null) {
          b.append(" skipped(").append(skippedFor[p.index]).append(')');
        }
        if (p.startedAt() != 0) {
          b.append(" read@").append(ms(p.startedAt()));
        }
        if (p.firstRowAt() != 0) {
          b.append(" row1@").append(ms(p.firstRowAt()));
        }
        if (p.arrivedAt() != 0) {
          b.append(" arrived@").append(ms(p.arrivedAt()));
        }
        b.append(' ').append(p.state());
      }
      if (parityDeferred) {
        b.append(" | parity ").append(parityRequestedAt == 0 ? "never asked" : "asked@" + ms(parityRequestedAt));
      }
      b.append(" | parity@").append(parityAt == 0 ? "-" : ms(parityAt));
      if (decodableAt != 0) {
        b.append(" decodable@").append(ms(decodableAt));
      }
      if (aheadRows > 0) {
        b.append(" ahead ").append(aheadRows).append(aheadUsed ? " rows" : " rows unused");
      }
      if (decodeFrom != 0) {
        b.append(" decode@").append(ms(decodeFrom)).append('-').append(ms(decodeTo));
      }
      return b.append(" done@").append(ms(System.nanoTime())).append(" | taken").append(taken).toString();
    }

    private String ms(long nanos) {
      return String.format(java.util.Locale.ROOT, "%.1f", (nanos - born) / 1e6);
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
        if (v.payloadLength() != len[x / askedParity()]) {
          outcome.parityCorrupt = true;
          return false;
        }
      }
      return true;
    }

    /**
     * How long a decode of the pieces still missing is expected to take, if every one
     * of them has a read under way from a DataNode not suspected of being slow (0
     * otherwise: a skipped or failed piece is not coming, a suspect's is likely late).
     */
    private long graceNanos() {
      long bytes = 0;
      for (Piece p : pieces) {
        if (!p.have()) {
          if (p.state() != Piece.State.READING || sources.suspect(locations.of(s, p.index))
              || firstRows && anyPaced && !paced[p.index]) {
            // Not coming, from a DataNode that is likely slow, or without its first row
            // while its peers have their whole run: no wait is worth it.
            return 0;
          }
          bytes += p.bytes;
        }
      }
      return DecodeCost.expectedNanos(bytes);
    }

    /** Rebuilds the missing data pieces of every substripe; false if a result does not match its stored CRC. */
    private boolean decode(Outcome outcome) {
      decodeFrom = System.nanoTime();
      boolean ok = decodeMissing(outcome);
      decodeTo = System.nanoTime();
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
     * copies them into the caller's buffer: once the last of the others arrives, only its
     * last row is left to decode. Needs the parity in and unpacked (opened, if protected);
     * stops for good if the pieces missing a row change, or a row does not check out
     * against its data CRCs (the final decode then decides).
     */
    private void decodeAhead() {
      if (!aheadOk || !unpacked || parity == null) {
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
      codingFrom = System.nanoTime();
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

    private void waitForData() throws IOException {
      for (Piece p : pieces) {
        if (!p.have()) {
          try {
            p.read().get();
            p.arrived();
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
