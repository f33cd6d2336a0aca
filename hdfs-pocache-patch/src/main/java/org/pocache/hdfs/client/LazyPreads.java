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
import java.util.Collections;
import java.util.List;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.coder.layout.SubblockAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Positional reads while no DataNode is suspect: HDFS's own read, on the caller's thread
 * and into the caller's buffer, at HDFS's cost, timed against the stream's
 * {@link PreadDeadlines}. A read that is late makes its DataNode suspect, and from then
 * on the stream's {@link DegradedReader} races rebuilds.
 */
final class LazyPreads {
  private static final Logger LOG = LoggerFactory.getLogger(LazyPreads.class);
  /**
   * A DataNode stream slower than this (bytes a second) leaves the client's CPU idle enough
   * that reading a range's blocks at once pays for the pool's threads and copies.
   */
  static final double PARALLEL_BELOW_BYTES_PER_S = 256.0 * (1 << 20);
  /** What the file's readers share: its data, layout, pools and what is known of slow DataNodes. */
  private final ReadContext ctx;
  private final StripeLayout layout;
  private final PreadDeadlines deadlines;

  LazyPreads(ReadContext ctx, PreadDeadlines deadlines) {
    this.ctx = ctx;
    this.layout = ctx.layout;
    this.deadlines = deadlines;
  }

  /** Whether positional reads are {@link #readLazy} while nothing is suspect (dfs.pocache.read.proactive lazy). */
  boolean lazy() {
    return ctx.lazy;
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
    if (ctx.sources.judging()) {
      return false;
    }
    SubblockAddress first = layout.locate(position);
    SubblockAddress last = layout.locate(position + len - 1);
    boolean oneBlock = first.stripe == last.stripe && first.dataIndex == last.dataIndex;
    List<String> where = oneBlock ? ctx.locations.of(first.stripe, first.dataIndex) : Collections.emptyList();
    Runnable inFlight = oneBlock ? ctx.sources.reading(where, len) : null;
    long t0 = System.nanoTime();
    try {
      ctx.data.readFully(position, dst, dstOff, len);
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
      ctx.sources.observed(where, len, took);
      if (took > deadlines.raceAfter(part) * subblocks) {
        ctx.sources.served(where, true);
      } else {
        deadlines.learn(part, took / subblocks);
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
    while (done < len && !ctx.sources.judging()) {
      long at = position + done;
      int n = (int) Math.min(len - done, (at / blockSize + 1) * blockSize - at);
      SubblockAddress a = layout.locate(at);
      List<String> where = ctx.locations.of(a.stripe, a.dataIndex);
      boolean part = n < subblock;
      LazyWatch watch = new LazyWatch(deadlines.perSubblock(part), deadlines.floor(), subblock);
      Runnable inFlight = ctx.sources.reading(where, n);
      boolean whole = false;
      try {
        if (ctx.direct != null) {
          ctx.direct.readRange(at, dst, dstOff + done, n, watch);
        } else {
          ctx.data.readFully(at, dst, dstOff + done, n);
        }
        whole = true;
      } catch (DirectBlockReads.Stopped e) {
        // late: the rest of the range is read raced
      } catch (IOException e) {
        if (ctx.direct == null) {
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
        ctx.sources.observed(where, Math.max(watch.in, 1), took);
        ctx.sources.served(where, true);
        return done + watch.in;
      }
      done += n;
      int subblocks = (n + subblock - 1) / subblock;
      ctx.sources.observed(where, n, took);
      if (took > watch.limit(n)) {
        ctx.sources.served(where, true);
      } else {
        deadlines.learn(part, took / subblocks);
        if (!part) {
          ctx.times.learn(took / subblocks);
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
    return parallelPays(position, length, layout.blockSize(), layout.subblockSize(), ctx.times);
  }

  /** {@link #parallelPays(long, int)} for blocks and subblocks of these sizes and these subblock times. */
  static boolean parallelPays(long position, int length, long blockSize, int subblock,
      SubblockTimes times) {
    if (length <= 0 || position / blockSize == (position + length - 1) / blockSize) {
      return false;
    }
    return times.slowerThan((long) (subblock * 1e9 / PARALLEL_BELOW_BYTES_PER_S));
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
}
