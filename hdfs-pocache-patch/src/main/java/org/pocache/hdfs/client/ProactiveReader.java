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
import java.util.concurrent.TimeUnit;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.hdfs.client.read.FetchEngine;
import org.pocache.hdfs.client.read.FetchSettings;
import org.pocache.manager.protocol.ParityDescriptor;

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
 * substripes, and each run's {@link RunFetch} carries the decisions out: the reads, the
 * GET, decoding and copying.
 */
final class ProactiveReader {
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
    /** Of the substripes, those read by HDFS's own read (lazy positional reads, nothing suspect). */
    int lazy;
    /** Bytes of other pieces the sequential reader's rebuilds read from DataNodes. */
    long rebuildInputBytes;
    /** Bytes of other pieces those rebuilds took from memory the reader held already. */
    long heldInputBytes;
    /** Of those, bytes the caller had read that were handed to the rebuild without a copy. */
    long handedInputBytes;
    /** Bytes the sequential reader's caller took from pieces its rebuilds of an earlier block read. */
    long keptAheadBytes;
    boolean parityMissing;
    boolean parityCorrupt;
    boolean cacheError;

    synchronized void add(Outcome o) {
      substripes += o.substripes;
      decoded += o.decoded;
      decodedAhead += o.decodedAhead;
      parityFetches += o.parityFetches;
      parityValues += o.parityValues;
      lazy += o.lazy;
      rebuildInputBytes += o.rebuildInputBytes;
      heldInputBytes += o.heldInputBytes;
      handedInputBytes += o.handedInputBytes;
      keptAheadBytes += o.keptAheadBytes;
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

  /** What the file's readers share: its data, parity, layout, pools and what is known of slow DataNodes. */
  private final ReadContext ctx;
  private final ParityDescriptor d;
  private final StripeLayout layout;
  private final int inflight;
  private final FetchSettings settings;
  /** Length of every pooled piece array: a substripe's pieces never exceed a subblock. */
  private final int pieceBytes;

  ProactiveReader(ReadContext ctx, int inflight) {
    this.ctx = ctx;
    this.d = ctx.descriptor;
    this.layout = ctx.layout;
    this.inflight = inflight;
    this.settings = new FetchSettings(TimeUnit.MILLISECONDS.toNanos(ctx.minDeadlineMillis), HELD_RECHECK_NANOS,
        ctx.proactiveAlways);
    this.pieceBytes = layout.subblockSize();
  }

  /**
   * Parity pieces of each substripe a fetch asks for and can decode with: all m, or
   * {@code dfs.pocache.read.parity.pieces} if that is fewer (EC-Cache's late binding, k + that
   * many of the k + m pieces). Parity row r &lt; this is fetched; the rows past it stay in Redis.
   */
  int askedParity() {
    int m = d.getM();
    int asked = ctx.parityPieces;
    return asked > 0 && asked < m ? asked : m;
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
    Deque<RunFetch> window = new ArrayDeque<>();
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
          window.add(new RunFetch(ctx, settings, askedParity(), s, j0, count, pos, buf, off));
          if (count > 1 && window.size() >= 2) {
            break; // two runs in flight are enough to keep every DataNode busy
          }
        }
        RunFetch f = window.poll();
        try {
          f.complete(outcome);
        } finally {
          f.close();
        }
      }
    } finally {
      for (RunFetch f : window) {
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
          || (ctx.direct == null || !ctx.direct.striped())
          && layout.fileOffset(s, j, i, 0) != layout.fileOffset(s, j - 1, i, 0) + pieceBytes)) {
        return false;
      }
    }
    return true;
  }
}
