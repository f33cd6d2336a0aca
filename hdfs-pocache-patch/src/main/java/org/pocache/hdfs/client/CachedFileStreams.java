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
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FileSystem.Statistics;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.pocache.cache.ParityStore;
import org.pocache.coder.ErasureCoder;
import org.pocache.coder.layout.ContiguousLayout;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.coder.layout.StripedLayout;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.pocache.manager.protocol.ParityDescriptor;

/**
 * The stream of an open whose file has cached parity, put together from what a client
 * FileSystem's readers share: the read pool and arrays, what is known of slow DataNodes,
 * the subblock times, the fetch-ahead budget, Redis and the coders. Per file it makes the
 * layout, the {@link ReadContext} and the readers the stream routes its reads to: the
 * proactive reader (positional reads and striped chunks), and for a replicated file the
 * degraded reader, the sequential reader and its block prefetch over fail-fast streams.
 */
final class CachedFileStreams {
  /**
   * How long after a stream's open its fail-fast streams start from the blocks it was given
   * rather than ask the NameNode (see {@link FailFastClient#open(String, int, LocatedBlocks)}).
   */
  private static final long KNOWN_BLOCKS_FRESH_NANOS = TimeUnit.SECONDS.toNanos(60);

  /** What the FileSystem hands its streams: its pools, counters and where outcomes go. */
  static final class Shared {
    ReadSettings settings;
    ExecutorService pool;
    BufferPool buffers;
    SlowSources slowSources;
    SubblockTimes subblockTimes;
    BlockPrefetch.Budget prefetchBudget;
    /** Redis, reached for when parity is first needed; null result: unreachable. */
    Supplier<ParityStore> redis;
    /** The coder of a descriptor's k and m. */
    Function<ParityDescriptor, ErasureCoder> coders;
    /** The FileSystem's fail-fast client, made on first use. */
    Supplier<FailFastClient> failFast;
    /** Whether HDFS's client connects to DataNodes by host name. */
    boolean connectToDnViaHostname;
    /** io.file.buffer.size, for the fail-fast streams. */
    int bufferSize;
    Statistics statistics;
    Warnings warnings;
    /** Pieces of erasure-coded and of replicated files left to HDFS's own reads (DirectBlockReads). */
    AtomicLong cellFallbacks;
    AtomicLong rangeFallbacks;
    /** Where a stream's outcome goes when it closes (the Manager's read report, the counters). */
    BiConsumer<ParityDescriptor, ProactiveReader.Outcome> report;
  }

  private final Shared shared;
  private final ReadSettings settings;

  CachedFileStreams(Shared shared) {
    this.shared = shared;
    this.settings = shared.settings;
  }

