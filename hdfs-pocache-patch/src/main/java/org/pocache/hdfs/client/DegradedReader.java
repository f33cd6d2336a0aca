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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.PositionedReadable;
import org.pocache.cache.Crc32c;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParitySeal;
import org.pocache.cache.ParityValue;
import org.pocache.coder.layout.StripeLayout;
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
 * <p><b>Size.</b> One class because its two races (one subblock, a run of subblocks)
 * share the deadline estimates and the backlog rules.
 */
final class DegradedReader {
  private static final Logger LOG = LoggerFactory.getLogger(DegradedReader.class);
  /**
   * A DataNode stream slower than this (bytes a second) leaves the client's CPU idle enough
   * that reading a range's blocks at once pays for the pool's threads and copies.
   */
  static final double PARALLEL_BELOW_BYTES_PER_S = 256.0 * (1 << 20);
  private final PositionedReadable data;
  /** The data for a rebuild's reads of the other pieces (see {@link ReadContext#rebuildData}). */
  private final PositionedReadable rebuildData;
  private final ParityDescriptor d;
  /** How the file's parity values are sealed (the file key from its descriptor). */
  private final ParitySeal seal;
  private final StripeLayout layout;
  private final ParityAccess access;
  private final ExecutorService pool;
  private final BufferPool buffers;
  private final SlowSources sources;
  private final PieceLocations locations;
  private final double deadlineFactor;
  private final long minDeadlineMillis;
  /** Straight reads of ranges of blocks (null: HDFS's positional reads), for {@link #readLazy}. */
  private final DirectBlockReads direct;
  /** Recent time to read one subblock from a DataNode, shared by the file system's streams. */
  private final SubblockTimes times;
  /** dfs.pocache.read.proactive lazy: positional reads are {@link #readLazy} while nothing is suspect. */
  private final boolean lazy;
  /** Exponentially weighted mean of direct subblock read times, nanoseconds (0: none yet). */
  private volatile double meanNanos;
  /** The same for direct reads of part of a subblock (short positional reads), which take far less. */
  private volatile double meanPartNanos;

  DegradedReader(ReadContext ctx, double deadlineFactor) {
    this.times = ctx.times;
    this.data = ctx.data;
    this.rebuildData = ctx.rebuildData;
    this.d = ctx.descriptor;
    this.seal = ctx.seal;
    this.layout = ctx.layout;
    this.access = ctx.parity;
    this.pool = ctx.pool;
    this.buffers = ctx.buffers;
    this.sources = ctx.sources;
    this.locations = ctx.locations;
    this.deadlineFactor = deadlineFactor;
    this.minDeadlineMillis = ctx.minDeadlineMillis;
    this.direct = ctx.direct;
    this.lazy = ctx.lazy;
  }

  /** Closes what the rebuilds read through, if it is a stream of its own; the stream's close calls it. */
  void close() throws IOException {
    if (rebuildData != data && rebuildData instanceof java.io.Closeable) {
      ((java.io.Closeable) rebuildData).close();
    }
  }

