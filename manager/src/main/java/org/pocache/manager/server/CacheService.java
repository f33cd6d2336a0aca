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
package org.pocache.manager.server;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.pocache.cache.DaemonThreads;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParityStore;
import org.pocache.cache.ParityStoreException;
import org.pocache.cache.RedisParityStore;
import org.pocache.cache.RedisSettings;
import org.pocache.csac.Csac;
import org.pocache.csac.Decision;
import org.pocache.csac.FileRef;
import org.pocache.csac.ParityFootprint;
import org.pocache.csac.policy.Policies;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.WriteExclusions;
import org.pocache.manager.proto.PoCacheManagerProtos.AdmitWriteResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.CacheStateProto;
import org.pocache.manager.proto.PoCacheManagerProtos.DataNodeObservationProto;
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;
import org.pocache.manager.proto.PoCacheManagerProtos.GetDescriptorResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ListCachedResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ParityProtectionProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReadOutcomeProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReportProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReportReadRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReservationProto;
import org.pocache.manager.protocol.PoCacheManagerProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Manager's decisions: the cache index, CSAC, reservations and fills, kept
 * consistent with Redis.
 *
 * <p><b>Concurrency.</b> All cache state (CSAC, the {@link CacheIndex}, the
 * generation counter, the known-files map) is guarded by one lock,
 * {@code state}, held only for in-memory work (microseconds). NameNode calls and
 * Redis I/O never happen under it. Every Redis change of the Manager's own (index
 * entries, deletion of a file's keys) runs on one housekeeping thread, submitted
 * while {@code state} is held, so Redis sees them in the order the index changed.
 * The same thread runs the periodic tick: Redis health and restart detection, the
 * straggler list into CSAC, prefetch, reservation expiry and a slow sweep that
 * drops entries of files deleted from HDFS. The straggler detector has its own lock.
 *
 * <p><b>Consistency with Redis.</b> A descriptor is served only for an entry that
 * is CACHED, was written to the Redis incarnation now running (INFO run_id), and
 * matches the file as the NameNode describes it now (inode id, length,
 * modification time, closed). A Redis restart invalidates the whole index; a
 * Manager restart rebuilds it from the index hash in Redis, keeping only entries
 * whose file is unchanged and whose keys exist. Keys of a file whose parity is
 * dropped are deleted by their known names (never KEYS/SCAN); deletions that fail
 * are retried on later ticks.
 */
