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
import org.apache.hadoop.fs.PositionedReadable;
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
  private final PositionedReadable data;
  private final StripeLayout layout;
  private final SlowSources sources;
  private final PieceLocations locations;
  private final PreadDeadlines deadlines;
  /** Straight reads of ranges of blocks (null: HDFS's positional reads), for {@link #readLazy}. */
  private final DirectBlockReads direct;
  /** Recent time to read one subblock from a DataNode, shared by the file system's streams. */
  private final SubblockTimes times;
  /** dfs.pocache.read.proactive lazy: positional reads are {@link #readLazy} while nothing is suspect. */
  private final boolean lazy;

  LazyPreads(ReadContext ctx, PreadDeadlines deadlines) {
    this.data = ctx.data;
    this.layout = ctx.layout;
    this.sources = ctx.sources;
    this.locations = ctx.locations;
    this.deadlines = deadlines;
    this.direct = ctx.direct;
    this.times = ctx.times;
    this.lazy = ctx.lazy;
  }

  /** Whether positional reads are {@link #readLazy} while nothing is suspect. */
  boolean lazy() {
    return lazy;
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
    SubblockAddress first = layout.locate(position);
    SubblockAddress last = layout.locate(position + len - 1);
    boolean oneBlock = first.stripe == last.stripe && first.dataIndex == last.dataIndex;
    List<String> where = oneBlock ? locations.of(first.stripe, first.dataIndex) : Collections.emptyList();
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
      if (took > deadlines.raceAfter(part) * subblocks) {
        sources.served(where, true);
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
    while (done < len && !sources.judging()) {
      long at = position + done;
      int n = (int) Math.min(len - done, (at / blockSize + 1) * blockSize - at);
      SubblockAddress a = layout.locate(at);
      List<String> where = locations.of(a.stripe, a.dataIndex);
      boolean part = n < subblock;
      LazyWatch watch = new LazyWatch(deadlines.perSubblock(part), deadlines.floor(), subblock);
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
        deadlines.learn(part, took / subblocks);
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
