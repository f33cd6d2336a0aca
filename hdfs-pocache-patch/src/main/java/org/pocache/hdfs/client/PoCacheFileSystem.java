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
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.util.Progressable;
import org.pocache.cache.DaemonThreads;
import org.pocache.cache.ParityStore;
import org.pocache.cache.RedisSettings;
import org.pocache.coder.CodeParameters;
import org.pocache.coder.CoderKind;
import org.pocache.coder.Coders;
import org.pocache.coder.ErasureCoder;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.pocache.hdfs.client.write.CachedWrites;
import org.pocache.hdfs.client.write.ParityEncoder;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.CacheExclusions;
import org.pocache.manager.protocol.DescriptorLookup;
import org.pocache.manager.protocol.ManagerAddresses;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ParitySeals;
import org.pocache.manager.protocol.ReadReport;
import org.pocache.manager.protocol.Reservation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client hook of POCache: set {@code fs.hdfs.impl} to this class and every
 * {@code hdfs://} FileSystem an application (MapReduce, Spark, the shell) obtains
 * from its configuration is this one.
 *
 * <p>With {@code dfs.pocache.enabled=false}, or for any file POCache does not cache,
 * it is exactly DistributedFileSystem. For a file with a cached, current parity
 * descriptor, {@link #open} returns a {@link PoCacheInputStream}: positional reads
 * that cover whole substripes are proactive (k data reads and the parity at once,
 * first k win); sequential reads of a replicated file go subblock by subblock through
 * degraded reads (rebuilt from parity when the DataNode is a known straggler or
 * misses its deadline). A file the Manager admits on this open (a read miss) gets a
 * {@link FillingInputStream} that encodes what it reads and uploads the parity if it
 * reads the whole file. {@link #create} encodes the parity of admitted files while
 * they are written. Any cache-side problem (no Manager answer within its timeout, Redis
 * unreachable, a descriptor for another file length) gives the vanilla stream and
 * is counted ({@link #fallbacks()}).
 *
 * <p><b>Size.</b> Long because it is a FileSystem: the overrides HDFS clients call,
 * and the lifecycle of what its streams share (the read pool, the parity store, the
 * Manager client, the counters); reading and writing are in their own classes.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class PoCacheFileSystem extends DistributedFileSystem {
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheFileSystem.class);
  private static final int LOOKUP_THREADS = 16;
  /** How long {@link #close} waits for commits, notices and reports still under way. */
  private static final long CLOSE_WAIT_MILLIS = 5_000;

  private boolean pocacheEnabled;
  /** Files left to plain HDFS on read and write (dfs.pocache.exclude.dirs). */
  private CacheExclusions exclusions;
  /** Replicated files are cached on write only with at least this many blocks (for the summary). */
  private int writeMinBlocks;
  /** Decides which new files are cached on write, and wraps their streams; null while POCache is off. */
  private CachedWrites writes;
  private Configuration conf;
  /**
   * Made at the first open or create of a file that is not excluded ({@link #manager()}):
   * an ApplicationMaster, a job client or a NodeManager's localizer that only touches
   * staging files never loads the Manager's protocol (a few hundred classes, a connection).
   */
  private volatile ManagerClient manager;
  private final Object managerLock = new Object();
  /**
   * The user this FileSystem was made for, as HDFS's client keeps it: the Manager's client
   * is made as this user whichever thread first needs it, so that lookups, reservations
   * and read reports are this user's, as the NameNode calls of this FileSystem are.
   */
  private org.apache.hadoop.security.UserGroupInformation owner;
  /** The Managers of this file system's nameservice (one per NameNode of an HA pair). */
  private java.util.List<InetSocketAddress> managerAddresses;
  private int managerTimeout;
  /** Redis, reached when parity is first needed. */
  private RedisConnection redis;
  private ExecutorService pool;
  /** Descriptor lookups, run while HDFS opens the file; the caller runs one itself when all are busy. */
  private ThreadPoolExecutor lookups;
  private BufferPool buffers;
  private SlowSources slowSources;
  /** The read keys, read once. */
  private ReadSettings settings;
  /** Puts together the streams of files with cached parity. */
  private CachedFileStreams cachedStreams;
  private final Map<Long, ErasureCoder> coders = new ConcurrentHashMap<>();
  private final AtomicLong fallbacks = new AtomicLong();
  private final AtomicLong staleDescriptors = new AtomicLong();
  private final AtomicLong proactiveOpens = new AtomicLong();
  private final AtomicLong readerFills = new AtomicLong();
  private final AtomicLong readerFillsCommitted = new AtomicLong();
  /** Reads of an erasure-coded file's pieces left to HDFS's striped stream (DirectBlockReads). */
  private final AtomicLong cellFallbacks = new AtomicLong();
  /** Reads of a replicated file's pieces left to HDFS's positional read (DirectBlockReads). */
  private final AtomicLong rangeFallbacks = new AtomicLong();
  private final AtomicLong readSubstripes = new AtomicLong();
  private final AtomicLong decodedSubstripes = new AtomicLong();
  private final AtomicLong parityGets = new AtomicLong();
  /** Commits, notices and reports started and not yet done. */
  private PendingWork pendingWork;
  /** Positional reads of files without cached parity whose blocks were read at once. */
  private final AtomicLong parallelBlockReads = new AtomicLong();
  private StragglerView stragglerView;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    // Validate before connecting: a bad switch value fails here, naming the key.
    pocacheEnabled = PoCacheConfig.isEnabled(conf);
    super.initialize(uri, conf);
    if (!pocacheEnabled) {
      return;
    }
    this.conf = conf;
    owner = org.apache.hadoop.security.UserGroupInformation.getCurrentUser();
    settings = ReadSettings.from(conf);
    buffers = new BufferPool(settings.bufferPoolBytes);
    int stragglerRefreshMillis = PoCacheConfig.getInt(conf, PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY,
        PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_DEFAULT, 1, Integer.MAX_VALUE);
    RedisSettings.from(PoCacheConfig.redisLookup(conf)); // validate the Redis keys now, naming any bad one
    exclusions = CacheExclusions.from(conf);
    CachedWrites.Parts w = new CachedWrites.Parts();
    w.minBlocks = PoCacheConfig.getInt(conf, PoCacheConfigKeys.WRITE_MIN_BLOCKS_KEY,
        PoCacheConfigKeys.WRITE_MIN_BLOCKS_DEFAULT, 1, 1 << 20);
    // The Manager's k decides; this one (the same site files) only says when to ask it.
    w.codeK = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CODE_K_KEY, PoCacheConfigKeys.CODE_K_DEFAULT, 2, 32);
    writeMinBlocks = w.minBlocks;
    slowSources = new SlowSources(this::stragglers, () -> stragglerView.seenSlowByClients());
    ThreadPoolExecutor p = new ThreadPoolExecutor(settings.threads, settings.threads, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<Runnable>(), DaemonThreads.numbered("pocache-read"));
    p.allowCoreThreadTimeOut(true);
    pool = p;
    pendingWork = new PendingWork(p);
    stragglerView = new StragglerView(stragglerRefreshMillis, p, () -> manager, slowSources::drainObservations);
    redis = new RedisConnection(conf, fallbacks);
    CachedFileStreams.Shared shared = new CachedFileStreams.Shared();
    shared.settings = settings;
    shared.pool = pool;
    shared.buffers = buffers;
    shared.slowSources = slowSources;
    shared.subblockTimes = new SubblockTimes();
    // Whole blocks fetched ahead by all streams of this FileSystem.
    shared.prefetchBudget = new BlockPrefetch.Budget(settings.prefetchBytes);
    shared.redis = redis::get;
    shared.coders = this::coderFor;
    shared.failFast = this::failFast;
    shared.connectToDnViaHostname = getClient().getConf().isConnectToDnViaHostname();
    shared.bufferSize = conf.getInt("io.file.buffer.size", 4096);
    shared.statistics = statistics;
    shared.warnings = warnings;
    shared.cellFallbacks = cellFallbacks;
    shared.rangeFallbacks = rangeFallbacks;
    shared.report = this::report;
    cachedStreams = new CachedFileStreams(shared);
    w.manager = this::manager;
    w.redis = redis::get;
    w.coders = this::coderFor;
    w.buffers = buffers;
    w.exclusions = exclusions;
    w.fallbacks = (what, why, warn) -> {
      fallbacks.incrementAndGet();
      if (warn) {
        warnOnce(why instanceof LinkageError ? MISMATCHED_JAR : what, why);
      }
    };
    writes = new CachedWrites(w);
    lookups = new ThreadPoolExecutor(0, LOOKUP_THREADS, 30, TimeUnit.SECONDS, new SynchronousQueue<Runnable>(),
        DaemonThreads.numbered("pocache-lookup"), new ThreadPoolExecutor.CallerRunsPolicy());
    int timeout = PoCacheConfig.getInt(conf, PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_KEY,
        PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_DEFAULT, 1, 600_000);
    managerTimeout = timeout;
    try {
      managerAddresses = ManagerAddresses.of(conf, uri);
    } catch (RuntimeException | LinkageError e) {
      managerUnavailable(e);
    }
  }

  /**
   * The Manager's client, made on first use; null (and POCache off for this FileSystem)
   * when it cannot be made. The first use also fetches the straggler list, before the
   * open that needed the client reads anything.
   */
  private ManagerClient manager() {
    ManagerClient m = manager;
    if (m != null || !pocacheEnabled) {
      return m;
    }
    synchronized (managerLock) {
      if (manager == null && pocacheEnabled) {
        try {
          manager = owner.doAs((java.security.PrivilegedExceptionAction<ManagerClient>) () ->
              new ManagerClient(managerAddresses, conf, managerTimeout));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          managerUnavailable(new IOException("interrupted while connecting to the Manager", e));
          return null;
        } catch (IOException | RuntimeException | LinkageError e) {
          managerUnavailable(e);
          return null;
        }
        stragglerView.refresh(manager); // a task's one open should already know the stragglers
      }
      return manager;
    }
  }

  /** The Manager's client could not even be made (a Hadoop client this jar was not built for): plain HDFS. */
  private void managerUnavailable(Throwable e) {
    fallbacks.incrementAndGet();
    pocacheEnabled = false;
    LOG.warn("POCache is off for this FileSystem: its Manager client could not start ({}); reads and writes"
        + " use plain HDFS. {}", e.toString(), e instanceof LinkageError
            ? "Install the POCache drop-in jar built for this Hadoop line (docs/operations.md, Troubleshooting)."
            : "Check " + PoCacheConfigKeys.MANAGER_ADDRESS_KEY + ".");
  }

  /** Whether {@code dfs.pocache.enabled} was on when this FileSystem was initialized. */
  public boolean isPoCacheEnabled() {
    return pocacheEnabled;
  }

  /**
   * Reads of an erasure-coded file's data pieces that went through HDFS's striped stream,
   * cell by cell, instead of straight to their internal blocks (a DataNode that failed a
   * direct read, an internal block without a location, a Hadoop without the method).
   */
  public long stripedStreamReads() {
    return cellFallbacks.get();
  }

  /**
   * Reads of a replicated file's data pieces that went through HDFS's positional read
   * instead of straight to their block (a DataNode that failed a direct read, a block
   * without a location, a Hadoop without the method).
   */
  public long positionalReads() {
    return rangeFallbacks.get();
  }

  /** Opens that fell back to plain HDFS because of a cache-side problem. */
  public long fallbacks() {
    ManagerClient m = manager;
    return fallbacks.get() + (m == null ? 0 : m.failedLookups());
  }

  /**
   * Opens whose descriptor was made for other blocks than the stream HDFS opened (the
   * file was overwritten, appended or truncated between the Manager's lookup and the
   * NameNode's answer): read as plain HDFS, also counted in {@link #fallbacks()}.
   */
  public long staleDescriptors() {
    return staleDescriptors.get();
  }

  /** Connects to Redis that failed (each stands for dfs.pocache.redis.breaker.open.ms). */
  public long redisConnectFailures() {
    return redis == null ? 0 : redis.connectFailures();
  }

  /** Calls to the Manager it did not answer within the timeout. */
  public long managerCallsUnanswered() {
    ManagerClient m = manager;
    return m == null ? 0 : m.unansweredCalls();
  }

  /** Calls not made because the Manager had not answered shortly before (see {@link ManagerClient}). */
  public long managerCallsSkipped() {
    ManagerClient m = manager;
    return m == null ? 0 : m.skippedCalls();
  }

  /** Read-pool threads busy now (piece reads, parity GETs, rebuilds; abandoned reads included). */
  public int readThreadsBusy() {
    return pool instanceof ThreadPoolExecutor ? ((ThreadPoolExecutor) pool).getActiveCount() : 0;
  }

  /** Read-pool tasks waiting for a thread now. */
  public int readTasksQueued() {
    return pool instanceof ThreadPoolExecutor ? ((ThreadPoolExecutor) pool).getQueue().size() : 0;
  }

  /** Opens that got a proactive stream. */
  public long proactiveOpens() {
    return proactiveOpens.get();
  }

  /** Read misses the Manager handed to this client to fill while reading. */
  public long readerFills() {
    return readerFills.get();
  }

  /** Of those, the ones whose parity this client uploaded and committed. */
  public long readerFillsCommitted() {
    return readerFillsCommitted.get();
  }

  /** Data pieces proactive reads left to parity because their DataNode was slow (see {@link SlowSources}). */
  public long skippedPieces() {
    return slowSources == null ? 0 : slowSources.skipped();
  }

  /** Substripes (or subblocks of sequential reads) that proactive streams served. */
  public long readSubstripes() {
    return readSubstripes.get();
  }

  /** Of those, the ones rebuilt from parity because a data piece was late or left to parity. */
  public long decodedSubstripes() {
    return decodedSubstripes.get();
  }

  /**
   * Of the proactive fetches (one per run of substripes read together), the ones that
   * asked Redis for their parity: all of them while a DataNode is suspect, else only
   * those in which a piece lagged behind its peers.
   */
  public long parityGets() {
    return parityGets.get();
  }

  /** Writes whose caching was abandoned (Redis failing or too slow, commit refused). */
  public long abandonedWrites() {
    return writes == null ? 0 : writes.abandoned();
  }

  /** Writes that encoded parity (admitted by the Manager). */
  public long cachedWrites() {
    return writes == null ? 0 : writes.cached();
  }

  /** Of those, the ones not cached because they were shorter than dfs.pocache.write.min.blocks full blocks. */
  public long shortWrites() {
    return writes == null ? 0 : writes.tooShort();
  }

  /**
   * Creates the file in HDFS, then asks the Manager to admit it; if admitted, the
   * stream also encodes parity incrementally (see {@link CachedWrites}). Append
   * and the favored-nodes create are HDFS's own: an append changes the file, so the
   * Manager stops serving its parity (length and modification time no longer match),
   * and so does truncate.
   */
  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, EnumSet<CreateFlag> cflags, int bufferSize,
      short replication, long blockSize, Progressable progress, Options.ChecksumOpt checksumOpt)
      throws IOException {
    FSDataOutputStream hdfsOut = super.create(f, permission, cflags, bufferSize, replication, blockSize, progress,
        checksumOpt);
    if (!pocacheEnabled || cflags.contains(CreateFlag.APPEND)) {
      return hdfsOut;
    }
    return writes.wrap(hdfsOut, makeQualified(f).toUri().getPath(), blockSize);
  }

  /**
   * HDFS's delete; then, in the background, the Manager is told to drop the parity
   * of what was deleted right away (it checks with the NameNode; otherwise its
   * sweep would find the files gone within {@code 10} minutes). A move to the trash
   * is a rename and keeps the parity: the file still exists.
   */
  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    String path = makeQualified(f).toUri().getPath();
    boolean deleted = super.delete(f, recursive);
    // Everything under an excluded directory is never cached: nothing for the Manager to drop.
    if (deleted && pocacheEnabled && exclusions.excludedBy(path) == null) {
      try {
        pendingWork.run(() -> {
          try {
            ManagerClient m = manager();
            if (m != null) {
              m.forgetDeleted(path);
            }
          } catch (IOException | RuntimeException | LinkageError e) {
            LOG.debug("The Manager was not told of the delete of {} (its sweep will find it): {}", path,
                e.toString());
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException closed) {
        // closing: the sweep finds it
      }
    }
    return deleted;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    if (!pocacheEnabled) {
      return super.open(f, bufferSize);
    }
    String path = makeQualified(f).toUri().getPath();
    if (exclusions.excludedBy(path) != null) {
      return super.open(f, bufferSize); // a job's staging or history file: never cached, not worth a lookup
    }
    // Ask the Manager while the NameNode is asked for the block locations. A task's first
    // open also makes the Manager's client, connects and fetches the straggler list there:
    // tens of milliseconds in a new JVM, which the NameNode's answer takes as well.
    boolean readerFills = settings.fillMaxBytes > 0;
    Future<DescriptorLookup> lookup;
    try {
      lookup = lookups.submit(() -> {
        ManagerClient manager = manager();
        return manager == null ? null : manager.lookupForRead(path, readerFills);
      });
    } catch (java.util.concurrent.RejectedExecutionException closed) {
      lookup = java.util.concurrent.CompletableFuture.completedFuture(null);
    }
    FSDataInputStream vanilla;
    try {
      vanilla = openInHdfs(f, bufferSize);
    } catch (IOException | RuntimeException | LinkageError e) {
      releaseFill(lookup, "the reader could not open the file: " + e);
      throw e;
    }
    try {
      FSDataInputStream p = tryPoCache(lookup, vanilla, path);
      return p != null ? p : withParallelBlocks(vanilla);
    } catch (java.io.InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      // Setting up the parity path must never fail an open that HDFS itself answered.
      fallbacks.incrementAndGet();
      warnOnce("A POCache open fell back to HDFS", e);
      return vanilla;
    } catch (RuntimeException | LinkageError e) {
      fallbacks.incrementAndGet();
      if (e instanceof LinkageError) {
        warnOnce(MISMATCHED_JAR, e);
      } else {
        LOG.debug("POCache open of {} fell back to HDFS", f, e);
      }
      releaseFill(lookup, "the reader's open failed: " + e);
      return vanilla;
    }
  }

  /**
   * HDFS's stream for a file the Manager keeps no parity for; with
   * {@code dfs.pocache.read.parallel.blocks}, one whose positional reads across blocks of a
   * replicated file read the blocks at once ({@link ParallelBlockPreads}).
   */
  private FSDataInputStream withParallelBlocks(FSDataInputStream vanilla) {
    if (!settings.parallelBlocks || !(vanilla instanceof HdfsDataInputStream)) {
      return vanilla;
    }
    java.io.InputStream in = ((HdfsDataInputStream) vanilla).getWrappedStream();
    if (!(in instanceof DFSInputStream) || in instanceof org.apache.hadoop.hdfs.DFSStripedInputStream) {
      return vanilla; // HDFS reads an erasure-coded file's cells at once already
    }
    return new ParallelBlockPreads((DFSInputStream) in, pool, statistics, parallelBlockReads);
  }

  /** Positional reads of files without cached parity whose blocks were read at once. */
  public long parallelBlockReads() {
    return parallelBlockReads.get();
  }

  /** HDFS's own open (DistributedFileSystem's); a seam for tests that race it against the Manager's lookup. */
  FSDataInputStream openInHdfs(Path f, int bufferSize) throws IOException {
    return super.open(f, bufferSize);
  }

  /**
   * Hands a fill reservation the lookup may have brought back to the Manager's fill
   * worker. Waits for the lookup if it is still running (bounded by the Manager RPC
   * timeout): a reservation nobody fills would otherwise block the file until it expires.
   */
  private void releaseFill(Future<DescriptorLookup> lookup, String why) {
    try {
      DescriptorLookup r = lookup.get();
      if (r != null && r.hasFill()) {
        manager.abort(r.getFill().getId(), why);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the reservation expires
    } catch (Exception e) {
      LOG.debug("fill reservation not handed back (it expires): {}", e.toString());
    }
  }

  private FSDataInputStream tryPoCache(Future<DescriptorLookup> lookup, FSDataInputStream vanilla,
      String path) throws IOException {
    DescriptorLookup r;
    try {
      r = lookup.get(); // the lookup is bounded by the Manager RPC timeout and never throws
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      vanilla.close();
      throw new java.io.InterruptedIOException("interrupted while asking the POCache Manager");
    } catch (java.util.concurrent.ExecutionException e) {
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
    PoCacheInputStream stream = cachedStreams.open(d, in, path);
    proactiveOpens.incrementAndGet();
    return new PoCacheDataInputStream(in, stream);
  }

  /** How often the fail-fast client's streams asked the NameNode for a file's blocks (for tests). */
  synchronized long failFastLocationCalls() {
    return failFast == null ? 0 : failFast.locationCalls();
  }

  /** The file system's fail-fast client (its first use makes it). */
  private synchronized FailFastClient failFast() {
    if (failFast == null) {
      failFast = new FailFastClient(getUri(), getConf(), statistics, settings.dataNodeTimeoutMillis);
    }
    return failFast;
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
      warnOnce("POCache reads files without parity", new IOException(unusable));
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

  /** Logs a fall-back to plain HDFS at WARN the first time one of its kind happens in this JVM, else at DEBUG. */
  private void warnOnce(String what, Throwable why) {
    warnings.once(what, why);
  }

  /** Where fallbacks are said, once each; handed down to the streams and readers. */
  private final Warnings warnings = Warnings.CLIENT;
  /** Streams for sequential reads of cached files on the caller's thread; null until the first. @GuardedBy("this") */
  private FailFastClient failFast;
  /** What a LinkageError from POCache's own code means, and what to do about it. */
  static final String MISMATCHED_JAR = "POCache's classes do not fit this Hadoop client (a class or method is"
      + " missing or of another shape: install the drop-in jar built for this Hadoop line); files are read and"
      + " written as plain HDFS";

  /**
   * A read miss the Manager handed to this reader: a stream that encodes what it
   * reads and uploads the parity (see {@link FillingInputStream}), or, when this
   * client cannot, the reservation goes back (the fill worker takes it over).
   */
  private FSDataInputStream tryFill(Reservation fill, DFSInputStream in) {
    ParityDescriptor d = fill.getParity();
    long accumulators = d.getLayout() == ParityDescriptor.Layout.STRIPED ? (long) d.getM() * d.getCellSize()
        : (long) d.getM() * d.getBlockSize();
    ParityStore s = redis.get();
    String why = s == null ? "the reader cannot reach Redis"
        : !madeFor(d, in) ? "the file changed"
        : accumulators > settings.fillMaxBytes ? "the reader's parity accumulators (" + accumulators + " bytes) exceed "
            + PoCacheConfigKeys.READ_FILL_MAX_KEY + " = " + settings.fillMaxBytes
        : null;
    if (why != null) {
      try {
        manager.abort(fill.getId(), why);
      } catch (IOException | RuntimeException | LinkageError e) {
        LOG.debug("fill reservation {} not handed back (it expires): {}", fill.getId(), e.toString());
      }
      return null;
    }
    ErasureCoder coder = coderFor(d);
    readerFills.incrementAndGet();
    PositionedReadable preads = settings.parallelBlocks && d.getLayout() != ParityDescriptor.Layout.STRIPED
        ? new ParallelBlockPreads(in, pool, statistics, parallelBlockReads) : in;
    return new PoCacheDataInputStream(in, new FillingInputStream(in, preads, fill.getId(), d,
        new ParityEncoder(d, s, coder, buffers),
        manager, pendingWork::run, readerFillsCommitted));
  }

  /** The coder of {@code d}'s k and m, one per pair for all of this FileSystem's readers and writers. */
  private ErasureCoder coderFor(ParityDescriptor d) {
    return coders.computeIfAbsent((long) d.getK() << 32 | d.getM(),
        km -> Coders.create(CodeParameters.of(d.getK(), d.getM()), CoderKind.parse(settings.coderKind)));
  }

  /**
   * The Manager's straggler list as last fetched; refreshed in the background at most
   * every heartbeat interval, so a read never waits for it.
   */
  Set<String> stragglers() {
    return stragglerView.listed();
  }

  /** Tells the Manager how parity fared, off the caller's thread; failures only cost the report. */
  private void report(ParityDescriptor d, ProactiveReader.Outcome o) {
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
    ReadReport r = new ReadReport(d.getFileId(), d.getGeneration(), outcome, slowSources.drainObservations());
    try {
      pendingWork.run(() -> {
        try {
          manager.reportRead(r);
        } catch (IOException | RuntimeException | LinkageError e) {
          LOG.debug("Read report for {} not delivered: {}", d.getPath(), e.toString());
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException closed) {
      // closing
    }
  }

  /**
   * Whether this is the JVM's shutdown and log4j has already been shut down: a YARN task
   * (YarnChild) shuts log4j down before the FileSystem cache closes its file systems, and a
   * line logged then only makes log4j print "No appenders could be found" to the task's stderr.
   */
  private static boolean loggingShutDown() {
    try {
      return org.apache.hadoop.util.ShutdownHookManager.get().isShutdownInProgress()
          && !org.apache.log4j.LogManager.getRootLogger().getAllAppenders().hasMoreElements();
    } catch (RuntimeException | LinkageError e) {
      return false; // no log4j 1 here (a shaded client logging through another backend)
    }
  }

  @Override
  public void close() throws IOException {
    if ((proactiveOpens.get() > 0 || cachedWrites() > 0 || shortWrites() > 0 || fallbacks() > 0)
        && !loggingShutDown()) {
      LOG.info("POCache client summary: {} proactive opens served {} substripes ({} rebuilt from parity, {} pieces"
          + " left to parity), {} fallbacks to plain HDFS ({} stale descriptors, {} Manager calls unanswered or"
          + " skipped, {} failed Redis connects), {} cached writes ({} abandoned), {} writes left to reads (shorter"
          + " than " + writeMinBlocks + " blocks), {} reader fills, {} erasure-coded pieces read through HDFS's"
          + " striped stream, {} replicated pieces through its positional read",
          proactiveOpens.get(), readSubstripes.get(), decodedSubstripes.get(), skippedPieces(), fallbacks(),
          staleDescriptors.get(), managerCallsUnanswered() + managerCallsSkipped(), redisConnectFailures(),
          cachedWrites(), abandonedWrites(), shortWrites(), readerFills.get(), cellFallbacks.get(),
          rangeFallbacks.get());
    }
    if (pendingWork != null) {
      int left = pendingWork.await(CLOSE_WAIT_MILLIS);
      if (left > 0) {
        LOG.debug("Closing with {} POCache commits or notices unfinished", left);
      }
    }
    try {
      super.close();
    } finally {
      FailFastClient ff;
      synchronized (this) {
        ff = failFast;
      }
      if (ff != null) {
        try {
          ff.close();
        } catch (IOException | RuntimeException e) {
          LOG.debug("closing the fail-fast client", e);
        }
      }
      if (pool != null) {
        pool.shutdown();
      }
      if (lookups != null) {
        lookups.shutdown();
      }
      if (manager != null) {
        manager.close();
      }
      for (ErasureCoder c : coders.values()) {
        c.close();
      }
      if (redis != null) {
        redis.close();
      }
    }
  }
}