  /** Whether positional reads are {@link #readLazy} while nothing is suspect. */
  boolean lazy() {
    return lazy;
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
   * A positional read covering no whole substripe, while no DataNode is suspect (none
   * listed, none late for this client, no backlog): HDFS's own read of the range, on the
   * caller's thread and into the caller's buffer, at HDFS's cost. Timed when it lies in
   * one block: past the deadline (scaled to its subblocks), its DataNode becomes suspect
   * and the reads after it race rebuilds. Returns false, having read nothing, when some
   * DataNode is suspect: the range is then read subblock by subblock, raced.
   */
  boolean readPlain(long position, byte[] dst, int dstOff, int len) throws IOException {
    if (sources.judging()) {
      return false;
    }
    org.pocache.coder.layout.SubblockAddress first = layout.locate(position);
    org.pocache.coder.layout.SubblockAddress last = layout.locate(position + len - 1);
    boolean oneBlock = first.stripe == last.stripe && first.dataIndex == last.dataIndex;
    List<String> where = oneBlock ? locations.of(first.stripe, first.dataIndex) : java.util.Collections.emptyList();
    Runnable inFlight = oneBlock ? sources.reading(where, len) : null;
    long t0 = System.nanoTime();
    try {
      data.readFully(position, dst, dstOff, len);
    } finally {
      if (inFlight != null) {
        inFlight.run();
      }
    }
    if (oneBlock) {
      long took = System.nanoTime() - t0;
      int subblock = layout.subblockSize();
      int subblocks = (len + subblock - 1) / subblock;
      boolean part = len < subblock;
      sources.observed(where, len, took);
      if (took > deadlineNanos(part) * subblocks) {
        sources.served(where, true);
      } else {
        learn(part, took / subblocks);
      }
    }
    return true;
  }

  /**
   * A positional read of any length while no DataNode is suspect, when positional reads
   * are lazy (dfs.pocache.read.proactive): HDFS's own read, on the caller's thread and
   * straight into the caller's buffer (no pool threads, no second copy), one block's part
   * at a time. Each part is timed while its bytes arrive: once it has taken longer than
   * the deadline for each subblock it has begun, its read stops, its DataNode becomes
   * suspect, and what is left of the range is the caller's to read raced (proactively);
   * a part whose DataNodes all fail at once (down, restarting) does the same. Returns how
   * many bytes from {@code position} are in {@code dst}: all, fewer, or 0 when some
   * DataNode was suspect already.
   */
  int readLazy(long position, byte[] dst, int dstOff, int len) throws IOException {
    long blockSize = layout.blockSize();
    int subblock = layout.subblockSize();
    int done = 0;
    while (done < len && !sources.judging()) {
      long at = position + done;
      int n = (int) Math.min(len - done, (at / blockSize + 1) * blockSize - at);
      org.pocache.coder.layout.SubblockAddress a = layout.locate(at);
      List<String> where = locations.of(a.stripe, a.dataIndex);
      boolean part = n < subblock;
      LazyWatch watch = new LazyWatch(lazyDeadlinePerSubblock(part), TimeUnit.MILLISECONDS.toNanos(minDeadlineMillis),
          subblock);
      Runnable inFlight = sources.reading(where, n);
      boolean whole = false;
      try {
        if (direct != null) {
          direct.readRange(at, dst, dstOff + done, n, watch);
        } else {
          data.readFully(at, dst, dstOff + done, n);
        }
        whole = true;
      } catch (DirectBlockReads.Stopped e) {
        // late: the rest of the range is read raced
      } catch (IOException e) {
        if (direct == null) {
          throw e; // HDFS's own read failed, after its retries: its error is the caller's
        }
        LOG.debug("a lazy positional read of {} bytes at {} failed on {}; the rest is read raced", n, at, where, e);
      } finally {
        if (inFlight != null) {
          inFlight.run();
        }
      }
      long took = System.nanoTime() - watch.began;
      if (!whole) {
        sources.observed(where, Math.max(watch.in, 1), took);
        sources.served(where, true);
        return done + watch.in;
      }
      done += n;
      int subblocks = (n + subblock - 1) / subblock;
      sources.observed(where, n, took);
      if (took > watch.limit(n)) {
        sources.served(where, true);
      } else {
        learn(part, took / subblocks);
        if (!part) {
          times.learn(took / subblocks);
        }
      }
    }
    return done;
  }

  /**
   * Whether a positional read of {@code length} bytes at {@code position} is better read
   * proactively even with no DataNode suspect: it spans several blocks and this client's
   * recent subblocks arrived slower than {@link #PARALLEL_BELOW_BYTES_PER_S} each. The
   * DataNodes then set the pace, not the client's CPU, and the blocks read at once (k
   * pieces on the read pool) take about the time of one; read lazily, one after the other,
   * they take the time of all, as stock HDFS's positional read does.
   */
  boolean parallelPays(long position, int length) {
    return parallelPays(position, length, layout.blockSize(), layout.subblockSize(), times);
  }

  /** {@link #parallelPays(long, int)} for blocks and subblocks of these sizes and these subblock times. */
  static boolean parallelPays(long position, int length, long blockSize, int subblock,
      SubblockTimes times) {
    if (length <= 0 || position / blockSize == (position + length - 1) / blockSize) {
      return false;
    }
    return times.slowerThan((long) (subblock * 1e9 / PARALLEL_BELOW_BYTES_PER_S));
  }

  /**
   * A lazy read's deadline per subblock: the recent mean times the deadline factor (none
   * timed yet: a second). Its floor applies once to the whole read, not per subblock, so
   * that a DataNode ten times slower than its peers at page-cache speeds (a subblock in a
   * few milliseconds, under the floor) is late after a few subblocks.
   */
  private long lazyDeadlinePerSubblock(boolean part) {
    double mean = part ? meanPartNanos : meanNanos;
    return mean == 0 ? TimeUnit.SECONDS.toNanos(1) : (long) (mean * deadlineFactor);
  }

  /** Times a lazy read while it reads: late once past the deadline of the subblocks it has begun. */
  private static final class LazyWatch implements DirectBlockReads.Watch {
    final long began = System.nanoTime();
    final long perSubblock;
    final long floor;
    final int subblock;
    /** Bytes known to be in (reported every {@link DirectBlockReads#STREAM_BYTES} or so). */
    int in;

    LazyWatch(long perSubblock, long floor, int subblock) {
      this.perSubblock = perSubblock;
      this.floor = floor;
      this.subblock = subblock;
    }

    /** The time {@code bytes} may take: the per-subblock deadline for each subblock begun, at least the floor. */
    long limit(long bytes) {
      return Math.max(floor, perSubblock * ((bytes + subblock - 1) / subblock));
    }

    @Override
    public void firstCell() {
    }

    @Override
    public boolean unwanted() {
      return System.nanoTime() - began > limit((long) in + 1);
    }

    @Override
    public boolean rescuable() {
      return true; // a cached file's parity stands in for a DataNode that is down
    }

    @Override
    public void arrived(int from, int to) {
      in = to;
    }
  }

  /** One degraded subblock read: the direct read against a rebuild, first good answer wins. */
  private final class Race {
    final long s;
    final int j;
    final int i;
    final int n;
    /** The range of the piece wanted: [from, from + count). */
    final int from;
    final int count;
    final boolean part;
    final int len;
    final long at;
    final int pieceBytes;
    final Leases leases = new Leases(buffers);
    final CompletionService<Integer> race = new ExecutorCompletionService<>(pool);
    byte[] direct;
    int pending;
    /** Whether the direct read has ended; what ends its place in the backlog once abandoned. Guarded by this. */
    private boolean directEnded;
    private Runnable directBacklog;

    Race(long s, int j, int i, int n, int from, int count) {
      this.s = s;
      this.j = j;
      this.i = i;
      this.n = n;
      this.from = from;
      this.count = count;
      this.part = count < n;
      this.len = layout.parityLength(s, j);
      this.at = layout.fileOffset(s, j, i, 0);
      this.pieceBytes = Math.max(len, layout.subblockSize());
    }

    void run(byte[] dst, int dstOff, ProactiveReader.Outcome outcome) throws IOException, InterruptedException {
      int k = d.getK();
      int m = d.getM();
      long t0 = System.nanoTime();
      if (!onStraggler(s, i) && (sources.backlog() == 0 || !sources.backlogged(locations.of(s, i)))) {
        startDirect();
        Future<Integer> first = race.poll(deadlineNanos(part), TimeUnit.NANOSECONDS);
        if (first != null) {
          pending--;
          take(first); // throws the direct read's error: nothing else is running
          learn(part, System.nanoTime() - t0);
          sources.onTime(locations.of(s, i));
          System.arraycopy(direct, 0, dst, dstOff, count);
          return;
        }
      }
      // A known straggler, or late: rebuild from the other k - 1 pieces and the parity.
      byte[][] pieces = new byte[k + m][];
      ParityValue[][] parity = new ParityValue[1][];
      int rebuildInputs = 0;
      for (int x = 0; x < k; x++) {
        if (x != i) {
          int nx = layout.storedLength(s, j, x);
          if (nx > 0) {
            byte[] b = leases.forTask(pieceBytes);
            java.util.Arrays.fill(b, nx, len, (byte) 0);
            pieces[x] = b;
            long ax = layout.fileOffset(s, j, x, 0);
            int tag = x;
            race.submit(() -> {
              try {
                long started = System.nanoTime();
                readObserved(rebuildData, ax, b, nx, locations.of(s, tag));
                sources.observed(locations.of(s, tag), nx, System.nanoTime() - started);
              } finally {
                leases.written(b);
              }
              return tag;
            });
            pending++;
            rebuildInputs++;
          } else {
            byte[] b = leases.scratch(pieceBytes);
            java.util.Arrays.fill(b, 0, len, (byte) 0); // a piece of virtual zeros
            pieces[x] = b;
          }
        }
      }
      race.submit(() -> {
        List<ParityKey> keys = new ArrayList<>(m);
        for (int p = 0; p < m; p++) {
          keys.add(access.store().key(d.getKeyPrefix(), seal, d.getFileId(), d.getGeneration(), (int) s, j, p));
        }
        parity[0] = access.store().getAll(keys);
        return PARITY;
      });
      pending++;
      rebuildInputs++;
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
            if (err.getCause() instanceof org.pocache.cache.CorruptParityException) {
              outcome.parityCorrupt = true; // told to the Manager, which drops the values
            } else {
              outcome.cacheError = true;
            }
            if (direct == null) {
              startDirect();
            }
          }
          if (pending == 0 || (rebuildDead && directError != null)) {
            break;
          }
          continue;
        }
        if (tag == DIRECT) {
          learn(part, System.nanoTime() - t0);
          System.arraycopy(direct, 0, dst, dstOff, count);
          return;
        }
        if (!rebuildDead && --rebuildInputs == 0) {
          byte[] rebuilt = decode(pieces, parity[0]);
          if (rebuilt != null) {
            outcome.decoded++;
            System.arraycopy(rebuilt, from, dst, dstOff, count);
            abandonDirect();
            return;
          }
          outcome.parityCorrupt = true; // never return bytes HDFS would not have returned
          rebuildDead = true;
          if (direct == null) {
            startDirect();
          }
        }
      }
      if (directError != null) {
        throw directError.getCause() instanceof IOException ? (IOException) directError.getCause() : directError;
      }
      throw new IOException("no source left for " + count + " bytes of " + d.getPath() + " at " + (at + from));
    }

    private void startDirect() {
      byte[] b = leases.forTask(part ? count : pieceBytes);
      direct = b;
      race.submit(() -> {
        try {
          long t0 = System.nanoTime();
          readObserved(data, at + from, b, count, locations.of(s, i));
          sources.observed(locations.of(s, i), count, System.nanoTime() - t0);
        } catch (IOException e) {
          throw new DirectReadException(e);
        } finally {
          leases.written(b);
          directEnded();
        }
        return DIRECT;
      });
      pending++;
    }

    /** The rebuild answered while the direct read still runs: it joins its DataNode's backlog until it ends. */
    private synchronized void abandonDirect() {
      if (direct != null && !directEnded && directBacklog == null) {
        directBacklog = sources.abandoned(locations.of(s, i));
      }
    }

    private synchronized void directEnded() {
      directEnded = true;
      if (directBacklog != null) {
        directBacklog.run();
        directBacklog = null;
      }
    }

    /** Data piece i from the other pieces and the parity; null if it fails its CRC. */
    private byte[] decode(byte[][] pieces, ParityValue[] parity) {
      int k = d.getK();
      int m = d.getM();
      for (int p = 0; p < m; p++) {
        if (parity == null || parity[p] == null || parity[p].payloadLength() != len) {
          return null;
        }
        byte[] b = leases.scratch(pieceBytes);
        parity[p].copyPayloadTo(b, 0);
        pieces[k + p] = b;
      }
      byte[][] out = {leases.scratch(pieceBytes)};
      try {
        access.coder().decode(pieces, 0, new int[] {i}, out, 0, len);
      } catch (RuntimeException | LinkageError e) {
        return null; // treated like a CRC mismatch: the direct read answers
      }
      return Crc32c.of(out[0], 0, n) == parity[0].dataCrc(i) ? out[0] : null;
    }
  }

  /**
   * Rebuilds data subblock (s, j, i) from the other k - 1 pieces and the parity,
   * without reading piece i at all, on the pool: the other pieces' reads and the
   * parity GET are issued together and the last one to arrive decodes. The future
   * holds an array from the buffer pool with the piece's stored bytes at [0, n)
   * (the caller releases it), or null when the rebuild cannot answer (parity
   * missing or damaged, another piece failed); it never completes exceptionally.
   * {@code readsLeft}, if not null, counts the other pieces' reads not yet ended.
   * {@code held}, if not null, serves the other pieces it holds from memory and is
   * offered the ones read from DataNodes.
   */
  java.util.concurrent.CompletableFuture<byte[]> rebuild(long s, int j, int i, ProactiveReader.Outcome outcome,
      java.util.concurrent.atomic.AtomicInteger readsLeft, Held held) {
    java.util.concurrent.CompletableFuture<byte[]> result = new java.util.concurrent.CompletableFuture<>();
    int k = d.getK();
    int m = d.getM();
    int n = layout.storedLength(s, j, i);
    int len = layout.parityLength(s, j);
    int pieceBytes = Math.max(len, layout.subblockSize());
    byte[][] pieces = new byte[k + m][];
    ParityValue[][] parity = new ParityValue[1][];
    java.util.concurrent.atomic.AtomicInteger inputs = new java.util.concurrent.atomic.AtomicInteger(1);
    java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
    List<Runnable> reads = new ArrayList<>();
    for (int x = 0; x < k; x++) {
      if (x == i) {
        continue;
      }
      int nx = layout.storedLength(s, j, x);
      byte[] b = buffers.borrow(pieceBytes);
      java.util.Arrays.fill(b, nx, len, (byte) 0); // virtual zeros past the stored bytes
      pieces[x] = b;
      if (nx > 0) {
        long ax = layout.fileOffset(s, j, x, 0);
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
            readObserved(rebuildData, ax, b, nx, locations.of(s, tag));
            sources.observed(locations.of(s, tag), nx, System.nanoTime() - started);
            synchronized (outcome) {
              outcome.rebuildInputBytes += nx;
            }
            if (held != null) {
              held.offer(ax, b, nx);
            }
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
          keys.add(access.store().key(d.getKeyPrefix(), seal, d.getFileId(), d.getGeneration(), (int) s, j, p));
        }
        parity[0] = access.store().getAll(keys);
      } catch (org.pocache.cache.ParityStoreException | RuntimeException | LinkageError e) {
        failed.set(true);
        outcome.cacheErrorSeen();
        LOG.debug("rebuild of piece {} of substripe ({}, {}): its parity could not be read", i, s, j, e);
      }
    });
    Runnable last = () -> {
      byte[] out = null;
      try {
        if (!failed.get()) {
          out = decodeInto(pieces, parity[0], i, n, len, pieceBytes);
          if (out == null) {
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
          buffers.release(pieces[x]);
        }
        result.complete(out);
      }
    };
    for (Runnable r : reads) {
      try {
        pool.execute(() -> {
          try {
            r.run();
          } finally {
            if (inputs.decrementAndGet() == 0) {
              last.run();
            }
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException closed) {
        failed.set(true);
        if (inputs.decrementAndGet() == 0) {
          last.run();
        }
      }
    }
    return result;
  }

  /**
   * File bytes a reader holds in memory, for its rebuilds' reads of the other pieces: a
   * sequential reader that rebuilds a block would otherwise read the stripe's other
   * blocks twice, once for the rebuilds and once for itself. Called on the pool's threads.
   */
  interface Held {
    /** Copies file bytes {@code [at, at + n)} into {@code b} and returns true if all of them are held. */
    boolean copy(long at, byte[] b, int n);

    /** A rebuild read file bytes {@code [at, at + n)} (in {@code b}) from their DataNode: keep them if wanted. */
    void offer(long at, byte[] b, int n);
  }

  /** Piece i decoded into a pooled array, or null if parity is unusable or it fails its CRC. */
  private byte[] decodeInto(byte[][] pieces, ParityValue[] parity, int i, int n, int len, int pieceBytes) {
    int k = d.getK();
    int m = d.getM();
    for (int p = 0; p < m; p++) {
      if (parity == null || parity[p] == null || parity[p].payloadLength() != len) {
        return null;
      }
      byte[] b = buffers.borrow(pieceBytes);
      parity[p].copyPayloadTo(b, 0);
      pieces[k + p] = b;
    }
    byte[][] out = {buffers.borrow(pieceBytes)};
    try {
      access.coder().decode(pieces, 0, new int[] {i}, out, 0, len);
    } catch (RuntimeException | LinkageError e) {
      buffers.release(out[0]);
      return null;
    }
    if (Crc32c.of(out[0], 0, n) != parity[0].dataCrc(i)) {
      buffers.release(out[0]);
      return null; // never return bytes HDFS would not have returned
    }
    return out[0];
  }

  /** Whether every DataNode holding data piece (s, i) is on the Manager's straggler list. */
  boolean listedStraggler(long s, int i) {
    return onStraggler(s, i);
  }

  /** Whether every DataNode holding data piece (s, i) is listed, on clients' reads of it. */
  boolean seenSlowByClients(long s, int i) {
    // Nothing listed (the common case): the piece's DataNodes need not be located.
    return !sources.listed().isEmpty() && sources.seenSlowByClients(locations.of(s, i));
  }

  /**
   * Whether data piece (s, other) can only be read from DataNodes that also hold data
   * piece (s, i): a rebuild of i that needs it waits on the DataNode i is slow on.
   * With replication 1 and HDFS's random placement, blocks of one stripe often share a
   * DataNode.
   */
  boolean sameDataNodes(long s, int i, int other) {
    List<String> slow = locations.of(s, i);
    List<String> input = locations.of(s, other);
    return !slow.isEmpty() && !input.isEmpty() && slow.containsAll(input);
  }

  /** Whether any DataNode is suspect for this client (listed, late in its reads, or backlogged). */
  boolean anySuspect() {
    return sources.judging();
  }

  /**
   * Whether to leave data piece (s, i) to parity from its first byte: its DataNodes are
   * listed, or were late for this client (see {@link SlowSources#skip}).
   */
  boolean leaveToParity(long s, int i) {
    return sources.skip(locations.of(s, i));
  }

  /** Reads {@code n} bytes at {@code at} into {@code b}, counted in flight on {@code where} while it runs. */
  private void readObserved(PositionedReadable from, long at, byte[] b, int n, List<String> where)
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

  /**
   * Bytes {@code [at, at + n)} of the file (at most a subblock) read as HDFS reads them, from
   * their own block's DataNodes, on the pool into a pooled array; null if the read failed.
   * A sequential read races a late rebuild with this when its stream is busy elsewhere.
   */
  java.util.concurrent.CompletableFuture<byte[]> readRange(long at, int n) {
    java.util.concurrent.CompletableFuture<byte[]> result = new java.util.concurrent.CompletableFuture<>();
    byte[] b = buffers.borrow(Math.max(n, layout.subblockSize()));
    try {
      pool.execute(() -> {
        try {
          rebuildData.readFully(at, b, 0, n); // what else could serve it is the rebuild it races
          result.complete(b);
        } catch (IOException | RuntimeException | LinkageError e) {
          buffers.release(b);
          result.complete(null);
          LOG.debug("reading [{}, +{}) to race a late rebuild failed", at, n, e);
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException closed) {
      buffers.release(b);
      result.complete(null);
    }
    return result;
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
    List<String> where = locations.of(s, i);
    if (bytes > 0) {
      sources.observed(where, bytes, nanos);
    }
    sources.served(where, late, beatRebuild);
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
    Set<String> slow = sources.listed();
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

  private long deadlineNanos(boolean part) {
    return Math.max(TimeUnit.MILLISECONDS.toNanos(minDeadlineMillis), lazyDeadlinePerSubblock(part));
  }

  private void learn(boolean part, long nanos) {
    if (part) {
      double m = meanPartNanos;
      meanPartNanos = m == 0 ? nanos : 0.8 * m + 0.2 * nanos;
    } else {
      double m = meanNanos;
      meanNanos = m == 0 ? nanos : 0.8 * m + 0.2 * nanos;
    }
  }
}