  /**
   * The stream of file {@code path} over HDFS's stream {@code in}, whose blocks descriptor
   * {@code d} was made for.
   */
  PoCacheInputStream open(ParityDescriptor d, DFSInputStream in, String path) throws IOException {
    boolean striped = d.getLayout() == ParityDescriptor.Layout.STRIPED;
    StripeLayout layout = striped
        ? new StripedLayout(d.getLength(), d.getBlockSize(), d.getCellSize(), d.getSubblockBytes(), d.getK())
        : new ContiguousLayout(d.getLength(), d.getBlockSize(), d.getSubblockBytes(), d.getK());
    // Redis and the coder are reached for when parity is first needed, not now (ParityAccess).
    ParityAccess parity = new ParityAccess(shared.redis::get, () -> shared.coders.apply(d));
    PieceLocations locations = new PieceLocations(in, d.getK(), striped);
    // Reads made for the stream (pieces, rebuilds, read-ahead) do not count in the statistics of
    // the threads that make them; the stream counts what it returns, on its caller's thread.
    PositionedReadable uncounted = new UncountedReads(SerialPreads.of(in), shared.statistics);
    DirectBlockReads direct = null;
    try {
      if (DirectBlockReads.available()) {
        direct = new DirectBlockReads(in, uncounted, layout, striped, d.getK(), d.getCellSize(),
            shared.connectToDnViaHostname, striped ? shared.cellFallbacks : shared.rangeFallbacks, shared.warnings);
      }
    } catch (LinkageError e) {
      shared.warnings.once(Warnings.MISMATCHED_JAR, e); // pieces are read by HDFS's positional reads
    }
    SequentialReader.Opener failFastOpener = striped ? null : failFastOpener(in, path);
    // A rebuild's reads of the other pieces: a replicated file's through fail-fast streams,
    // opened at the first such read, not now; runs of them through a stream per piece.
    PositionedReadable rebuildData = striped ? uncounted
        : new UncountedReads(new FailFastPreads(failFastOpener, in, shared.warnings, d.getK(),
            d.getBlockSize()), shared.statistics);
    ReadContext ctx = new ReadContext(uncounted, rebuildData, d, layout, parity, shared.pool, shared.buffers,
        shared.slowSources, locations, settings.deadlineMinMillis, settings.proactiveAlways, settings.proactiveLazy,
        direct, settings.parityPieces, shared.subblockTimes);
    ProactiveReader reader = new ProactiveReader(ctx, settings.inflight);
    ProactiveReader.Outcome outcome = new ProactiveReader.Outcome();
    DegradedReader degraded = null;
    SequentialReader sequential = null;
    BlockPrefetch prefetch = null;
    if (!striped) {
      degraded = new DegradedReader(ctx, settings.deadlineFactor);
      // The read-ahead streams fail at once where no DataNode of a block answers: the
      // SequentialReader then rebuilds from parity, or falls back to HDFS's stream, which waits;
      // a block fetched ahead is then the caller's to read.
      sequential = new SequentialReader(failFastOpener, layout, reader, degraded, shared.buffers, this::uncount,
          outcome, settings.inflight, settings.deadlineFactor, settings.deadlineMinMillis, shared.subblockTimes,
          shared.prefetchBudget);
      if (shared.prefetchBudget.free() > 0 && d.getLength() > d.getBlockSize() && d.getK() > 1) {
        SequentialReader seq = sequential;
        prefetch = new BlockPrefetch(failFastOpener, d.getBlockSize(), d.getLength(), d.getK() - 1,
            layout.subblockSize(), shared.prefetchBudget, shared.buffers, this::uncount,
            pos -> seq.holds(pos) || seq.verdicts().leftToParityAt(pos) || seq.verdicts().onListedDataNode(pos),
            seq.verdicts()::fetchedAhead,
            shared.warnings);
        sequential.fetchesAhead(prefetch);
      }
    }
    StripedReadAhead.Watch watch = settings.stripedSequential && striped
        ? new StripedReadAhead.Watch(g -> slowByReads(locations, d.getK(), g), settings.deadlineFactor,
            settings.deadlineMinMillis)
        : null;
    return new PoCacheInputStream(in, reader, degraded, sequential, prefetch, uncounted, shared.statistics, outcome,
        o -> shared.report.accept(d, o), shared.warnings, failFastOpener, watch);
  }

  /** Takes bytes a read-ahead stream counted back out of the statistics (the caller's stream counts them). */
  private void uncount(long n) {
    if (shared.statistics != null) {
      shared.statistics.incrementBytesRead(-n);
    }
  }

  /**
   * Fail-fast streams of a replicated file. They start from the blocks HDFS's stream was
   * just given, while those are fresh: one getBlockLocations per open, as with HDFS alone.
   * Later ones ask anew (a block may have moved; a stream that finds it gone fails over to
   * parity). Each stream gets a list of its own: a stream may insert blocks it fetches.
   */
  private SequentialReader.Opener failFastOpener(DFSInputStream in, String path) throws IOException {
    List<LocatedBlock> blocks = in.getAllBlocks();
    long fileLength = in.getFileLength();
    org.apache.hadoop.fs.FileEncryptionInfo feInfo = in.getFileEncryptionInfo();
    long openedAt = System.nanoTime();
    int bufferSize = shared.bufferSize;
    SequentialReader.Opener open = () -> blocks.isEmpty() || System.nanoTime() - openedAt >= KNOWN_BLOCKS_FRESH_NANOS
        ? shared.failFast.get().open(path, bufferSize)
        : shared.failFast.get().open(path, bufferSize, new LocatedBlocks(fileLength, false,
            new java.util.ArrayList<>(blocks), blocks.get(blocks.size() - 1), true, feInfo, null));
    // Streams that must read the blocks the file had when it was opened, or fail.
    return () -> {
      DFSInputStream own = open.open();
      if (!BlockListDigest.sameBlocks(blocks, own.getAllBlocks())) {
        own.close();
        throw new IOException(path + " changed since it was opened");
      }
      return own;
    };
  }

  /** Whether a DataNode holding one of the k data pieces of stripe {@code s} is slow by what reads found. */
  private boolean slowByReads(PieceLocations locations, int k, long s) {
    if (!shared.slowSources.judging()) {
      return false;
    }
    for (int i = 0; i < k; i++) {
      if (shared.slowSources.slowByReads(locations.of(s, i))) {
        return true;
      }
    }
    return false;
  }
}
