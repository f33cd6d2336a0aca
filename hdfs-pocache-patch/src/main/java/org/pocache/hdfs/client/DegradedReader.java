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
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.hdfs.client.buffer.Leases;
import org.pocache.manager.protocol.ParityDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Degraded reads (POCache paper section 3.1) for reads that do not cover whole
 * substripes, such as a MapReduce record reader going through one block: one data
 * subblock at a time is read directly, and rebuilt from the other k - 1 data pieces
 * plus parity instead when its DataNode is on the Manager's straggler list, or when
 * the direct read misses a deadline of {@code deadlineFactor} times the recent
 * subblock read time (never less than {@code minDeadlineMillis}); then whichever
 * finishes first wins. A rebuilt piece must match the CRC32C stored with the
 * parity, or the direct read is awaited.
 *
 * <p>This class decides when a read races a rebuild. The rebuild itself is
 * {@link PieceRebuilds}; the deadlines are {@link PreadDeadlines}; HDFS's own positional
 * reads while no DataNode is suspect are {@link LazyPreads}.
 */
final class DegradedReader {
  private static final Logger LOG = LoggerFactory.getLogger(DegradedReader.class);
  /** What the file's readers share: its data, parity, layout, pools and what is known of slow DataNodes. */
  private final ReadContext ctx;
  private final ParityDescriptor d;
  private final StripeLayout layout;
  /** Rebuilds of a subblock from the other pieces and the parity. */
  private final PieceRebuilds rebuilds;
  /** When a direct read of a subblock is late, from this stream's recent direct reads. */
  private final PreadDeadlines deadlines;
  /** HDFS's own positional reads while nothing is suspect, timed against the same deadlines. */
  private final LazyPreads plain;

  DegradedReader(ReadContext ctx, double deadlineFactor) {
    this.ctx = ctx;
    this.d = ctx.descriptor;
    this.layout = ctx.layout;
    this.rebuilds = new PieceRebuilds(ctx);
    this.deadlines = new PreadDeadlines(deadlineFactor, ctx.minDeadlineMillis);
    this.plain = new LazyPreads(ctx, deadlines);
  }

  /** Closes what the rebuilds read through, if it is a stream of its own; the stream's close calls it. */
  void close() throws IOException {
    if (ctx.rebuildData != ctx.data && ctx.rebuildData instanceof java.io.Closeable) {
      ((java.io.Closeable) ctx.rebuildData).close();
    }
  }

  /** HDFS's own positional reads, for while no DataNode is suspect. */
  LazyPreads plain() {
    return plain;
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
    readRange(s, j, i, 0, n, dst, 0, outcome);
    return n;
  }

  /**
   * Reads {@code len} stored bytes of data subblock (s, j, i) from {@code from} on into
   * {@code dst} at {@code dstOff}: a short positional read. The direct read asks for
   * exactly that range; a rebuild needs the whole piece (its CRC covers the whole
   * piece), so it reads the other pieces' whole subblocks.
   */
  void readRange(long s, int j, int i, int from, int len, byte[] dst, int dstOff, ProactiveReader.Outcome outcome)
      throws IOException {
    int n = layout.storedLength(s, j, i);
    if (from < 0 || len <= 0 || from + len > n) {
      throw new IllegalArgumentException("range [" + from + ", " + (from + len) + ") outside the " + n
          + " stored bytes of subblock (" + s + ", " + j + ", " + i + ")");
    }
    Race r = new Race(s, j, i, n, from, len);
    try {
      r.run(dst, dstOff, outcome);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during a degraded read");
    } finally {
      r.leases.close(); // reads still running keep their arrays until they end
    }
  }

  /**
   * One degraded subblock read: the direct read against a rebuild, first good answer wins.
   * The direct read goes first, alone, unless its DataNode is listed or backlogged; past
   * its deadline a rebuild joins it. A rebuild that cannot answer leaves the direct read
   * to answer (started then if it was not); the read fails only when both have failed.
   */
  private final class Race {
    final long s;
    final int j;
    final int i;
    /** The range of the piece wanted: [from, from + count). */
    final int from;
    final int count;
    final boolean part;
    final long at;
    final int pieceBytes;
    final List<String> where;
    /** The direct read's array: a read that lost the race keeps writing into it after the caller moved on. */
    final Leases leases = new Leases(ctx.buffers);
    /** The direct read: its bytes, or its error (null: not started). */
    private CompletableFuture<byte[]> direct;
    /** The rebuild, until its array is taken (null: not started, or taken). */
    private CompletableFuture<byte[]> rebuilt;

