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
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.util.Progressable;
import org.pocache.cache.DaemonThreads;
import org.pocache.cache.RedisSettings;
import org.pocache.coder.CodeParameters;
import org.pocache.coder.CoderKind;
import org.pocache.coder.Coders;
import org.pocache.coder.ErasureCoder;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.pocache.hdfs.client.write.CachedWrites;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.CacheExclusions;
import org.pocache.manager.protocol.DescriptorLookup;
import org.pocache.manager.protocol.ManagerAddresses;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
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
 * <p><b>Parts.</b> Here: the overrides HDFS clients call, the lifecycle of what its
 * streams share (the read pool, the parity store, the Manager's client) and the counters
 * operators and tests read. Which stream an open gets, and the read reports: {@link
 * ReadOpens}; a cached file's streams: {@link CachedFileStreams}; writes: {@link
 * CachedWrites}; the Manager's client: {@link ManagerConnection}; Redis: {@link
 * RedisConnection}.
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
  /** The Managers, reached at the first open or create of a file that is not excluded. */
  private ManagerConnection managers;
  /** Redis, reached when parity is first needed. */
  private RedisConnection redis;
  private ExecutorService pool;
  /** Descriptor lookups, run while HDFS opens the file; the caller runs one itself when all are busy. */
  private ThreadPoolExecutor lookups;
  /** Which stream an open gets. */
  private ReadOpens opens;
  private BufferPool buffers;
  private SlowSources slowSources;
  /** The read keys, read once. */
  private ReadSettings settings;
  /** Puts together the streams of files with cached parity. */
  private CachedFileStreams cachedStreams;
  private final Map<Long, ErasureCoder> coders = new ConcurrentHashMap<>();
  private final AtomicLong fallbacks = new AtomicLong();
  /** Reads of an erasure-coded file's pieces left to HDFS's striped stream (DirectBlockReads). */
  private final AtomicLong cellFallbacks = new AtomicLong();
  /** Reads of a replicated file's pieces left to HDFS's positional read (DirectBlockReads). */
  private final AtomicLong rangeFallbacks = new AtomicLong();
  /** Commits, notices and reports started and not yet done. */
  private PendingWork pendingWork;
  private StragglerView stragglerView;
  /** Subblock times shared by this file system's streams; null while POCache is off. */
  private SubblockTimes subblockTimes;
  /** Where fallbacks are said, once each; handed down to the streams and readers. */
  private final Warnings warnings = Warnings.CLIENT;
  /** Streams for sequential reads of cached files on the caller's thread; null until the first. @GuardedBy("this") */
  private FailFastClient failFast;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    // Validate before connecting: a bad switch value fails here, naming the key.
    pocacheEnabled = PoCacheConfig.isEnabled(conf);
    super.initialize(uri, conf);
    if (!pocacheEnabled) {
      return;
    }
    this.conf = conf;
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
    stragglerView = new StragglerView(stragglerRefreshMillis, p, this::managerIfMade, slowSources::drainObservations);
    redis = new RedisConnection(conf, fallbacks);
    CachedFileStreams.Shared shared = new CachedFileStreams.Shared();
    shared.settings = settings;
    shared.pool = pool;
    shared.buffers = buffers;
    shared.slowSources = slowSources;
    shared.subblockTimes = subblockTimes = new SubblockTimes();
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
    shared.report = (d, o) -> opens.report(d, o);
    cachedStreams = new CachedFileStreams(shared);
    w.manager = this::manager;
    w.redis = redis::get;
    w.coders = this::coderFor;
    w.buffers = buffers;
    w.exclusions = exclusions;
    w.fallbacks = (what, why, warn) -> {
      fallbacks.incrementAndGet();
      if (warn) {
        warnings.once(why instanceof LinkageError ? Warnings.MISMATCHED_JAR : what, why);
      }
    };
    writes = new CachedWrites(w);
    lookups = new ThreadPoolExecutor(0, LOOKUP_THREADS, 30, TimeUnit.SECONDS, new SynchronousQueue<Runnable>(),
        DaemonThreads.numbered("pocache-lookup"), new ThreadPoolExecutor.CallerRunsPolicy());
    opens = new ReadOpens(shared, cachedStreams, this::manager, this::managerIfMade, lookups, pendingWork, fallbacks);
    int timeout = PoCacheConfig.getInt(conf, PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_KEY,
        PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_DEFAULT, 1, 600_000);
    try {
      managers = new ManagerConnection(conf, org.apache.hadoop.security.UserGroupInformation.getCurrentUser(),
          ManagerAddresses.of(conf, uri), timeout, stragglerView::refresh, this::managerUnavailable);
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
    ManagerConnection m = managers;
    return m == null || !pocacheEnabled ? null : m.get();
  }

  /** The Manager's client if it was made; never makes it. */
  private ManagerClient managerIfMade() {
    ManagerConnection m = managers;
    return m == null ? null : m.ifMade();
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
    ManagerClient m = managerIfMade();
    return fallbacks.get() + (m == null ? 0 : m.failedLookups());
  }

  /**
   * Opens whose descriptor was made for other blocks than the stream HDFS opened (the
   * file was overwritten, appended or truncated between the Manager's lookup and the
   * NameNode's answer): read as plain HDFS, also counted in {@link #fallbacks()}.
   */
  public long staleDescriptors() {
    return opens == null ? 0 : opens.staleDescriptors();
  }

  /** Connects to Redis that failed (each stands for dfs.pocache.redis.breaker.open.ms). */
  public long redisConnectFailures() {
    return redis == null ? 0 : redis.connectFailures();
  }

  /** Calls to the Manager it did not answer within the timeout. */
  public long managerCallsUnanswered() {
    ManagerClient m = managerIfMade();
    return m == null ? 0 : m.unansweredCalls();
  }

  /** Calls not made because the Manager had not answered shortly before (see {@link ManagerClient}). */
  public long managerCallsSkipped() {
    ManagerClient m = managerIfMade();
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
    return opens == null ? 0 : opens.proactiveOpens();
  }

  /** Read misses the Manager handed to this client to fill while reading. */
  public long readerFills() {
    return opens == null ? 0 : opens.readerFills();
  }

  /** Of those, the ones whose parity this client uploaded and committed. */
  public long readerFillsCommitted() {
    return opens == null ? 0 : opens.readerFillsCommitted();
  }

  /** Data pieces proactive reads left to parity because their DataNode was slow (see {@link SlowSources}). */
  public long skippedPieces() {
    return slowSources == null ? 0 : slowSources.skipped();
  }

  /** Substripes (or subblocks of sequential reads) that proactive streams served. */
  public long readSubstripes() {
    return opens == null ? 0 : opens.readSubstripes();
  }

  /** Of those, the ones rebuilt from parity because a data piece was late or left to parity. */
  public long decodedSubstripes() {
    return opens == null ? 0 : opens.decodedSubstripes();
  }

  /**
   * Of the proactive fetches (one per run of substripes read together), the ones that
   * asked Redis for their parity: all of them while a DataNode is suspect, else only
   * those in which a piece lagged behind its peers.
   */
  public long parityGets() {
    return opens == null ? 0 : opens.parityGets();
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
    // Ask the Manager while the NameNode is asked for the block locations.
    Future<DescriptorLookup> lookup = opens.lookup(path);
    FSDataInputStream vanilla;
    try {
      vanilla = openInHdfs(f, bufferSize);
    } catch (IOException | RuntimeException | LinkageError e) {
      opens.releaseFill(lookup, "the reader could not open the file: " + e);
      throw e;
    }
    return opens.streamFor(lookup, vanilla, path);
  }

  /** Positional reads of files without cached parity whose blocks were read at once. */
  public long parallelBlockReads() {
    return opens == null ? 0 : opens.parallelBlockReads();
  }

  /** HDFS's own open (DistributedFileSystem's); a seam for tests that race it against the Manager's lookup. */
  FSDataInputStream openInHdfs(Path f, int bufferSize) throws IOException {
    return super.open(f, bufferSize);
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

  /** The coder of {@code d}'s k and m, one per pair for all of this FileSystem's readers and writers. */
  private ErasureCoder coderFor(ParityDescriptor d) {
    return coders.computeIfAbsent((long) d.getK() << 32 | d.getM(),
        km -> Coders.create(CodeParameters.of(d.getK(), d.getM()), CoderKind.parse(settings.coderKind)));
  }

  /**
   * As if a rebuild had succeeded through this file system: its readers' own subblocks are
   * judged by the deadline from now on, not the cold bar (see {@link SubblockDeadlines#lateAlone()}).
   * For tests of what a late subblock does in a client past its first rebuild.
   */
  void rebuiltOneForTests() {
    subblockTimes.rebuiltOne();
  }

  /**
   * The Manager's straggler list as last fetched; refreshed in the background at most
   * every heartbeat interval, so a read never waits for it.
   */
  Set<String> stragglers() {
    return stragglerView.listed();
  }

  /** Which of {@link #stragglers()} the Manager lists on clients' reads, fetched with them. */
  Set<String> stragglersByClientReads() {
    return stragglerView.seenSlowByClients();
  }

  @Override
  public void close() throws IOException {
    ClientSummary.log(LOG, this, writeMinBlocks);
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
      if (managers != null) {
        managers.close();
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