public final class CacheService implements PoCacheManagerProtocol, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CacheService.class);
  /** The sweep visits every cached entry about once per this long, spread over the ticks. */
  private static final long SWEEP_ROUND_MILLIS = 10 * 60_000;
  private static final int MAX_PENDING_DELETES = 100_000;
  private static final java.security.SecureRandom RESERVATION_IDS = new java.security.SecureRandom();

  private final Namespace namespace;
  private final StragglerMonitor stragglers;
  private final RedisSettings redisSettings;
  private final LongSupplier clock;
  private final ManagerMetrics metrics;

  // Configuration.
  private final int k;
  private final int m;
  private final int subblock;
  private final long capacity;
  private final long maxFileBytes;
  private final long minFileBytes;
  private final WriteExclusions writeExclusions;
  private final long reservationTtl;
  private final int prefetchCandidates;
  private final double prefetchRatio;
  private final String policies;
  private final AccessControlList admins;
  private final String superGroup;
  private final String managerUser;
  private final ParitySecrets secrets;
  private final double userShare;
  /** When the Manager last read back a file's parity on a reader's report (guarded by state). */
  private final Map<Long, Long> lastVerified = new LinkedHashMap<Long, Long>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
      return size() > 10_000;
    }
  };
  private static final long VERIFY_EVERY_MILLIS = 60_000;
  private final AccessControlList dataNodeUsers;
  /** The DataNodes the NameNode has registered (refreshed each tick), or null if unknown. */
  private volatile Set<String> registered;
  private boolean loggedNoDataNodeList;

  // Guarded by state.
  private final ReentrantLock state = new ReentrantLock();
  private final Csac csac;
  private final CacheIndex index = new CacheIndex();
  private final Map<Long, FileInfo> known;
  private long lastGeneration;

  // Housekeeping thread only.
  private final ScheduledExecutorService housekeeping;
  private final Deque<CacheIndex.Entry> pendingDeletes = new ArrayDeque<>();
  private final Deque<Long> sweep = new ArrayDeque<>();
  private ParityStore store;
  private String runId;
  private boolean loggedRedisDown;
  private boolean loggedRebuildWait;
  private long tickMillis = 1000;
  private int sweepPerTick = 1;

  /** Descriptors are served and admissions made only while Redis answers and the index is valid. */
  private volatile boolean ready;
  private volatile String redisRunIdForWrites = "";
  private volatile ParityFiller filler;

  /**
   * Reads and validates the configuration; does not touch Redis or HDFS yet
   * ({@link #start} does, and keeps trying).
   *
   * @throws IllegalArgumentException naming a bad key
   */
  public CacheService(Configuration conf, Namespace namespace, StragglerMonitor stragglers, LongSupplier clock) {
    this.namespace = namespace;
    this.stragglers = stragglers;
    this.clock = clock;
    this.redisSettings = RedisSettings.from(PoCacheConfig.redisLookup(conf));
    k = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CODE_K_KEY, PoCacheConfigKeys.CODE_K_DEFAULT, 2, 32);
    m = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CODE_M_KEY, PoCacheConfigKeys.CODE_M_DEFAULT, 1, 4);
    subblock = PoCacheConfig.getInt(conf, PoCacheConfigKeys.SUBBLOCK_KEY, PoCacheConfigKeys.SUBBLOCK_DEFAULT,
        4096, 1 << 30);
    capacity = PoCacheConfig.getLong(conf, PoCacheConfigKeys.CACHE_CAPACITY_KEY,
        PoCacheConfigKeys.CACHE_CAPACITY_DEFAULT, 1, Long.MAX_VALUE);
    maxFileBytes = PoCacheConfig.getLong(conf, PoCacheConfigKeys.CACHE_MAX_FILE_KEY,
        PoCacheConfigKeys.CACHE_MAX_FILE_DEFAULT, 1, Long.MAX_VALUE);
    minFileBytes = PoCacheConfig.getLong(conf, PoCacheConfigKeys.CACHE_MIN_FILE_KEY,
        PoCacheConfigKeys.CACHE_MIN_FILE_DEFAULT, 0, Long.MAX_VALUE);
    writeExclusions = WriteExclusions.from(conf);
    reservationTtl = PoCacheConfig.getLong(conf, PoCacheConfigKeys.MANAGER_RESERVATION_TTL_KEY,
        PoCacheConfigKeys.MANAGER_RESERVATION_TTL_DEFAULT, 1, Long.MAX_VALUE);
    prefetchCandidates = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CSAC_PREFETCH_CANDIDATES_KEY,
        PoCacheConfigKeys.CSAC_PREFETCH_CANDIDATES_DEFAULT, 1, 1_000_000);
    prefetchRatio = PoCacheConfig.getDouble(conf, PoCacheConfigKeys.CSAC_PREFETCH_RATIO_KEY,
        PoCacheConfigKeys.CSAC_PREFETCH_RATIO_DEFAULT, 0, 1);
    int history = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CSAC_PREDICTION_HISTORY_KEY,
        PoCacheConfigKeys.CSAC_PREDICTION_HISTORY_DEFAULT, 1, 100_000_000);
    int expected = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CSAC_EXPECTED_FILES_KEY,
        PoCacheConfigKeys.CSAC_EXPECTED_FILES_DEFAULT, 1, 1_000_000_000);
    long exclusive = PoCacheConfig.getLong(conf, PoCacheConfigKeys.CSAC_EXCLUSIVE_LIMIT_KEY,
        PoCacheConfigKeys.CSAC_EXCLUSIVE_LIMIT_DEFAULT, 0, Long.MAX_VALUE);
    String a = conf.getTrimmed(PoCacheConfigKeys.CSAC_ADMISSION_KEY, PoCacheConfigKeys.CSAC_ADMISSION_DEFAULT);
    String e = conf.getTrimmed(PoCacheConfigKeys.CSAC_EVICTION_KEY, PoCacheConfigKeys.CSAC_EVICTION_DEFAULT);
    String p = conf.getTrimmed(PoCacheConfigKeys.CSAC_PREDICTION_KEY, PoCacheConfigKeys.CSAC_PREDICTION_DEFAULT);
    csac = new Csac(capacity, Policies.admission(PoCacheConfigKeys.CSAC_ADMISSION_KEY, a, capacity, expected),
        Policies.eviction(PoCacheConfigKeys.CSAC_EVICTION_KEY, e, capacity),
        Policies.prediction(PoCacheConfigKeys.CSAC_PREDICTION_KEY, p, history), prefetchRatio, exclusive, clock);
    policies = a + "/" + e + "/" + p;
    known = new LinkedHashMap<Long, FileInfo>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, FileInfo> eldest) {
        return size() > history;
      }
    };
    admins = new AccessControlList(conf.get(PoCacheConfigKeys.MANAGER_ADMINS_KEY,
        PoCacheConfigKeys.MANAGER_ADMINS_DEFAULT));
    superGroup = conf.getTrimmed("dfs.permissions.superusergroup", "supergroup");
    try {
      managerUser = UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException ex) {
      throw new IllegalStateException("cannot tell which user the Manager runs as", ex);
    }
    secrets = ParitySecrets.from(conf);
    dataNodeUsers = new AccessControlList(conf.get(PoCacheConfigKeys.MANAGER_DATANODE_USERS_KEY,
        PoCacheConfigKeys.MANAGER_DATANODE_USERS_DEFAULT));
    userShare = PoCacheConfig.getDouble(conf, PoCacheConfigKeys.MANAGER_USER_SHARE_KEY,
        PoCacheConfigKeys.MANAGER_USER_SHARE_DEFAULT, 0.0, 1.0);
    lastGeneration = clock.getAsLong() * 1000; // unique across Manager restarts while the clock moves on
    metrics = new ManagerMetrics(this::gauges);
    ScheduledThreadPoolExecutor h = new ScheduledThreadPoolExecutor(1,
        DaemonThreads.named("pocache-manager-housekeeping"));
    h.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    housekeeping = h;
  }

  /** Starts the periodic tick (the first connects to Redis and rebuilds the index) and metrics. */
  void start(long tickMillis, ParityFiller filler) {
    this.filler = filler;
    this.tickMillis = tickMillis;
    metrics.register();
    housekeeping.scheduleWithFixedDelay(this::tick, 0, tickMillis, TimeUnit.MILLISECONDS);
  }

  public ManagerMetrics metrics() {
    return metrics;
  }

  /** Whether descriptors are being served (Redis answers and the index is valid). */
  public boolean ready() {
    return ready;
  }

  // --- clients -------------------------------------------------------------------------

  @Override
  public void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException {
    checkDataNodeCaller(dataNode);
    stragglers.heartbeat(dataNode, bytesRead, serviceMillis, readOps);
  }

  @Override
  public StragglerList getStragglers() {
    return stragglers.getStragglers();
  }

  @Override
  public GetDescriptorResponseProto getDescriptor(String path) throws IOException {
    return getDescriptor(path, false);
  }

  @Override
  public GetDescriptorResponseProto getDescriptor(String path, boolean readerFills) throws IOException {
    long t0 = System.nanoTime();
    FileInfo f = namespace.open(checkPath(path)); // the NameNode checks the caller's READ permission
    Code code = codeFor(f);
    FileRef ref = code.cacheable ? fileRef(f, code, f.length) : null;
    DescriptorProto descriptor = null;
    String decision;
    CacheIndex.Entry fill = null;
    List<CacheIndex.Entry> victims = Collections.emptyList();
    state.lock();
    try {
      CacheIndex.Entry e = index.get(f.id);
      if (e != null && e.state == CacheStateProto.CACHED && !e.matches(f)) {
        victims = new ArrayList<>(1);
        victims.add(dropLocked(e, "the file changed in HDFS"));
        metrics.invalidations.incrementAndGet();
        e = null;
      }
      if (e != null) {
        followRenameLocked(e, f);
      }
      if (ref == null) {
        decision = code.why;
      } else {
        known.put(f.id, f);
        Decision d = csac.query(ref);
        boolean fillNow = d == Decision.SHOULD_CACHE && canFill(f) && e == null;
        List<Long> evicted = csac.update(ref, fillNow ? Decision.SHOULD_CACHE
            : d == Decision.CACHED ? Decision.CACHED : Decision.SHOULD_NOT_CACHE);
        victims = evictLocked(evicted, victims);
        if (fillNow) {
          fill = newEntryLocked(f, code, ref.weight(), CacheStateProto.FILLING);
          fill.length = f.length;
          fill.modificationTime = f.modificationTime;
          fill.readerFill = readerFills;
        }
        decision = e != null ? e.state.name() : fillNow ? "FILLING" : d.name();
      }
      if (e != null && e.state == CacheStateProto.CACHED && ready) {
        if (e.blocksDigest == 0) {
          e.blocksDigest = f.blocksDigest; // it matches: the blocks are those the parity was made from
          e.served = null;
        }
        if (e.served == null) {
          e.served = secrets.withKey(e.toProto(redisSettings.prefix));
        }
        descriptor = e.served;
      } else if (e != null && e.state == CacheStateProto.CACHED) {
        decision = "CACHE_UNAVAILABLE";
      }
      submitDeletesLocked(victims);
    } finally {
      state.unlock();
    }
    (descriptor != null ? metrics.hits : metrics.misses).incrementAndGet();
    GetDescriptorResponseProto.Builder b = GetDescriptorResponseProto.newBuilder().setDecision(decision);
    if (fill != null && fill.readerFill && secrets.protection() != org.pocache.cache.ParityProtection.NONE
        && !canWriteQuietly(f.path != null ? f.path : path)) {
      // A reader's parity is trusted by every other reader of the file: under protection,
      // only a caller who could change the file itself fills; else the fill worker does.
      state.lock();
      try {
        fill.readerFill = false;
      } finally {
        state.unlock();
      }
    }
    if (fill != null) {
      metrics.admissions.incrementAndGet();
      if (fill.readerFill) {
        b.setFill(ReservationProto.newBuilder().setId(fill.reservationId)
            .setParity(secrets.withKey(fill.toProto(redisSettings.prefix)))
            .setExpiresAtMillis(fill.expiresAtMillis));
      } else {
        dispatchFill(fill);
      }
    }
    metrics.lookup(System.nanoTime() - t0);
    if (descriptor != null) {
      b.setParity(descriptor);
    }
    return b.build();
  }

  @Override
  public AdmitWriteResponseProto admitWrite(String path, long expectedMaxBytes) throws IOException {
    long t0 = System.nanoTime();
    try {
      if (expectedMaxBytes < 0) {
        throw new IllegalArgumentException("expected maximum size of " + path + " must be >= 0 bytes (0: unknown), got "
            + expectedMaxBytes);
      }
      FileInfo f = namespace.open(checkPath(path));
      // create(overwrite) replaced whatever file had this path: drop the old one's parity now,
      // not when the sweep finds it gone (until then it would only take room).
      dropReplaced(f.path != null ? f.path : path, f.id);
      Code code = codeFor(f);
      // A write of unknown size reserves the parity of one stripe (k blocks) and grows
      // with the file (growReservations); reserving for the largest cacheable file, as
      // paper 4.2 does, let four writers hold a 1 GiB cache and evict everything else.
      long size = expectedMaxBytes == 0 ? Math.min(maxFileBytes, (long) code.k * f.blockSize) : expectedMaxBytes;
      String excludedBy = writeExclusions.excludedBy(f.path != null ? f.path : path);
      String refusal = !ready ? "the cache is unavailable (Redis down or the index is being rebuilt)"
          : excludedBy != null ? "files under " + excludedBy + " directories are not cached on write ("
              + PoCacheConfigKeys.WRITE_EXCLUDE_DIRS_KEY + ")"
          : !code.cacheable ? code.why
          : f.complete ? path + " is not open for write"
          : size > maxFileBytes ? "expected size " + size + " exceeds " + PoCacheConfigKeys.CACHE_MAX_FILE_KEY + " = "
              + maxFileBytes
          : null;
      CacheIndex.Entry reserved = null;
      if (refusal == null) {
        FileRef ref = fileRef(f, code, size);
        state.lock();
        try {
          CacheIndex.Entry e = index.get(f.id);
          String caller = callerName();
          long held = caller == null || caller.equals(managerUser) ? 0 : index.reservedBy(caller);
          if (e != null) {
            refusal = "file id " + f.id + " already has parity " + e.state;
          } else if (held > 0 && held + ref.weight() > userShare * capacity) {
            refusal = "user " + caller + " already holds " + held + " bytes of reservations; "
                + PoCacheConfigKeys.MANAGER_USER_SHARE_KEY + " = " + userShare + " of the cache is the most one user"
                + " may reserve";
          } else if (!csac.admitNew(ref)) {
            refusal = "CSAC's admission policy declined (" + policies + ")";
          } else {
            // Paper 4.2: reserve for the largest size the file may reach; commit trims it.
            List<CacheIndex.Entry> victims = evictLocked(csac.insert(ref), Collections.<CacheIndex.Entry>emptyList());
            reserved = newEntryLocked(f, code, ref.weight(), CacheStateProto.RESERVED);
            submitDeletesLocked(victims);
          }
        } finally {
          state.unlock();
        }
      }
      AdmitWriteResponseProto.Builder b = AdmitWriteResponseProto.newBuilder();
      if (reserved == null) {
        metrics.refusedAdmissions.incrementAndGet();
        return b.setReason(refusal).build();
      }
      metrics.admissions.incrementAndGet();
      return b.setReason("admitted").setReservation(ReservationProto.newBuilder().setId(reserved.reservationId)
          .setParity(secrets.withKey(reserved.toProto(redisSettings.prefix)))
          .setExpiresAtMillis(reserved.expiresAtMillis)).build();
    } finally {
      metrics.rpc(System.nanoTime() - t0);
    }
  }

  @Override
  public void commit(long reservationId, long fileId, long length, long parityBytes, byte[] valueDigests)
      throws IOException {
    long t0 = System.nanoTime();
    try {
      if (length < 0) {
        throw new IllegalArgumentException("length of file id " + fileId + " must be >= 0, got " + length);
      }
      if (parityBytes < 0) {
        throw new IllegalArgumentException("parity bytes of file id " + fileId + " must be >= 0, got " + parityBytes);
      }
      CacheIndex.Entry e = openReservation(reservationId, fileId);
      checkOwner(e);
      FileInfo f = namespace.byId(fileId);
      String wrong = f == null ? "file id " + fileId + " no longer exists"
          : !f.complete ? e.path + " is still open for write"
          : f.length != length ? e.path + " has " + f.length + " bytes, not " + length
          : e.state == CacheStateProto.FILLING
              && (f.modificationTime != e.modificationTime || f.blocksDigest != e.blocksDigest)
              ? e.path + " changed while its parity was being filled"
          : length > maxFileBytes ? e.path + " has " + length + " bytes, more than " + PoCacheConfigKeys.CACHE_MAX_FILE_KEY
              + " = " + maxFileBytes
          : length < minFileBytes ? e.path + " has " + length + " bytes, fewer than "
              + PoCacheConfigKeys.CACHE_MIN_FILE_KEY + " = " + minFileBytes
          : parityBytes > ParityFootprint.parityBytes(length, e.blockSize, e.k, e.m)
              ? parityBytes + " parity bytes is more than a file of " + length + " bytes has"
          : digestProblem(e, length, valueDigests);
      if (wrong != null) {
        abort(reservationId, wrong);
        throw new IOException("commit of reservation " + reservationId + " refused: " + wrong
            + "; the reservation is aborted");
      }
      state.lock();
      try {
        if (index.reservation(reservationId) != e) {
          throw new IOException("reservation " + reservationId + " ended while committing: "
              + index.closedAs(reservationId));
        }
        boolean wasFill = e.state == CacheStateProto.FILLING;
        // Trim the reservation to what was stored, or grow it to that (evicting as needed)
        // if the file outgrew it since the last tick.
        csac.remove(fileId);
        List<CacheIndex.Entry> victims = evictLocked(
            csac.insert(new FileRef(fileId, Math.max(1, parityBytes), f.dataNodes.toArray(new String[0]))),
            Collections.<CacheIndex.Entry>emptyList());
        submitDeletesLocked(victims);
        index.closeReservation(e, "committed");
        e.state = CacheStateProto.CACHED;
        e.path = f.path != null ? f.path : e.path;
        e.length = f.length;
        e.modificationTime = f.modificationTime;
        e.blocksDigest = f.blocksDigest;
        e.parityBytes = Math.max(1, parityBytes);
        e.valueDigests = e.protection == ParityProtectionProto.PROTECTION_NONE ? ByteString.EMPTY
            : ByteString.copyFrom(valueDigests);
        e.redisRunId = redisRunIdForWrites;
        known.put(fileId, f);
        DescriptorProto d = e.toProto(redisSettings.prefix);
        submitLocked(() -> store().index().put(fileId, secrets.sealIndexEntry(fileId, d)));
        if (wasFill) {
          metrics.fills.incrementAndGet();
        }
      } finally {
        state.unlock();
      }
    } finally {
      metrics.rpc(System.nanoTime() - t0);
    }
  }

  @Override
  public void abort(long reservationId, String reason) throws IOException {
    long t0 = System.nanoTime();
    CacheIndex.Entry takeOver = null;
    try {
      state.lock();
      try {
        CacheIndex.Entry e = index.reservation(reservationId);
        if (e == null) {
          throw unknownReservation(reservationId);
        }
        checkOwner(e);
        if (e.readerFill) {
          // The reader could not fill it (it did not read the whole file, Redis failed
          // it, ...): the fill worker takes over the same reservation and keys.
          e.readerFill = false;
          takeOver = e;
          LOG.debug("Reservation {} for {} handed from its reader to the fill worker: {}", reservationId, e, reason);
        } else {
          if (e.state == CacheStateProto.FILLING) {
            metrics.failedFills.incrementAndGet();
          }
          LOG.debug("Reservation {} for {} aborted: {}", reservationId, e, reason);
          submitDeletesLocked(Collections.singletonList(dropLocked(e, "aborted: " + reason)));
        }
      } finally {
        state.unlock();
      }
      if (takeOver != null) {
        dispatchFill(takeOver);
      }
    } finally {
      metrics.rpc(System.nanoTime() - t0);
    }
  }

  @Override
  public void reportRead(ReportReadRequestProto report) throws IOException {
    long t0 = System.nanoTime();
    try {
      long fileId = report.getFileId();
      for (DataNodeObservationProto o : report.getObservationsList()) {
        if (o.getBytes() < 0 || !(o.getMillis() >= 0) || Double.isInfinite(o.getMillis())) {
          throw new IllegalArgumentException("read report for file id " + fileId + ": observation of "
              + o.getDataNode() + " needs bytes >= 0 and a finite time >= 0 ms, got " + o.getBytes() + " bytes in "
              + o.getMillis() + " ms");
        }
      }
      if (report.getOutcome() == ReadOutcomeProto.OBSERVATIONS_ONLY) {
        observe(report);
        return; // a client's long reads still under way: no file's read ended
      }
      // A file the index knows needs no NameNode call (one per read otherwise); an
      // unknown id is checked, so a bad report still gets a clear error.
      boolean indexed;
      state.lock();
      try {
        indexed = index.get(fileId) != null;
      } finally {
        state.unlock();
      }
      if (!indexed && namespace.byId(fileId) == null) {
        throw new FileNotFoundException("read report names file id " + fileId + ", which does not exist");
      }
      observe(report);
      switch (report.getOutcome()) {
        case STRAGGLER_MASKED:
          metrics.stragglerHits.incrementAndGet();
          break;
        case PARITY_MISSING:
        case PARITY_CORRUPT:
          metrics.parityFaults.incrementAndGet();
          if (secrets.protection() != org.pocache.cache.ParityProtection.NONE) {
            // Protected parity can be checked here: a reader's word alone drops nothing.
            verifyLater(fileId, report.getGeneration());
            break;
          }
          state.lock();
          try {
            CacheIndex.Entry e = index.get(fileId);
            if (e != null && e.generation == report.getGeneration() && e.state == CacheStateProto.CACHED) {
              metrics.invalidations.incrementAndGet();
              submitDeletesLocked(Collections.singletonList(dropLocked(e, "a reader found its parity "
                  + (report.getOutcome() == ReadOutcomeProto.PARITY_MISSING
                      ? "missing" : "corrupt"))));
            }
          } finally {
            state.unlock();
          }
          break;
        default:
          break;
      }
    } finally {
      metrics.rpc(System.nanoTime() - t0);
    }
  }

  /**
   * A reader reported a file's protected parity missing or bad: the housekeeping thread
   * reads every value back and drops the parity only if one is missing or does not open.
   * At most one check per file a minute, so reports cannot keep the Manager reading.
   */
  private void verifyLater(long fileId, long generation) {
    long now = clock.getAsLong();
    state.lock();
    try {
      CacheIndex.Entry e = index.get(fileId);
      Long last = lastVerified.get(fileId);
      if (e == null || e.generation != generation || e.state != CacheStateProto.CACHED
          || last != null && now - last < VERIFY_EVERY_MILLIS) {
        return;
      }
      lastVerified.put(fileId, now);
      DescriptorProto d = secrets.withKey(e.toProto(redisSettings.prefix));
      housekeeping.execute(() -> verify(d));
    } catch (RejectedExecutionException closed) {
      // shutting down
    } finally {
      state.unlock();
    }
  }

  /** Housekeeping thread: checks every stored value of {@code d}'s parity (see {@link #verifyLater}). */
  private void verify(DescriptorProto d) {
    String bad = null;
    metrics.parityChecks.incrementAndGet();
    try {
      org.pocache.cache.ParitySeal seal = org.pocache.manager.protocol.ParitySeals.forReading(d);
      byte[] digests = d.getValueDigests().toByteArray();
      int per = org.pocache.cache.ParityValue.DIGEST_BYTES;
      List<ParityKey> batch = new ArrayList<>();
      for (int slot = 0; slot * per < digests.length && bad == null; slot++) {
        boolean stored = false;
        for (int i = 0; i < per; i++) {
          stored |= digests[slot * per + i] != 0;
        }
        if (stored) {
          int p = slot % d.getM();
          int j = (slot / d.getM()) % d.getSubstripesPerStripe();
          int s = slot / d.getM() / d.getSubstripesPerStripe();
          batch.add(store.key(seal, d.getFileId(), d.getGeneration(), s, j, p));
        }
        if (batch.size() == 8 || (slot + 1) * per >= digests.length) {
          org.pocache.cache.ParityValue[] got = batch.isEmpty() ? new org.pocache.cache.ParityValue[0]
              : store.getAll(batch);
          for (int i = 0; i < got.length && bad == null; i++) {
            bad = got[i] == null ? batch.get(i) + " is missing" : null;
          }
          batch.clear();
        }
      }
    } catch (org.pocache.cache.CorruptParityException e) {
      bad = e.getMessage();
    } catch (ParityStoreException | RuntimeException e) {
      LOG.debug("The parity of {} could not be checked: {}", d.getPath(), e.toString());
      return;
    }
    if (bad == null) {
      LOG.debug("A reader reported the parity of {} (generation {}) bad; every value opens: kept", d.getPath(),
          d.getGeneration());
      return;
    }
    state.lock();
    try {
      CacheIndex.Entry e = index.get(d.getFileId());
      if (e != null && e.generation == d.getGeneration() && e.state == CacheStateProto.CACHED) {
        metrics.invalidations.incrementAndGet();
        submitDeletesLocked(Collections.singletonList(dropLocked(e, "its parity failed the Manager's check: " + bad)));
      }
    } finally {
      state.unlock();
    }
  }

  private void observe(ReportReadRequestProto report) throws IOException {
    Set<String> known = registered;
    for (DataNodeObservationProto o : report.getObservationsList()) {
      if (known != null && !known.contains(o.getDataNode())) {
        continue; // not a DataNode of this cluster: the detector keeps no state for made-up names
      }
      stragglers.observe(o.getDataNode(), o.getBytes(), o.getMillis());
      metrics.clientObservations.incrementAndGet();
    }
  }

  // --- operators -----------------------------------------------------------------------

  @Override
  public ReportProto getReport() {
    ManagerMetrics.Gauges g = gauges();
    StragglerList s = stragglers.getStragglers();
    return ReportProto.newBuilder().setCapacityBytes(g.capacity).setUsedBytes(g.used).setFilesCached(g.filesCached)
        .setReservations(g.reservations).setHits(metrics.hits.get()).setMisses(metrics.misses.get())
        .setStragglerHits(metrics.stragglerHits.get()).setClientObservations(metrics.clientObservations.get()).setAdmissions(metrics.admissions.get())
        .setEvictions(metrics.evictions.get()).setPrefetches(metrics.prefetches.get())
        .setFailedFills(metrics.failedFills.get()).addAllStragglers(s.dataNodes).setDetector(s.detector)
        .setPolicies(policies).setRedisHealthy(g.redisHealthy).setRedisRestarts(metrics.redisRestarts.get()).build();
  }

  @Override
  public ListCachedResponseProto listCached(String pathPrefix, int limit) throws IOException {
    checkAdmin("list cached files"); // paths, ids and generations of every user's files
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be > 0, got " + limit);
    }
    String prefix = pathPrefix == null || pathPrefix.equals("/") ? "" : pathPrefix;
    List<DescriptorProto> out = new ArrayList<>();
    state.lock();
    try {
      for (CacheIndex.Entry e : index.entries()) {
        if (e.path.startsWith(prefix)) {
          out.add(e.toProto(redisSettings.prefix));
        }
      }
    } finally {
      state.unlock();
    }
    out.sort(Comparator.comparing(DescriptorProto::getPath));
    boolean truncated = out.size() > limit;
    return ListCachedResponseProto.newBuilder().addAllDescriptors(truncated ? out.subList(0, limit) : out)
        .setTruncated(truncated).build();
  }

  @Override
  public String forgetDeleted(String path) throws IOException {
    String p = checkPath(path);
    if (namespace.exists(p)) {
      // Not deleted (or already created again): nothing to do, and no NameNode call per
      // cached file under it, which a client could otherwise ask for at will.
      return path + ": still exists, nothing dropped";
    }
    String under = p.endsWith("/") ? p : p + "/";
    List<Long> candidates = new ArrayList<>();
    state.lock();
    try {
      for (CacheIndex.Entry e : index.entries()) {
        if (e.state == CacheStateProto.CACHED && (e.path.equals(p) || e.path.startsWith(under))) {
          candidates.add(e.fileId);
        }
      }
    } finally {
      state.unlock();
    }
    int dropped = dropIfGone(candidates);
    return path + ": parity of " + dropped + " deleted file" + (dropped == 1 ? "" : "s") + " dropped";
  }

  /** Drops the parity of cached files listed under {@code path} other than file {@code id} that no longer exist. */
  private void dropReplaced(String path, long id) {
    List<Long> candidates = new ArrayList<>(1);
    state.lock();
    try {
      for (CacheIndex.Entry e : index.entries()) {
        if (e.state == CacheStateProto.CACHED && e.fileId != id && e.path.equals(path)) {
          candidates.add(e.fileId);
        }
      }
    } finally {
      state.unlock();
    }
    if (!candidates.isEmpty()) {
      dropIfGone(candidates);
    }
  }

  /** Drops the parity of each listed file the NameNode no longer has; returns how many. */
  private int dropIfGone(List<Long> candidates) {
    int dropped = 0;
    for (long id : candidates) {
      FileInfo f;
      try {
        f = namespace.byId(id); // checked as the caller: a file it cannot see is left to the sweep
      } catch (IOException e) {
        continue;
      }
      state.lock();
      try {
        CacheIndex.Entry e = index.get(id);
        if (f == null && e != null && e.state == CacheStateProto.CACHED) {
          metrics.invalidations.incrementAndGet();
          submitDeletesLocked(Collections.singletonList(dropLocked(e, "deleted")));
          dropped++;
        }
      } finally {
        state.unlock();
      }
    }
    return dropped;
  }

  @Override
  public String evict(String path) throws IOException {
    checkAdmin("evict");
    FileInfo f = namespace.open(checkPath(path));
    state.lock();
    try {
      CacheIndex.Entry e = index.get(f.id);
      if (e == null) {
        return path + ": not cached";
      }
      csac.remove(f.id);
      metrics.evictions.incrementAndGet();
      String was = e.state.name();
      submitDeletesLocked(Collections.singletonList(dropLocked(e, "evicted by an operator")));
      return path + ": evicted (" + was + ", " + e.parityBytes + " parity bytes)";
    } finally {
      state.unlock();
    }
  }

  @Override
  public String prefetch(String path) throws IOException {
    checkAdmin("prefetch");
    FileInfo f = namespace.open(checkPath(path));
    Code code = codeFor(f);
    if (!code.cacheable) {
      throw new IOException(path + " cannot be cached: " + code.why);
    }
    if (filler == null) {
      throw new IOException("no fill worker: set " + PoCacheConfigKeys.MANAGER_FILLER_KEY);
    }
    if (!canFill(f)) {
      throw new IOException(path + " cannot be filled now: " + (!ready ? "the cache is unavailable"
          : !f.complete ? "it is open for write" : f.length < minFileBytes ? "it is smaller than "
          + PoCacheConfigKeys.CACHE_MIN_FILE_KEY : "it is larger than " + PoCacheConfigKeys.CACHE_MAX_FILE_KEY));
    }
    CacheIndex.Entry fill;
    state.lock();
    try {
      CacheIndex.Entry e = index.get(f.id);
      if (e != null && !(e.state == CacheStateProto.CACHED && !e.matches(f))) {
        return path + ": already " + e.state;
      }
      List<CacheIndex.Entry> victims = new ArrayList<>();
      if (e != null) {
        victims.add(dropLocked(e, "the file changed in HDFS"));
      }
      FileRef ref = fileRef(f, code, f.length);
      victims = evictLocked(csac.insert(ref), victims);
      fill = newEntryLocked(f, code, ref.weight(), CacheStateProto.FILLING);
      fill.length = f.length;
      fill.modificationTime = f.modificationTime;
      submitDeletesLocked(victims);
    } finally {
      state.unlock();
    }
    metrics.prefetches.incrementAndGet();
    dispatchFill(fill);
    return path + ": fill started (reservation " + fill.reservationId + ", " + fill.parityBytes + " parity bytes)";
  }

  // --- decisions -----------------------------------------------------------------------

  /** The code a file is cached under, or why it cannot be. */
  private static final class Code {
    final boolean cacheable;
    final String why;
    final int k;
    final int cell;

    Code(int k, int cell) {
      this.cacheable = true;
      this.why = null;
      this.k = k;
      this.cell = cell;
    }

    Code(String why) {
      this.cacheable = false;
      this.why = why;
      this.k = 0;
      this.cell = 0;
    }
  }

  private Code codeFor(FileInfo f) {
    if (f.encrypted) {
      return new Code("NOT_CACHEABLE: in an encryption zone (its parity would be made from the plaintext)");
    }
    int fk = f.striped() ? f.ecDataUnits : k;
    if (fk < 2 || fk > 32) {
      return new Code("NOT_CACHEABLE: k = " + fk + " data units is outside 2..32");
    }
    if (!f.striped() && f.blockSize % subblock != 0) {
      return new Code("NOT_CACHEABLE: block size " + f.blockSize + " is not a multiple of "
          + PoCacheConfigKeys.SUBBLOCK_KEY + " = " + subblock);
    }
    if (f.striped() && (f.ecCellSize <= 0 || f.blockSize % f.ecCellSize != 0)) {
      return new Code("NOT_CACHEABLE: cell size " + f.ecCellSize + " does not divide the block size " + f.blockSize);
    }
    return new Code(fk, f.striped() ? f.ecCellSize : 0);
  }

  private FileRef fileRef(FileInfo f, Code code, long length) {
    long w = Math.max(1, ParityFootprint.parityBytes(length, f.blockSize, code.k, m));
    return new FileRef(f.id, w, f.dataNodes.toArray(new String[0]));
  }

  private boolean canFill(FileInfo f) {
    return filler != null && ready && f.complete && f.length <= maxFileBytes && f.length >= minFileBytes;
  }

  private CacheIndex.Entry newEntryLocked(FileInfo f, Code code, long weight, CacheStateProto st) {
    long generation = Math.max(lastGeneration + 1, clock.getAsLong() * 1000);
    lastGeneration = generation;
    // An erasure-coded file is sliced a row of cells at a time: its data subblock is one
    // cell, which is one contiguous range of the file (a subblock of several cells is not).
    int subblockBytes = code.cell > 0 ? code.cell : subblock;
    CacheIndex.Entry e = new CacheIndex.Entry(f.id, generation, f.path, 0, 0, f.blockSize, code.cell, code.k, m,
        subblockBytes, weight, st, redisRunIdForWrites);
    e.blocksDigest = f.blocksDigest;
    e.protection = secrets.protectionProto();
    e.sealKeyId = secrets.currentKeyId();
    // Not the generation (listed, and guessable from the clock): only the caller learns it.
    long id;
    do {
      id = RESERVATION_IDS.nextLong() & Long.MAX_VALUE;
    } while (id == 0 || index.reservation(id) != null);
    e.reservationId = id;
    e.owner = callerName();
    e.expiresAtMillis = clock.getAsLong() + reservationTtl;
    index.put(e);
    return e;
  }

  /** Index entries for CSAC's victims, marked EVICTING and removed from the index. */
  private List<CacheIndex.Entry> evictLocked(List<Long> victimIds, List<CacheIndex.Entry> into) {
    if (victimIds.isEmpty()) {
      return into;
    }
    List<CacheIndex.Entry> out = new ArrayList<>(into);
    for (long id : victimIds) {
      CacheIndex.Entry v = index.get(id);
      if (v != null) {
        metrics.evictions.incrementAndGet();
        out.add(dropLocked(v, "evicted"));
      }
    }
    return out;
  }

  /** Removes {@code e} from the index and CSAC; the caller deletes its keys. */
  private CacheIndex.Entry dropLocked(CacheIndex.Entry e, String how) {
    index.remove(e.fileId, how);
    csac.remove(e.fileId);
    e.state = CacheStateProto.EVICTING;
    return e;
  }

  private boolean canWriteQuietly(String path) {
    try {
      return namespace.canWrite(path);
    } catch (IOException e) {
      LOG.debug("Write permission on {} could not be checked: {}", path, e.toString());
      return false;
    }
  }

  /**
   * Why the digests a commit carries do not fit its parity, or null: protected parity
   * needs one 16-byte digest per value slot of a file of {@code length} bytes.
   */
  private static String digestProblem(CacheIndex.Entry e, long length, byte[] digests) {
    if (e.protection == ParityProtectionProto.PROTECTION_NONE) {
      return null;
    }
    long stripeBytes = e.blockSize * e.k;
    long stripes = Math.max(1, (length + stripeBytes - 1) / stripeBytes);
    long slots = stripes * e.substripesPerStripe() * e.m;
    long want = slots * DIGEST_BYTES;
    return digests == null || digests.length != want
        ? "protected parity needs the digests of its values (" + want + " bytes for " + slots + " values), the commit"
            + " carries " + (digests == null ? 0 : digests.length)
        : null;
  }

  private static final int DIGEST_BYTES = org.pocache.cache.ParityValue.DIGEST_BYTES;

  private CacheIndex.Entry openReservation(long reservationId, long fileId) throws IOException {
    state.lock();
    try {
      CacheIndex.Entry e = index.reservation(reservationId);
      if (e == null) {
        throw unknownReservation(reservationId);
      }
      if (e.fileId != fileId) {
        throw new IOException("reservation " + reservationId + " is for file id " + e.fileId + ", not " + fileId);
      }
      return e;
    } finally {
      state.unlock();
    }
  }

  private IOException unknownReservation(long id) {
    String how = index.closedAs(id);
    return new IOException(how == null ? "unknown reservation " + id
        : "reservation " + id + " is no longer open: " + how);
  }

  private void dispatchFill(CacheIndex.Entry fill) {
    ParityFiller fl = filler;
    boolean taken = false;
    try {
      taken = fl != null && fl.fill(fill.reservationId, secrets.withKey(fill.toProto(redisSettings.prefix)));
    } catch (RuntimeException ex) {
      LOG.warn("The fill worker failed to take {}", fill, ex);
    }
    if (!taken) {
      try {
        abort(fill.reservationId, "the fill worker did not take it");
      } catch (IOException ignored) {
        // Already ended (expired or aborted): nothing more to release.
      }
    }
  }

  /**
   * A heartbeat is taken only from the DataNode it names: the caller must be the
   * Manager's user or listed in {@code dfs.pocache.manager.datanode.users}, call from
   * an address of that DataNode, and the DataNode must be one the NameNode has
   * registered (when the Manager can list them).
   */
  private void checkDataNodeCaller(String dataNode) throws IOException {
    UserGroupInformation caller = Server.getRemoteUser();
    if (caller == null) {
      return; // in-process
    }
    if (!caller.getShortUserName().equals(managerUser) && !dataNodeUsers.isUserAllowed(caller)) {
      throw new AccessControlException("user " + caller.getShortUserName() + " may not send DataNode heartbeats:"
          + " not the Manager's user (" + managerUser + ") and not in " + PoCacheConfigKeys.MANAGER_DATANODE_USERS_KEY);
    }
    int colon = dataNode == null ? -1 : dataNode.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("heartbeat names DataNode '" + dataNode + "', not host:port");
    }
    java.net.InetAddress from = Server.getRemoteIp();
    if (from != null) {
      boolean match = false;
      try {
        for (java.net.InetAddress a : java.net.InetAddress.getAllByName(dataNode.substring(0, colon))) {
          // From loopback: a DataNode on this host (any of its addresses) calling over lo.
          match |= a.equals(from) || from.isLoopbackAddress()
              && (a.isLoopbackAddress() || java.net.NetworkInterface.getByInetAddress(a) != null);
        }
      } catch (java.net.UnknownHostException | java.net.SocketException e) {
        // no address: no match
      }
      if (!match) {
        throw new AccessControlException("a heartbeat for DataNode " + dataNode + " came from " + from.getHostAddress()
            + ", not from that DataNode");
      }
    }
    Set<String> known = registered;
    if (known != null && !known.contains(dataNode)) {
      throw new AccessControlException(dataNode + " is not a DataNode the NameNode has registered");
    }
  }

  /** Refreshes the registered DataNodes, each tick; null while the NameNode will not list them. */
  private void refreshDataNodes() {
    try {
      registered = namespace.dataNodes();
    } catch (IOException | RuntimeException e) {
      if (registered != null || !loggedNoDataNodeList) {
        loggedNoDataNodeList = true;
        LOG.info("POCache Manager cannot list the registered DataNodes ({}); heartbeats and read reports are not"
            + " checked against them", e.toString().split("\n")[0]);
      }
      registered = null;
    }
  }

  /** The short name of the RPC caller, or null for a call from inside the Manager's process. */
  private static String callerName() {
    UserGroupInformation caller = Server.getRemoteUser();
    return caller == null ? null : caller.getShortUserName();
  }

  /** Only the user who made a reservation, or the Manager's own user, may commit or abort it. */
  private void checkOwner(CacheIndex.Entry e) throws AccessControlException {
    String caller = callerName();
    if (caller == null || e.owner == null || caller.equals(e.owner) || caller.equals(managerUser)) {
      return;
    }
    throw new AccessControlException("user " + caller + " may not end reservation " + e.reservationId
        + ": it belongs to " + e.owner);
  }

  private void checkAdmin(String op) throws AccessControlException {
    UserGroupInformation caller = Server.getRemoteUser();
    if (caller == null) {
      return; // an in-process call
    }
    if (caller.getShortUserName().equals(managerUser) || admins.isUserAllowed(caller)) {
      return;
    }
    for (String g : caller.getGroupNames()) {
      if (g.equals(superGroup)) {
        return;
      }
    }
    throw new AccessControlException("user " + caller.getShortUserName() + " may not " + op + ": not the Manager's"
        + " user (" + managerUser + "), not in " + superGroup + " and not in " + PoCacheConfigKeys.MANAGER_ADMINS_KEY);
  }

  private static String checkPath(String path) {
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException("path must be absolute, got '" + path + "'");
    }
    return path;
  }

  private ManagerMetrics.Gauges gauges() {
    StragglerList s = stragglers.getStragglers();
    state.lock();
    try {
      return new ManagerMetrics.Gauges(csac.capacity(), csac.used(), index.size(), index.reservations(),
          String.join(",", s.dataNodes), s.dataNodes.size(), ready);
    } finally {
      state.unlock();
    }
  }

  // --- Redis and housekeeping ----------------------------------------------------------

  private interface RedisTask {
    void run() throws ParityStoreException;
  }

  private ParityStore store() throws ParityStoreException {
    ParityStore s = store;
    if (s == null) {
      throw new org.pocache.cache.CacheUnavailableException("not connected to Redis");
    }
    return s;
  }

  /** Runs a Redis change on the housekeeping thread, after every change submitted before it. */
  private void submitLocked(RedisTask task) {
    try {
      housekeeping.execute(() -> {
        try {
          task.run();
        } catch (ParityStoreException | RuntimeException e) {
          metrics.redisFailures.incrementAndGet();
          LOG.debug("A Redis update of the Manager failed: {}", e.toString());
        }
      });
    } catch (RejectedExecutionException closed) {
      // Shutting down: what is not written is rebuilt or dropped at the next start.
    }
  }

  private void submitDeletesLocked(List<CacheIndex.Entry> dropped) {
    for (CacheIndex.Entry e : dropped) {
      try {
        housekeeping.execute(() -> deleteKeys(e));
      } catch (RejectedExecutionException closed) {
        return;
      }
    }
  }

  /** Housekeeping thread: removes the index entry first (never points at missing keys), then the keys. */
  private void deleteKeys(CacheIndex.Entry e) {
    try {
      ParityStore s = store();
      if (!isIndexedElsewhere(e)) {
        s.index().remove(e.fileId);
      }
      s.deleteFile(e.fileId, e.generation, e.stripes(), e.substripesPerStripe(), e.m);
    } catch (ParityStoreException | RuntimeException ex) {
      metrics.failedDeletes.incrementAndGet();
      if (pendingDeletes.size() < MAX_PENDING_DELETES) {
        pendingDeletes.add(e);
      }
    }
  }

  /** Whether a newer entry of the same file is in the index (then its index field is not ours to remove). */
  private boolean isIndexedElsewhere(CacheIndex.Entry e) {
    state.lock();
    try {
      CacheIndex.Entry now = index.get(e.fileId);
      return now != null && now != e;
    } finally {
      state.unlock();
    }
  }

  /** The periodic work; never throws (a scheduled task that throws stops running). */
  private void tick() {
    try {
      checkRedis();
      refreshDataNodes();
      if (secrets.reloadIfChanged()) {
        dropUnopenable();
      }
      if (ready) {
        retryDeletes();
        prefetchForNewStragglers();
        sweepDeletedFiles();
      }
      expireReservations();
      if (ready) {
        growReservations();
      }
    } catch (Throwable t) {
      if (namespace != null && !namespace.available()) {
        // The NameNode closes its namesystem before it stops its plugins: nothing to report.
        LOG.debug("POCache Manager housekeeping stopped by the NameNode shutting down: {}", t.toString());
        return;
      }
      // Say so once per tick, without a trace.
      LOG.warn("POCache Manager housekeeping failed, it runs again next tick: {}", t.toString());
      LOG.debug("Housekeeping failure", t);
    }
  }

  /**
   * After the secrets changed: drop the parity whose secret is gone, and serve the
   * rest with keys derived afresh.
   */
  private void dropUnopenable() {
    List<CacheIndex.Entry> victims = new ArrayList<>();
    state.lock();
    try {
      for (CacheIndex.Entry e : new ArrayList<>(index.entries())) {
        e.served = null;
        if (!secrets.canOpen(e.toProto(redisSettings.prefix))) {
          victims.add(dropLocked(e, "its parity secret was removed"));
        }
      }
      metrics.invalidations.addAndGet(victims.size());
      submitDeletesLocked(victims);
    } finally {
      state.unlock();
    }
    if (!victims.isEmpty()) {
      LOG.info("POCache dropped the parity of {} files sealed under secrets no longer listed", victims.size());
    }
  }

  private void checkRedis() {
    try {
      if (store == null) {
        store = RedisParityStore.connect(redisSettings);
        LOG.info("POCache Manager connected to Redis at {}", redisSettings.hosts);
      }
      String id = store.server().runId();
      loggedRedisDown = false;
      if (runId == null) {
        rebuild(id);
        loggedRebuildWait = false;
      } else if (!id.equals(runId)) {
        metrics.redisRestarts.incrementAndGet();
        invalidateAll("Redis restarted");
        store.index().clear();
        runId = id;
        redisRunIdForWrites = id;
      }
      ready = true;
    } catch (ParityStoreException | IllegalArgumentException e) {
      ready = false;
      metrics.redisFailures.incrementAndGet();
      if (!loggedRedisDown) {
        loggedRedisDown = true;
        LOG.warn("POCache Manager cannot use Redis ({}); no descriptors are served until it can", e.getMessage());
      }
    } catch (IOException e) {
      ready = false;
      if (!loggedRebuildWait) {
        loggedRebuildWait = true;
        LOG.info("POCache Manager cannot rebuild its index yet (NameNode: {}); retrying every tick",
            e.getMessage().split("\n")[0]);
      }
    }
  }

  /** First contact with a Redis: keep the index entries that are still true, drop the rest. */
  private void rebuild(String id) throws ParityStoreException, IOException {
    Map<Long, byte[]> raw = store.index().load();
    int kept = 0;
    List<CacheIndex.Entry> keep = new ArrayList<>();
    List<CacheIndex.Entry> drop = new ArrayList<>();
    for (Map.Entry<Long, byte[]> r : raw.entrySet()) {
      CacheIndex.Entry e;
      boolean opens;
      try {
        byte[] opened = secrets.openIndexEntry(r.getKey(), r.getValue());
        if (opened == null) {
          // Sealed under a secret that is gone (one made at the last start, say), or not by
          // this Manager: not trusted. Its keys are deleted by what its clear header names.
          ParitySecrets.IndexHeader h = ParitySecrets.indexHeader(r.getValue());
          if (h != null) {
            store.deleteFile(r.getKey(), h.generation, h.stripes, h.substripesPerStripe, h.m);
          }
          store.index().remove(r.getKey());
          metrics.invalidations.incrementAndGet();
          continue;
        }
        DescriptorProto d = DescriptorProto.parseFrom(opened);
        e = CacheIndex.Entry.fromProto(d);
        // Sealed otherwise than configured now, or under a secret that is gone: readers could
        // not open it, or (an entry rewritten in Redis to say "none") would trust forgeries.
        opens = secrets.canOpen(d);
      } catch (InvalidProtocolBufferException bad) {
        store.index().remove(r.getKey());
        continue;
      }
      FileInfo f = opens && e.state == CacheStateProto.CACHED && id.equals(e.redisRunId)
          ? namespace.byId(e.fileId) : null;
      if (e.matches(f) && keysExist(e)) {
        keep.add(e);
        known(f);
      } else {
        drop.add(e);
      }
    }
    state.lock();
    try {
      for (CacheIndex.Entry e : keep) {
        FileInfo f = known.get(e.fileId);
        List<Long> evicted = csac.insert(new FileRef(e.fileId, Math.max(1, e.parityBytes),
            f == null ? new String[0] : f.dataNodes.toArray(new String[0])));
        if (csac.isCached(e.fileId)) {
          index.put(e);
          kept++;
        } else {
          drop.add(e);
        }
        drop.addAll(evictLocked(evicted, Collections.<CacheIndex.Entry>emptyList()));
      }
    } finally {
      state.unlock();
    }
    for (CacheIndex.Entry e : drop) {
      deleteKeys(e);
    }
    metrics.invalidations.addAndGet(drop.size());
    runId = id;
    redisRunIdForWrites = id;
    LOG.info("POCache Manager index rebuilt from Redis: {} files kept, {} dropped", kept, drop.size());
  }

  private void known(FileInfo f) {
    state.lock();
    try {
      known.put(f.id, f);
    } finally {
      state.unlock();
    }
  }

  private boolean keysExist(CacheIndex.Entry e) throws ParityStoreException {
    int lastStripe = e.stripes() - 1;
    ParityKey first = store.key(e.fileId, e.generation, 0, 0, 0);
    ParityKey last = store.key(e.fileId, e.generation, lastStripe, 0, e.m - 1);
    return store.exists(first) && store.exists(last);
  }

  private void invalidateAll(String why) {
    List<CacheIndex.Entry> all;
    state.lock();
    try {
      all = index.clear("cancelled: " + why);
      for (CacheIndex.Entry e : all) {
        csac.remove(e.fileId);
      }
    } finally {
      state.unlock();
    }
    metrics.invalidations.addAndGet(all.size());
    LOG.warn("POCache Manager dropped its index of {} files: {}", all.size(), why);
    for (CacheIndex.Entry e : all) {
      try {
        // Keys a persisted Redis may have brought back are older than the index: delete them.
        store.deleteFile(e.fileId, e.generation, e.stripes(), e.substripesPerStripe(), e.m);
      } catch (ParityStoreException ex) {
        metrics.failedDeletes.incrementAndGet();
      }
    }
  }

  private void retryDeletes() {
    for (int n = pendingDeletes.size(); n > 0; n--) {
      deleteKeys(pendingDeletes.poll());
    }
  }

  /**
   * Grows each write's reservation with its file: to the parity of what the NameNode
   * says is written plus the block being written, evicting as needed. A write that
   * outgrows the largest cacheable file loses its reservation (the write goes on).
   */
  private void growReservations() {
    List<CacheIndex.Entry> open;
    state.lock();
    try {
      open = index.openWrites();
    } finally {
      state.unlock();
    }
    for (CacheIndex.Entry e : open) {
      FileInfo f;
      try {
        f = namespace.byId(e.fileId);
      } catch (IOException | RuntimeException x) {
        continue; // the next tick tries again
      }
      if (f == null || f.complete) {
        continue; // the commit or the sweep ends it
      }
      if (f.length > maxFileBytes) {
        try {
          abort(e.reservationId, e.path + " grew past " + PoCacheConfigKeys.CACHE_MAX_FILE_KEY + " = " + maxFileBytes);
        } catch (IOException x) {
          LOG.debug("Reservation {} ended before it could be aborted: {}", e.reservationId, x.toString());
        }
        continue;
      }
      long need = Math.max(1, ParityFootprint.parityBytes(Math.min(maxFileBytes, f.length + f.blockSize),
          e.blockSize, e.k, e.m));
      if (need <= e.parityBytes) {
        continue;
      }
      state.lock();
      try {
        if (index.reservation(e.reservationId) != e) {
          continue; // committed or aborted meanwhile
        }
        csac.remove(e.fileId);
        List<CacheIndex.Entry> victims = evictLocked(
            csac.insert(new FileRef(e.fileId, need, f.dataNodes.toArray(new String[0]))),
            Collections.<CacheIndex.Entry>emptyList());
        e.parityBytes = need;
        submitDeletesLocked(victims);
      } finally {
        state.unlock();
      }
    }
  }

  private void expireReservations() {
    List<CacheIndex.Entry> expired;
    state.lock();
    try {
      expired = index.expire(clock.getAsLong());
      for (CacheIndex.Entry e : expired) {
        csac.remove(e.fileId);
        if (e.state == CacheStateProto.FILLING) {
          metrics.failedFills.incrementAndGet();
        }
        e.state = CacheStateProto.EVICTING;
      }
    } finally {
      state.unlock();
    }
    metrics.expiredReservations.addAndGet(expired.size());
    for (CacheIndex.Entry e : expired) {
      LOG.info("POCache reservation {} for {} expired", e.reservationId, e.path);
      deleteKeys(e);
    }
  }

  /** Algorithm 1, lines 28-41: new stragglers trigger a theta_p-bounded prefetch. */
  private void prefetchForNewStragglers() throws IOException {
    List<String> list = stragglers.getStragglers().dataNodes;
    List<FileRef> candidates = Collections.emptyList();
    state.lock();
    try {
      csac.setStragglers(list);
      if (csac.hasNewStragglers() && filler != null && prefetchRatio > 0) {
        candidates = csac.prefetch(id -> {
          FileInfo f = known.get(id);
          if (f == null) {
            return null;
          }
          Code c = codeFor(f);
          return c.cacheable ? fileRef(f, c, f.length) : null;
        }, prefetchCandidates);
      }
    } finally {
      state.unlock();
    }
    for (FileRef ref : candidates) {
      FileInfo f = namespace.byId(ref.id()); // the file as it is now, not as last seen
      FileInfo seen;
      state.lock();
      try {
        seen = known.get(ref.id());
      } finally {
        state.unlock();
      }
      if (f == null || seen == null || !canFill(f)) {
        continue;
      }
      f = new FileInfo(f.id, seen.path, f.length, f.modificationTime, f.blockSize, f.ecDataUnits, f.ecCellSize,
          f.complete, f.dataNodes, f.blocksDigest);
      Code code = codeFor(f);
      CacheIndex.Entry fill = null;
      state.lock();
      try {
        if (index.get(f.id) == null && code.cacheable) {
          FileRef now = fileRef(f, code, f.length);
          List<CacheIndex.Entry> victims = evictLocked(csac.insert(now), Collections.<CacheIndex.Entry>emptyList());
          fill = newEntryLocked(f, code, now.weight(), CacheStateProto.FILLING);
          fill.length = f.length;
          fill.modificationTime = f.modificationTime;
          submitDeletesLocked(victims);
        }
      } finally {
        state.unlock();
      }
      if (fill != null) {
        metrics.prefetches.incrementAndGet();
        dispatchFill(fill);
      }
    }
  }

  /** A few cached entries per tick are checked against HDFS; a file deleted or changed loses its parity. */
  private void sweepDeletedFiles() throws IOException {
    if (sweep.isEmpty()) {
      state.lock();
      try {
        for (CacheIndex.Entry e : index.entries()) {
          if (e.state == CacheStateProto.CACHED) {
            sweep.add(e.fileId);
          }
        }
      } finally {
        state.unlock();
      }
      // Two NameNode reads per entry: spread a round over SWEEP_ROUND_MILLIS, not one burst.
      long ticksPerRound = Math.max(1, SWEEP_ROUND_MILLIS / tickMillis);
      sweepPerTick = (int) Math.max(1, (sweep.size() + ticksPerRound - 1) / ticksPerRound);
    }
    for (int n = 0; n < sweepPerTick && !sweep.isEmpty(); n++) {
      long id = sweep.poll();
      FileInfo f = namespace.byId(id);
      state.lock();
      try {
        CacheIndex.Entry e = index.get(id);
        if (e != null && e.state == CacheStateProto.CACHED && !e.matches(f)) {
          metrics.invalidations.incrementAndGet();
          submitDeletesLocked(Collections.singletonList(dropLocked(e, f == null ? "deleted" : "changed")));
        } else if (e != null && f != null) {
          followRenameLocked(e, f);
        }
      } finally {
        state.unlock();
      }
    }
  }

  /**
   * The index is keyed by inode id, which a rename keeps; the path it shows (admin
   * -ls, descriptors) is brought up to date whenever the NameNode answers for the file
   * under another name (hdfs dfs -put writes x._COPYING_, jobs write task outputs under
   * _temporary and rename them).
   */
  private void followRenameLocked(CacheIndex.Entry e, FileInfo f) {
    if (f.path != null && !f.path.equals(e.path)) {
      e.path = f.path;
      if (e.state == CacheStateProto.CACHED) {
        e.served = null;
        DescriptorProto d = e.toProto(redisSettings.prefix);
        long id = e.fileId;
        submitLocked(() -> store().index().put(id, secrets.sealIndexEntry(id, d)));
      }
    }
  }

  /** Runs one housekeeping tick now and waits for it and everything queued before it (tests, admin). */
  public void runHousekeepingNow() throws Exception {
    housekeeping.submit(this::tick).get();
  }

  @Override
  public void close() {
    ready = false;
    metrics.unregister();
    housekeeping.shutdown();
    try {
      housekeeping.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ParityFiller f = filler;
    filler = null;
    if (f != null) {
      try {
        f.close();
      } catch (RuntimeException e) {
        LOG.warn("The fill worker did not close cleanly", e);
      }
    }
    if (store != null) {
      store.close();
    }
  }

  /** For executors: the housekeeping thread (tests wait on it). */
  ExecutorService housekeeping() {
    return housekeeping;
  }
}