    Race(long s, int j, int i, int n, int from, int count) {
      this.s = s;
      this.j = j;
      this.i = i;
      this.from = from;
      this.count = count;
      this.part = count < n;
      this.at = layout.fileOffset(s, j, i, 0);
      this.pieceBytes = Math.max(layout.parityLength(s, j), layout.subblockSize());
      this.where = ctx.locations.of(s, i);
    }

    void run(byte[] dst, int dstOff, ProactiveReader.Outcome outcome) throws IOException, InterruptedException {
      long t0 = System.nanoTime();
      try {
        if (!onStraggler(s, i) && (ctx.sources.backlog() == 0 || !ctx.sources.backlogged(where))) {
          startDirect();
          try {
            byte[] b = direct.get(deadlines.raceAfter(part), TimeUnit.NANOSECONDS);
            deadlines.learn(part, System.nanoTime() - t0);
            ctx.sources.onTime(where);
            System.arraycopy(b, 0, dst, dstOff, count);
            return;
          } catch (TimeoutException late) {
            // a known straggler's peers are not waited for: the rebuild joins the race
          } catch (ExecutionException e) {
            throw ioError(e); // nothing else is running
          }
        }
        rebuilt = rebuilds.rebuild(s, j, i, outcome, null, null);
        IOException directError = null;
        while (true) {
          awaitEither(directError == null ? direct : null, rebuilt);
          if (direct != null && directError == null && direct.isDone()) {
            try {
              byte[] b = direct.get();
              deadlines.learn(part, System.nanoTime() - t0);
              System.arraycopy(b, 0, dst, dstOff, count);
              return;
            } catch (ExecutionException e) {
              directError = ioError(e); // the rebuild, if alive, may still answer (a dead DataNode)
            }
          }
          if (rebuilt != null && rebuilt.isDone()) {
            byte[] b = rebuilt.join(); // never completes exceptionally
            rebuilt = null;
            if (b != null) {
              outcome.decoded++;
              System.arraycopy(b, from, dst, dstOff, count);
              ctx.buffers.release(b);
              abandonDirect();
              return;
            }
            if (direct == null) {
              startDirect(); // the rebuild could not answer: HDFS's own read does
            }
          }
          if (rebuilt == null && directError != null) {
            throw directError;
          }
        }
      } finally {
        if (rebuilt != null) { // lost the race, or the caller was interrupted: its array goes back when it ends
          rebuilt.thenAccept(b -> ctx.buffers.release(b));
        }
      }
    }

    private void startDirect() {
      byte[] b = leases.forTask(part ? count : pieceBytes);
      CompletableFuture<byte[]> f = new CompletableFuture<>();
      direct = f;
      try {
        ctx.pool.execute(() -> {
          try {
            long started = System.nanoTime();
            PieceRebuilds.readCounted(ctx.sources, ctx.data, at + from, b, count, where);
            ctx.sources.observed(where, count, System.nanoTime() - started);
            f.complete(b);
          } catch (IOException | RuntimeException | LinkageError e) {
            f.completeExceptionally(e);
          } finally {
            leases.written(b);
          }
        });
      } catch (RejectedExecutionException closed) {
        leases.written(b);
        f.completeExceptionally(new IOException("the read pool of " + d.getPath() + " is closed"));
      }
    }

    /** The rebuild answered while the direct read still runs: it joins its DataNode's backlog until it ends. */
    private void abandonDirect() {
      if (direct != null && !direct.isDone()) {
        Runnable backlog = ctx.sources.abandoned(where);
        if (backlog != null) {
          direct.whenComplete((b, e) -> backlog.run());
        }
      }
    }
  }

  /** Waits until one of the reads given (null: not waited for) has ended, however it ended. */
  private static void awaitEither(CompletableFuture<byte[]> a, CompletableFuture<byte[]> b)
      throws InterruptedException {
    CompletableFuture<?> either = a == null ? b : b == null ? a : CompletableFuture.anyOf(a, b);
    try {
      either.get();
    } catch (ExecutionException ended) {
      // the caller looks at which one ended, and how
    }
  }

  private static IOException ioError(ExecutionException e) {
    Throwable c = e.getCause();
    return c instanceof IOException ? (IOException) c : new IOException(c);
  }

  /** A rebuild of data subblock (s, j, i) (see {@link PieceRebuilds#rebuild}). */
  CompletableFuture<byte[]> rebuild(long s, int j, int i, ProactiveReader.Outcome outcome, AtomicInteger readsLeft,
      PieceRebuilds.Held held) {
    return rebuilds.rebuild(s, j, i, outcome, readsLeft, held);
  }

  /** Whether every DataNode holding data piece (s, i) is on the Manager's straggler list. */
  boolean listedStraggler(long s, int i) {
    return onStraggler(s, i);
  }

