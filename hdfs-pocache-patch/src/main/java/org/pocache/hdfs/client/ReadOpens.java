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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DFSStripedInputStream;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.pocache.cache.ParityStore;
import org.pocache.hdfs.client.write.ParityEncoder;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.DescriptorLookup;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ParitySeals;
import org.pocache.manager.protocol.ReadReport;
import org.pocache.manager.protocol.Reservation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which stream an open of a file that is not excluded gets. The Manager is asked for the
 * file's parity descriptor while HDFS's open asks the NameNode for the block locations
 * ({@link #lookup}); then ({@link #streamFor}) a file with cached parity made for the very
 * blocks HDFS opened gets a {@link PoCacheInputStream}, a read miss the Manager hands to
 * this reader a {@link FillingInputStream}, and every other file HDFS's own stream (with
 * positional reads across blocks of a replicated file read at once, {@link
 * ParallelBlockPreads}). Whatever fails here, the open gets HDFS's stream and the fallback
 * is counted.
 */
final class ReadOpens {
  /** The client's lines are logged under its FileSystem's name, as operators look for them. */
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheFileSystem.class);

  private final CachedFileStreams.Shared shared;
  private final CachedFileStreams streams;
  /** The Manager's client, made on first use; null when it cannot be made. */
  private final Supplier<ManagerClient> manager;
  /** The Manager's client if it was made (it was, once a lookup answered); never makes it. */
  private final Supplier<ManagerClient> madeManager;
  /** Descriptor lookups, run while HDFS opens the file; the caller runs one itself when all are busy. */
  private final ThreadPoolExecutor lookups;
  private final PendingWork pendingWork;
  /** The FileSystem's count of operations left to plain HDFS. */
  private final AtomicLong fallbacks;
  private final AtomicLong staleDescriptors = new AtomicLong();
  private final AtomicLong proactiveOpens = new AtomicLong();
  private final AtomicLong readerFills = new AtomicLong();
  private final AtomicLong readerFillsCommitted = new AtomicLong();
  /** Positional reads of files without cached parity whose blocks were read at once. */
  private final AtomicLong parallelBlockReads = new AtomicLong();
  private final AtomicLong readSubstripes = new AtomicLong();
  private final AtomicLong decodedSubstripes = new AtomicLong();
  private final AtomicLong parityGets = new AtomicLong();

  ReadOpens(CachedFileStreams.Shared shared, CachedFileStreams streams, Supplier<ManagerClient> manager,
      Supplier<ManagerClient> madeManager, ThreadPoolExecutor lookups, PendingWork pendingWork, AtomicLong fallbacks) {
    this.shared = shared;
    this.streams = streams;
    this.manager = manager;
    this.madeManager = madeManager;
    this.lookups = lookups;
    this.pendingWork = pendingWork;
    this.fallbacks = fallbacks;
  }

  /**
   * Asks the Manager about {@code path} on a lookup thread. A task's first open also makes
   * the Manager's client, connects and fetches the straggler list there: tens of
   * milliseconds in a new JVM, which the NameNode's answer to HDFS's open takes as well.
   */
  Future<DescriptorLookup> lookup(String path) {
    boolean readerFills = shared.settings.fillMaxBytes > 0;
    try {
      return lookups.submit(() -> {
        ManagerClient m = manager.get();
        return m == null ? null : m.lookupForRead(path, readerFills);
      });
    } catch (RejectedExecutionException closed) {
      return CompletableFuture.completedFuture(null);
    }
  }

  /**
   * The stream an open gets, given the lookup and HDFS's own stream {@code vanilla} of the
   * file: never fails where HDFS's stream would not (an interrupt aside).
   */
  FSDataInputStream streamFor(Future<DescriptorLookup> lookup, FSDataInputStream vanilla, String path)
      throws IOException {
    try {
      FSDataInputStream p = tryPoCache(lookup, vanilla, path);
      return p != null ? p : withParallelBlocks(vanilla);
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      // Setting up the parity path must never fail an open that HDFS itself answered.
      fallbacks.incrementAndGet();
      shared.warnings.once("A POCache open fell back to HDFS", e);
      return vanilla;
    } catch (RuntimeException | LinkageError e) {
      fallbacks.incrementAndGet();
      if (e instanceof LinkageError) {
        shared.warnings.once(Warnings.MISMATCHED_JAR, e);
      } else {
        LOG.debug("POCache open of {} fell back to HDFS", path, e);
      }
      releaseFill(lookup, "the reader's open failed: " + e);
      return vanilla;
    }
  }

  /**
   * Hands a fill reservation the lookup may have brought back to the Manager's fill
   * worker. Waits for the lookup if it is still running (bounded by the Manager RPC
   * timeout): a reservation nobody fills would otherwise block the file until it expires.
   */
  void releaseFill(Future<DescriptorLookup> lookup, String why) {
    try {
      DescriptorLookup r = lookup.get();
      ManagerClient m = madeManager.get();
      if (r != null && r.hasFill() && m != null) {
        m.abort(r.getFill().getId(), why);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the reservation expires
    } catch (Exception | LinkageError e) {
      LOG.debug("fill reservation not handed back (it expires): {}", e.toString());
    }
  }

  /**
   * HDFS's stream for a file the Manager keeps no parity for; with
   * {@code dfs.pocache.read.parallel.blocks}, one whose positional reads across blocks of a
   * replicated file read the blocks at once ({@link ParallelBlockPreads}).
   */
  private FSDataInputStream withParallelBlocks(FSDataInputStream vanilla) {
    if (!shared.settings.parallelBlocks || !(vanilla instanceof HdfsDataInputStream)) {
      return vanilla;
    }
    java.io.InputStream in = ((HdfsDataInputStream) vanilla).getWrappedStream();
    if (!(in instanceof DFSInputStream) || in instanceof DFSStripedInputStream) {
      return vanilla; // HDFS reads an erasure-coded file's cells at once already
    }
    return new ParallelBlockPreads((DFSInputStream) in, shared.pool, shared.statistics, parallelBlockReads);
  }

  private FSDataInputStream tryPoCache(Future<DescriptorLookup> lookup, FSDataInputStream vanilla,
      String path) throws IOException {
    DescriptorLookup r;
    try {
      r = lookup.get(); // the lookup is bounded by the Manager RPC timeout and never throws
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      vanilla.close();
      throw new InterruptedIOException("interrupted while asking the POCache Manager");
    } catch (ExecutionException e) {
      fallbacks.incrementAndGet();
      LOG.debug("POCache descriptor lookup failed", e.getCause());
      return null;
    }
    if (r == null) {
      return null;
    }
    if (!(vanilla instanceof HdfsDataInputStream)
        || !(((HdfsDataInputStream) vanilla).getWrappedStream() instanceof DFSInputStream)) {
      releaseFill(lookup, "an encrypted file");
      return null; // an encrypted file: POCache stays out of the way
    }
    DFSInputStream in = (DFSInputStream) ((HdfsDataInputStream) vanilla).getWrappedStream();
    if (r.hasFill()) {
      return tryFill(r.getFill(), in);
    }
    ParityDescriptor d = r.hasParity() ? r.getParity() : null;
    if (d == null) {
      return null;
    }
    if (d.getLength() == 0 && in.getFileLength() == 0) {
      return null; // nothing to read: HDFS's stream answers as it always does
    }
    if (!madeFor(d, in)) {
      return null;
    }
    PoCacheInputStream stream = streams.open(d, in, path);
    proactiveOpens.incrementAndGet();
    return new PoCacheDataInputStream(in, stream);
  }

  /**
   * Whether descriptor {@code d} was made for the blocks {@code in} reads: the same
   * length and the same block ids, generation stamps and lengths. Parity made for other
   * blocks would rebuild bytes of another file (an overwrite between the Manager's lookup
   * and the NameNode's answer to the open) and must never meet this stream's data.
   */
  private boolean madeFor(ParityDescriptor d, DFSInputStream in) {
    String unusable = d.getState() == ParityDescriptor.State.CACHED ? ParitySeals.readProblem(d)
        : ParitySeals.problem(d);
    if (unusable != null) {
      fallbacks.incrementAndGet();
      shared.warnings.once("POCache reads files without parity", new IOException(unusable));
      return false;
    }
    try {
      if (d.getLength() == in.getFileLength() && d.getBlocksDigest() != 0
          && d.getBlocksDigest() == BlockListDigest.of(in.getAllBlocks())) {
        return true;
      }
    } catch (IOException e) {
      LOG.debug("The blocks of {} could not be listed: {}", d.getPath(), e.toString());
    }
    fallbacks.incrementAndGet();
    staleDescriptors.incrementAndGet();
    LOG.debug("The POCache descriptor of {} (generation {}) was made for other blocks than the stream opened; "
        + "reading it as plain HDFS", d.getPath(), d.getGeneration());
    return false;
  }

  /**
   * A read miss the Manager handed to this reader: a stream that encodes what it
   * reads and uploads the parity (see {@link FillingInputStream}), or, when this
   * client cannot, the reservation goes back (the fill worker takes it over).
   */
  private FSDataInputStream tryFill(Reservation fill, DFSInputStream in) {
    ParityDescriptor d = fill.getParity();
    long accumulators = d.getLayout() == ParityDescriptor.Layout.STRIPED ? (long) d.getM() * d.getCellSize()
        : (long) d.getM() * d.getBlockSize();
    long fillMaxBytes = shared.settings.fillMaxBytes;
    ParityStore s = shared.redis.get();
    String why = s == null ? "the reader cannot reach Redis"
        : !madeFor(d, in) ? "the file changed"
        : accumulators > fillMaxBytes ? "the reader's parity accumulators (" + accumulators + " bytes) exceed "
            + PoCacheConfigKeys.READ_FILL_MAX_KEY + " = " + fillMaxBytes
        : null;
    ManagerClient m = madeManager.get();
    if (why != null) {
      try {
        m.abort(fill.getId(), why);
      } catch (IOException | RuntimeException | LinkageError e) {
        LOG.debug("fill reservation {} not handed back (it expires): {}", fill.getId(), e.toString());
      }
      return null;
    }
    readerFills.incrementAndGet();
    PositionedReadable preads = shared.settings.parallelBlocks && d.getLayout() != ParityDescriptor.Layout.STRIPED
        ? new ParallelBlockPreads(in, shared.pool, shared.statistics, parallelBlockReads) : in;
    return new PoCacheDataInputStream(in, new FillingInputStream(in, preads, fill.getId(), d,
        new ParityEncoder(d, s, shared.coders.apply(d), shared.buffers),
        m, pendingWork::run, readerFillsCommitted));
  }

  /**
   * Tells the Manager how parity fared for a stream that closed, with what this client's
   * reads found of slow DataNodes since the last report; off the caller's thread, and a
   * failure only costs the report.
   */
  void report(ParityDescriptor d, ProactiveReader.Outcome o) {
    ProactiveReader.Outcome c = o.snapshot();
    if (c.substripes == 0) {
      return;
    }
    readSubstripes.addAndGet(c.substripes);
    decodedSubstripes.addAndGet(c.decoded);
    parityGets.addAndGet(c.parityFetches);
    ReadReport.Outcome outcome = c.parityCorrupt ? ReadReport.Outcome.PARITY_CORRUPT
        : c.parityMissing ? ReadReport.Outcome.PARITY_MISSING
        : c.cacheError ? ReadReport.Outcome.CACHE_ERROR
        : c.decoded > 0 ? ReadReport.Outcome.STRAGGLER_MASKED
        : ReadReport.Outcome.PARITY_HIT;
    ReadReport r = new ReadReport(d.getFileId(), d.getGeneration(), outcome, shared.slowSources.drainObservations());
    try {
      pendingWork.run(() -> {
        try {
          ManagerClient m = madeManager.get();
          if (m != null) {
            m.reportRead(r);
          }
        } catch (IOException | RuntimeException | LinkageError e) {
          LOG.debug("Read report for {} not delivered: {}", d.getPath(), e.toString());
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException closed) {
      // closing
    }
  }

  /** Substripes (or subblocks of sequential reads) that proactive streams served. */
  long readSubstripes() {
    return readSubstripes.get();
  }

  /** Of those, the ones rebuilt from parity. */
  long decodedSubstripes() {
    return decodedSubstripes.get();
  }

  /** Of the proactive fetches, the ones that asked Redis for their parity. */
  long parityGets() {
    return parityGets.get();
  }

  /** Opens whose descriptor was made for other blocks than the stream HDFS opened. */
  long staleDescriptors() {
    return staleDescriptors.get();
  }

  /** Opens that got a proactive stream. */
  long proactiveOpens() {
    return proactiveOpens.get();
  }

  /** Read misses the Manager handed to this client to fill while reading. */
  long readerFills() {
    return readerFills.get();
  }

  /** Of those, the ones whose parity this client uploaded and committed. */
  long readerFillsCommitted() {
    return readerFillsCommitted.get();
  }

  /** Positional reads of files without cached parity whose blocks were read at once. */
  long parallelBlockReads() {
    return parallelBlockReads.get();
  }
}