  /** Whether every DataNode holding data piece (s, i) is listed, on clients' reads of it. */
  boolean seenSlowByClients(long s, int i) {
    // Nothing listed (the common case): the piece's DataNodes need not be located.
    return !ctx.sources.listed().isEmpty() && ctx.sources.seenSlowByClients(ctx.locations.of(s, i));
  }

  /** Whether data piece (s, i)'s DataNodes are listed on their heartbeats alone (see {@link SlowSources}). */
  boolean listedOnHeartbeatsAlone(long s, int i) {
    return !ctx.sources.listed().isEmpty() && ctx.sources.listedOnHeartbeatsAlone(ctx.locations.of(s, i));
  }

  /**
   * Whether data piece (s, other) can only be read from DataNodes that also hold data
   * piece (s, i): a rebuild of i that needs it waits on the DataNode i is slow on.
   * With replication 1 and HDFS's random placement, blocks of one stripe often share a
   * DataNode.
   */
  boolean sameDataNodes(long s, int i, int other) {
    List<String> slow = ctx.locations.of(s, i);
    List<String> input = ctx.locations.of(s, other);
    return !slow.isEmpty() && !input.isEmpty() && slow.containsAll(input);
  }

  /** Whether data piece (s, i)'s DataNodes are suspect for this client; asks nothing that counts (no probe). */
  boolean suspect(long s, int i) {
    return ctx.sources.suspect(ctx.locations.of(s, i));
  }

  /** Whether any DataNode is suspect for this client (listed, late in its reads, or backlogged). */
  boolean anySuspect() {
    return ctx.sources.judging();
  }

  /**
   * Whether to leave data piece (s, i) to parity from its first byte: its DataNodes are
   * listed, or were late for this client (see {@link SlowSources#skip}).
   */
  boolean leaveToParity(long s, int i) {
    return ctx.sources.skip(ctx.locations.of(s, i));
  }

  /**
   * Bytes {@code [at, at + n)} of the file (at most a subblock) read as HDFS reads them, from
   * their own block's DataNodes, on the pool into a pooled array; null if the read failed.
   * A sequential read races a late rebuild with this when its stream is busy elsewhere.
   */
  CompletableFuture<byte[]> readRange(long at, int n) {
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    byte[] b = ctx.buffers.borrow(Math.max(n, layout.subblockSize()));
    try {
      ctx.pool.execute(() -> {
        try {
          ctx.rebuildData.readFully(at, b, 0, n); // what else could serve it is the rebuild it races
          result.complete(b);
        } catch (IOException | RuntimeException | LinkageError e) {
          ctx.buffers.release(b);
          result.complete(null);
          LOG.debug("reading [{}, +{}) to race a late rebuild failed", at, n, e);
        }
      });
    } catch (RejectedExecutionException closed) {
      ctx.buffers.release(b);
      result.complete(null);
    }
    return result;
  }

  /** A read of {@code bytes} of data piece (s, i) took {@code nanos}: for the Manager's read reports only. */
  void observed(long s, int i, long bytes, long nanos) {
    ctx.sources.observed(ctx.locations.of(s, i), bytes, nanos);
  }

  /**
   * This client's own reads of data piece (s, i) were late (or failed) until the rest of
   * its block was left to parity: a late outcome in its DataNode's history, so that the
   * next blocks on it, in this file and in the next, are left to parity from their start
   * once it is late often enough ({@link SlowSources#skip}).
   */
  void lateForThisClient(long s, int i) {
    ctx.sources.served(ctx.locations.of(s, i), true, false);
  }

  /** A streamed read of {@code bytes} of data piece (s, i) took {@code nanos}; {@code late}: parity beat it. */
  void streamed(long s, int i, long bytes, long nanos, boolean late) {
    streamed(s, i, bytes, nanos, late, false);
  }

  /**
   * As above; {@code beatRebuild}: the stream raced a rebuild of the same bytes and won, which
   * compares the DataNode with its peers (on time by the deadline alone does not: see
   * {@link SlowSources#served(List, boolean, boolean)}).
   */
  void streamed(long s, int i, long bytes, long nanos, boolean late, boolean beatRebuild) {
    List<String> where = ctx.locations.of(s, i);
    if (bytes > 0) {
      ctx.sources.observed(where, bytes, nanos);
    }
    ctx.sources.served(where, late, beatRebuild);
  }

  private boolean onStraggler(long s, int i) {
    Set<String> slow = ctx.sources.listed();
    if (slow.isEmpty()) {
      return false;
    }
    List<String> where = ctx.locations.of(s, i);
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
}
