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

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.pocache.cache.DaemonThreads;
import org.pocache.cache.ParityProtection;
import org.pocache.cache.ParityStore;
import org.pocache.cache.ParityValue;
import org.pocache.cache.RedisParityStore;
import org.pocache.cache.RedisSettings;
import org.pocache.csac.ParityFootprint;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.CachedFiles;
import org.pocache.manager.protocol.DescriptorLookup;
import org.pocache.manager.protocol.ManagerReport;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.PoCacheManagerProtocol;
import org.pocache.manager.protocol.ReadReport;
import org.pocache.manager.protocol.Reservation;
import org.pocache.manager.protocol.WriteAdmission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Manager's RPC methods, and the housekeeping tick that keeps its state true to
 * HDFS and Redis. The work is done by named collaborators:
 * <ul>
 *   <li>{@link ManagerSettings}: the configuration, read once; {@link CodePlanner}: the
 *       code a file is cached under and its weight in CSAC;</li>
 *   <li>{@link CacheState}: CSAC, the index and the generation counter behind one lock,
 *       changed only by its transitions (admit on read, reserve, commit, abort, fill,
 *       drop, expire);</li>
 *   <li>{@link RedisIncarnation}: connection, restart detection and index rebuild;
 *       {@link ParityReaper}: index writes and key deletes, in order, retried;</li>
 *   <li>{@link DeletedFileSweeper}, {@link StragglerPrefetcher}, {@link ParityVerifier}
 *       and {@link Fills}: the sweep, Algorithm 1's prefetch, checks of reported parity
 *       and the fill worker;</li>
 *   <li>{@link ManagerAuthorizer}: who may call what.</li>
 * </ul>
 *
 * <p><b>Threads.</b> RPC handlers call in concurrently; everything that changes Redis
 * and the periodic tick run on one housekeeping thread, so Redis sees the Manager's
 * changes in the order the index made them. NameNode calls and Redis I/O never
 * happen under {@link CacheState}'s lock.
 *
 * <p><b>Size.</b> Long only because it has one method per RPC, with the checks of each
 * argument; the work is in the collaborators above.
 */
public final class CacheService implements PoCacheManagerProtocol, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CacheService.class);

  private final ManagerSettings settings;
  /** Lookups the NameNode answered a moment ago, by user and path. */
  private final RecentOpens recentOpens;
  private final Namespace namespace;
  private final StragglerMonitor stragglers;
  private final ManagerMetrics metrics;
  private final ParitySecrets secrets;
  private final CodePlanner planner;
  private final ManagerAuthorizer auth;
  private final ScheduledExecutorService housekeeping;
  private final ManagerStore store;
  private final ParityReaper reaper;
  private final CacheState state;
  private final RedisIncarnation redis;
  private final Fills fills;
  private final ParityVerifier verifier;
  private final StragglerPrefetcher prefetcher;
  private volatile DeletedFileSweeper sweeper;
  /** Whether this Manager's NameNode is active (always, outside an HA pair). */
  private volatile BooleanSupplier active = () -> true;
  /** Whether the NameNode was active at the last tick; null before the first (housekeeping thread). */
  private Boolean activeAtLastTick;
  /**
   * Set when this Manager's NameNode was seen standby; cleared by the first housekeeping
   * tick that finds it active and has rebuilt the index from Redis. Meanwhile calls are
   * answered as a standby's are, at once: the NameNode's own transition holds its
   * namesystem lock, and a call that waited on it would run past the client's timeout
   * and open the client's breaker for {@code dfs.pocache.manager.breaker.open.ms}.
   */
  private volatile boolean catchingUp;

  /**
   * Reads and validates the configuration; does not touch Redis or HDFS yet
   * ({@link #start} does, and keeps trying).
   *
   * @throws IllegalArgumentException naming a bad key
   */
  public CacheService(Configuration conf, Namespace namespace, StragglerMonitor stragglers, LongSupplier clock) {
    this(conf, namespace, stragglers, clock, RedisParityStore::connect);
  }

  /** As above, with the parity store {@code connector} makes (tests: an in-memory one). */
  CacheService(Configuration conf, Namespace namespace, StragglerMonitor stragglers, LongSupplier clock,
      Function<RedisSettings, ParityStore> connector) {
    this.settings = new ManagerSettings(conf);
    this.recentOpens = new RecentOpens(settings.lookupCacheMillis);
    this.namespace = namespace;
    this.stragglers = stragglers;
    this.secrets = ParitySecrets.from(conf);
    this.planner = new CodePlanner(settings);
    this.auth = new ManagerAuthorizer(settings, namespace);
    this.metrics = new ManagerMetrics(this::gauges);
    ScheduledThreadPoolExecutor h = new ScheduledThreadPoolExecutor(1,
        DaemonThreads.named("pocache-manager-housekeeping"));
    h.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.housekeeping = h;
    this.store = new ManagerStore(settings.redis, connector);
    this.reaper = new ParityReaper(housekeeping, store, secrets, metrics, this::isActive);
    this.state = new CacheState(settings, planner, secrets, metrics, reaper, clock);
    reaper.checkIndexWith(state::indexedElsewhere);
    this.redis = new RedisIncarnation(settings, store, state, reaper, namespace, secrets, metrics);
    this.fills = new Fills(settings, state, secrets);
    this.verifier = new ParityVerifier(state, store, housekeeping, metrics);
    this.prefetcher = new StragglerPrefetcher(settings, state, planner, stragglers, namespace, fills, redis, metrics);
  }

  /**
   * In an HA pair: this Manager serves, and changes Redis, only while {@code activeNameNode}
   * says its NameNode is active. Set before {@link #start}.
   */
  void followNameNode(BooleanSupplier activeNameNode) {
    this.active = activeNameNode;
  }

  /** Whether this Manager's NameNode is active, so that it may serve and change Redis. */
  boolean isActive() {
    try {
      return active.getAsBoolean();
    } catch (RuntimeException e) {
      return false; // a NameNode still starting has no state yet
    }
  }

  /**
   * Refuses a call while the NameNode is standby, with the exception HDFS's own HA clients
   * follow: the caller asks the other NameNode's Manager. A standby never serves from its
   * namespace, which may lag the active one's.
   */
  private void checkActive() throws org.apache.hadoop.ipc.StandbyException {
    if (!isActive()) {
      throw new org.apache.hadoop.ipc.StandbyException("the POCache Manager of a standby NameNode serves nothing;"
          + " the active NameNode's Manager does");
    }
    if (catchingUp) {
      throw new org.apache.hadoop.ipc.StandbyException("the POCache Manager of a NameNode becoming active serves"
          + " once it has rebuilt its index from Redis");
    }
  }

  /** Starts the periodic tick (the first connects to Redis and rebuilds the index) and metrics. */
  void start(long tickMillis, ParityFiller filler) {
    fills.start(filler);
    sweeper = new DeletedFileSweeper(state, namespace, tickMillis);
    metrics.register();
    housekeeping.scheduleWithFixedDelay(this::tick, 0, tickMillis, TimeUnit.MILLISECONDS);
  }

  public ManagerMetrics metrics() {
    return metrics;
  }

  /** Whether descriptors are being served (Redis answers and the index is valid). */
  public boolean ready() {
    return redis.ready();
  }

  // --- clients -------------------------------------------------------------------------

  @Override
  public void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException {
    auth.checkDataNodeCaller(dataNode);
    stragglers.heartbeat(dataNode, bytesRead, serviceMillis, readOps);
    metrics.heartbeats.incrementAndGet();
  }

  @Override
  public StragglerList getStragglers() throws IOException {
    checkActive();
    return stragglers.getStragglers();
  }

  @Override
  public DescriptorLookup getDescriptor(String path) throws IOException {
    return getDescriptor(path, false);
  }

  @Override
  public DescriptorLookup getDescriptor(String path, boolean readerFills) throws IOException {
    checkActive();
    long t0 = System.nanoTime();
    String checked = checkPath(path);
    String user = ManagerAuthorizer.callerFullName();
    FileInfo f = recentOpens.get(user, checked, t0);
    if (f != null && !namespace.unchanged(checked, f)) {
      f = null; // replaced, appended, truncated or touched since: ask the NameNode in full
    }
    if (f == null) {
      f = namespace.open(checked); // the NameNode checks the caller's READ permission
      recentOpens.put(user, checked, f, t0);
    }
    String excludedBy = settings.exclusions.excludedBy(f.path != null ? f.path : path);
    if (excludedBy != null) {
      // Clients skip the lookup for these; one that asks anyway (another configuration) is not admitted.
      metrics.lookup(System.nanoTime() - t0);
      return new DescriptorLookup(null, "files under " + excludedBy + " directories are not cached ("
          + PoCacheConfigKeys.EXCLUDE_DIRS_KEY + ")", null);
    }
    boolean ready = redis.ready();
    CacheState.Lookup r = state.admitOnRead(f, planner.codeFor(f), readerFills, fills.canFill(f, ready), ready,
        redis.runIdForWrites());
    (r.descriptor != null ? metrics.hits : metrics.misses).incrementAndGet();
    CacheIndex.Entry fill = r.fill;
    Reservation toFill = null;
    if (fill != null && fill.readerFill() && secrets.protection() != ParityProtection.NONE
        && !canWriteQuietly(f.path != null ? f.path : path)) {
      // A reader's parity is trusted by every other reader of the file: under protection,
      // only a caller who could change the file itself fills; else the fill worker does.
      state.handToWorker(fill);
    }
    if (fill != null) {
      metrics.admissions.incrementAndGet();
      if (fill.readerFill()) {
        toFill = reservation(fill);
      } else {
        fills.dispatch(fill);
      }
    }
    metrics.lookup(System.nanoTime() - t0);
    return new DescriptorLookup(r.descriptor, r.decision, toFill);
  }

  @Override
  public WriteAdmission admitWrite(String path, long expectedMaxBytes) throws IOException {
    checkActive();
    long t0 = System.nanoTime();
    try {
      if (expectedMaxBytes < 0) {
        throw new IllegalArgumentException("expected maximum size of " + path + " must be >= 0 bytes (0: unknown), got "
            + expectedMaxBytes);
      }
      FileInfo f = namespace.open(checkPath(path));
      String at = f.path != null ? f.path : path;
      // create(overwrite) replaced whatever file had this path: drop the old one's parity now,
      // not when the sweep finds it gone (until then it would only take room).
      List<Long> replaced = state.cachedAt(at, false, f.id);
      if (!replaced.isEmpty()) {
        dropIfGone(replaced);
      }
      CodePlanner.Code code = planner.codeFor(f);
      // A write of unknown size reserves the parity of one stripe (k blocks) and grows
      // with the file (growReservations); reserving for the largest cacheable file, as
      // paper 4.2 does, let four writers hold a 1 GiB cache and evict everything else.
      long size = expectedMaxBytes == 0 ? Math.min(settings.maxFileBytes, (long) code.k * f.blockSize)
          : expectedMaxBytes;
      String excludedBy = settings.exclusions.excludedBy(at);
      Object reserved = !redis.ready() ? "the cache is unavailable (Redis down or the index is being rebuilt)"
          : excludedBy != null ? "files under " + excludedBy + " directories are not cached ("
              + PoCacheConfigKeys.EXCLUDE_DIRS_KEY + ")"
          : !code.cacheable ? code.why
          : f.complete ? path + " is not open for write"
          : size > settings.maxFileBytes ? "expected size " + size + " exceeds " + PoCacheConfigKeys.CACHE_MAX_FILE_KEY
              + " = " + settings.maxFileBytes
          : state.reserveWrite(f, code, planner.fileRef(f, code, size), auth.otherCaller(), redis.runIdForWrites());
      if (reserved instanceof String) {
        metrics.refusedAdmissions.incrementAndGet();
        return new WriteAdmission(null, (String) reserved);
      }
      metrics.admissions.incrementAndGet();
      return new WriteAdmission(reservation((CacheIndex.Entry) reserved), "admitted");
    } finally {
      metrics.rpc(System.nanoTime() - t0);
    }
  }

  private Reservation reservation(CacheIndex.Entry e) {
    return new Reservation(e.reservationId, secrets.withKey(e.descriptor(settings.keyPrefix())), e.expiresAtMillis);
  }

  @Override
  public void commit(long reservationId, long fileId, long length, long parityBytes, byte[] valueDigests)
      throws IOException {
    checkActive();
    long t0 = System.nanoTime();
    try {
      if (length < 0) {
        throw new IllegalArgumentException("length of file id " + fileId + " must be >= 0, got " + length);
      }
      if (parityBytes < 0) {
        throw new IllegalArgumentException("parity bytes of file id " + fileId + " must be >= 0, got " + parityBytes);
      }
      CacheIndex.Entry done = state.committedBy(reservationId, fileId, length);
      if (done != null) {
        auth.checkOwner(done);
        LOG.debug("Commit of reservation {} for {} repeated: already committed", reservationId, done.path());
        return;
      }
      CacheIndex.Entry e = state.openReservation(reservationId, fileId);
      auth.checkOwner(e);
      FileInfo f = namespace.byId(fileId);
      String wrong = f == null ? "file id " + fileId + " no longer exists"
          : !f.complete ? e.path() + " is still open for write"
          : f.length != length ? e.path() + " has " + f.length + " bytes, not " + length
          : e.state() == ParityState.FILLING && !e.sameVersion(f)
              ? e.path() + " changed while its parity was being filled"
          : length > settings.maxFileBytes ? e.path() + " has " + length + " bytes, more than "
              + PoCacheConfigKeys.CACHE_MAX_FILE_KEY + " = " + settings.maxFileBytes
          : length < settings.minFileBytes ? e.path() + " has " + length + " bytes, fewer than "
              + PoCacheConfigKeys.CACHE_MIN_FILE_KEY + " = " + settings.minFileBytes
          : parityBytes > ParityFootprint.parityBytes(length, e.blockSize, e.k, e.m)
              ? parityBytes + " parity bytes is more than a file of " + length + " bytes has"
          : digestProblem(e, length, valueDigests);
      if (wrong != null) {
        abort(reservationId, wrong);
        throw new IOException("commit of reservation " + reservationId + " refused: " + wrong
            + "; the reservation is aborted");
      }
      if (state.commit(e, f, parityBytes, valueDigests, redis.runIdForWrites())) {
        metrics.fills.incrementAndGet();
      }
      // Demoted meanwhile: the index entry is not written (fenced), so the writer must not
      // count on it; it asks the new active Manager, which does not know the reservation.
      checkActive();
    } finally {
      metrics.rpc(System.nanoTime() - t0);
    }
  }

  /**
   * Why the digests a commit carries do not fit its parity, or null: protected parity
   * needs one 16-byte digest per value slot of a file of {@code length} bytes.
   */
  private static String digestProblem(CacheIndex.Entry e, long length, byte[] digests) {
    if (e.protection == ParityProtection.NONE) {
      return null;
    }
    long stripeBytes = e.blockSize * e.k;
    long stripes = Math.max(1, (length + stripeBytes - 1) / stripeBytes);
    long slots = stripes * e.substripesPerStripe() * e.m;
    long want = slots * ParityValue.DIGEST_BYTES;
    return digests == null || digests.length != want
        ? "protected parity needs the digests of its values (" + want + " bytes for " + slots + " values), the commit"
            + " carries " + (digests == null ? 0 : digests.length)
        : null;
  }

  @Override
  public void abort(long reservationId, String reason) throws IOException {
    checkActive();
    long t0 = System.nanoTime();
    try {
      CacheIndex.Entry takeOver = state.abort(reservationId, reason, auth::checkOwner);
      if (takeOver != null) {
        LOG.debug("Reservation {} for {} handed from its reader to the fill worker: {}", reservationId, takeOver,
            reason);
        fills.dispatch(takeOver);
      } else {
        LOG.debug("Reservation {} aborted: {}", reservationId, reason);
      }
    } finally {
      metrics.rpc(System.nanoTime() - t0);
    }
  }

  @Override
  public void reportRead(ReadReport report) throws IOException {
    checkActive();
    long t0 = System.nanoTime();
    try {
      long fileId = report.getFileId();
      for (ReadReport.Observation o : report.getObservations()) {
        if (o.getBytes() < 0 || !(o.getMillis() >= 0) || Double.isInfinite(o.getMillis())) {
          throw new IllegalArgumentException("read report for file id " + fileId + ": observation of "
              + o.getDataNode() + " needs bytes >= 0 and a finite time >= 0 ms, got " + o.getBytes() + " bytes in "
              + o.getMillis() + " ms");
        }
      }
      if (report.getOutcome() == ReadReport.Outcome.OBSERVATIONS_ONLY) {
        observe(report);
        return; // a client's long reads still under way: no file's read ended
      }
      // A file the index knows needs no NameNode call (one per read otherwise); an
      // unknown id is checked, so a bad report still gets a clear error.
      if (state.stateOf(fileId) == null && namespace.byId(fileId) == null) {
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
          if (secrets.protection() != ParityProtection.NONE) {
            // Protected parity can be checked here: a reader's word alone drops nothing.
            verifier.verifyLater(fileId, report.getGeneration());
          } else {
            state.dropIfCurrent(fileId, report.getGeneration(), "a reader found its parity "
                + (report.getOutcome() == ReadReport.Outcome.PARITY_MISSING ? "missing" : "corrupt"));
          }
          break;
        default:
          break;
      }
    } finally {
      metrics.rpc(System.nanoTime() - t0);
    }
  }

  private void observe(ReadReport report) throws IOException {
    Set<String> registered = auth.registeredDataNodes();
    String reporter = ManagerAuthorizer.callerAndHost();
    for (ReadReport.Observation o : report.getObservations()) {
      if (registered != null && !registered.contains(o.getDataNode())) {
        continue; // not a DataNode of this cluster: the detector keeps no state for made-up names
      }
      stragglers.observe(reporter, o.getDataNode(), o.getBytes(), o.getMillis());
      metrics.clientObservations.incrementAndGet();
    }
  }

  // --- operators -----------------------------------------------------------------------

  @Override
  public ManagerReport getReport() throws IOException {
    checkActive();
    ManagerMetrics.Gauges g = gauges();
    StragglerList s = stragglers.getStragglers();
    return ManagerReport.newBuilder().setCapacityBytes(g.capacity).setUsedBytes(g.used).setFilesCached(g.filesCached)
        .setReservations(g.reservations).setHits(metrics.hits.get()).setMisses(metrics.misses.get())
        .setStragglerHits(metrics.stragglerHits.get()).setClientObservations(metrics.clientObservations.get())
        .setHeartbeats(metrics.heartbeats.get())
        .setAdmissions(metrics.admissions.get()).setEvictions(metrics.evictions.get())
        .setPrefetches(metrics.prefetches.get()).setFailedFills(metrics.failedFills.get())
        .setStragglers(s.dataNodes).setDetector(s.detector).setPolicies(settings.policies())
        .setRedisHealthy(g.redisHealthy).setRedisRestarts(metrics.redisRestarts.get()).build();
  }

  @Override
  public CachedFiles listCached(String pathPrefix, int limit) throws IOException {
    checkActive();
    auth.checkAdmin("list cached files"); // paths, ids and generations of every user's files
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be > 0, got " + limit);
    }
    // Paths follow renames when the NameNode next answers for a file; a listing first asks
    // for each cached file's current path (in the NameNode: a lookup in its directory, no
    // RPC), so that a file put as x._COPYING_ and renamed to x (as hdfs dfs -put does) is
    // listed as x before anyone has read it. Standalone, the last known paths are listed.
    for (long id : state.cachedIds()) {
      String now = namespace.pathOf(id);
      if (now != null) {
        state.followRename(id, now);
      }
    }
    List<ParityDescriptor> out = state.list(pathPrefix == null || pathPrefix.equals("/") ? "" : pathPrefix);
    out.sort(Comparator.comparing(ParityDescriptor::getPath));
    boolean truncated = out.size() > limit;
    return new CachedFiles(new ArrayList<>(truncated ? out.subList(0, limit) : out), truncated);
  }

  @Override
  public String forgetDeleted(String path) throws IOException {
    checkActive();
    String p = checkPath(path);
    if (namespace.exists(p)) {
      // Not deleted (or already created again): nothing to do, and no NameNode call per
      // cached file under it, which a client could otherwise ask for at will.
      return path + ": still exists, nothing dropped";
    }
    int dropped = dropIfGone(state.cachedAt(p, true, -1));
    return path + ": parity of " + dropped + " deleted file" + (dropped == 1 ? "" : "s") + " dropped";
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
      if (f == null && state.dropIfStale(id, null)) {
        dropped++;
      }
    }
    return dropped;
  }

  @Override
  public String evict(String path) throws IOException {
    checkActive();
    auth.checkAdmin("evict");
    return state.evict(namespace.open(checkPath(path)), path);
  }

  @Override
  public String prefetch(String path) throws IOException {
    checkActive();
    auth.checkAdmin("prefetch");
    FileInfo f = namespace.open(checkPath(path));
    CodePlanner.Code code = planner.codeFor(f);
    if (!code.cacheable) {
      throw new IOException(path + " cannot be cached: " + code.why);
    }
    if (!fills.haveWorker()) {
      throw new IOException("no fill worker: set " + PoCacheConfigKeys.MANAGER_FILLER_KEY);
    }
    if (!fills.canFill(f, redis.ready())) {
      throw new IOException(path + " cannot be filled now: " + (!redis.ready() ? "the cache is unavailable"
          : !f.complete ? "it is open for write" : f.length < settings.minFileBytes ? "it is smaller than "
          + PoCacheConfigKeys.CACHE_MIN_FILE_KEY : "it is larger than " + PoCacheConfigKeys.CACHE_MAX_FILE_KEY));
    }
    CacheIndex.Entry fill = state.startFill(f, code, redis.runIdForWrites());
    if (fill == null) {
      return path + ": already " + state.stateOf(f.id);
    }
    metrics.prefetches.incrementAndGet();
    fills.dispatch(fill);
    return path + ": fill started (reservation " + fill.reservationId + ", " + fill.parityBytes() + " parity bytes)";
  }

  private boolean canWriteQuietly(String path) {
    try {
      return namespace.canWrite(path);
    } catch (IOException e) {
      LOG.debug("Write permission on {} could not be checked: {}", path, e.toString());
      return false;
    }
  }

  private static String checkPath(String path) {
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException("path must be absolute, got '" + path + "'");
    }
    return path;
  }

  private ManagerMetrics.Gauges gauges() {
    return state.gauges(stragglers.getStragglers(), redis.ready());
  }

  // --- housekeeping --------------------------------------------------------------------

  /** The periodic work; never throws (a scheduled task that throws stops running). */
  private void tick() {
    try {
      if (!followHaState()) {
        return;
      }
      redis.check();
      catchingUp = false; // the index is rebuilt (or Redis is down, which is answered as without HA)
      auth.refreshDataNodes();
      if (secrets.reloadIfChanged()) {
        int dropped = state.dropUnopenable();
        if (dropped > 0) {
          LOG.info("POCache dropped the parity of {} files sealed under secrets no longer listed", dropped);
        }
      }
      if (redis.ready()) {
        reaper.retry();
        prefetcher.run();
        DeletedFileSweeper s = sweeper;
        if (s != null) {
          s.run();
        }
      }
      expireReservations();
      if (redis.ready()) {
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

  private void expireReservations() {
    List<CacheIndex.Entry> expired = state.expire();
    metrics.expiredReservations.addAndGet(expired.size());
    for (CacheIndex.Entry e : expired) {
      LOG.info("POCache reservation {} for {} expired", e.reservationId, e.path());
      reaper.deleteNow(e);
    }
  }

  /**
   * Grows each write's reservation with its file: to the parity of what the NameNode
   * says is written plus the block being written, evicting as needed. A write that
   * outgrows the largest cacheable file loses its reservation (the write goes on).
   */
  private void growReservations() {
    for (CacheIndex.Entry e : state.openWrites()) {
      FileInfo f;
      try {
        f = namespace.byId(e.fileId);
      } catch (IOException | RuntimeException x) {
        continue; // the next tick tries again
      }
      if (f == null || f.complete) {
        continue; // the commit or the sweep ends it
      }
      if (f.length > settings.maxFileBytes) {
        try {
          abort(e.reservationId, e.path() + " grew past " + PoCacheConfigKeys.CACHE_MAX_FILE_KEY + " = "
              + settings.maxFileBytes);
        } catch (IOException x) {
          LOG.debug("Reservation {} ended before it could be aborted: {}", e.reservationId, x.toString());
        }
        continue;
      }
      long need = Math.max(1, ParityFootprint.parityBytes(Math.min(settings.maxFileBytes, f.length + f.blockSize),
          e.blockSize, e.k, e.m));
      if (need > e.parityBytes()) {
        state.grow(e, need, f);
      }
    }
  }

  /**
   * Housekeeping thread: notices the NameNode turning standby (the index and CSAC are
   * forgotten, nothing is written to Redis from then on) or active (the next check
   * rebuilds the index from what the other Manager left in Redis). Returns whether the
   * NameNode is active; a standby keeps only its DataNode list fresh, for heartbeats.
   */
  private boolean followHaState() {
    boolean now = isActive();
    Boolean was = activeAtLastTick;
    activeAtLastTick = now;
    if (now) {
      if (Boolean.FALSE.equals(was)) {
        LOG.info("POCache Manager: its NameNode is active; it rebuilds its index from Redis and serves");
      }
      return true;
    }
    catchingUp = true;
    if (!Boolean.FALSE.equals(was)) {
      redis.standby();
      reaper.forgetPending();
      int forgotten = state.clear("its NameNode is standby").size();
      LOG.info("POCache Manager: its NameNode is standby; it serves nothing and leaves Redis to the active"
          + " NameNode's Manager ({} cached files forgotten here, their parity kept in Redis)", forgotten);
    }
    try {
      auth.refreshDataNodes();
    } catch (RuntimeException e) {
      LOG.debug("POCache Manager (standby) did not refresh its DataNode list: {}", e.toString());
    }
    return false;
  }

  /** Runs one housekeeping tick now and waits for it and everything queued before it (tests, admin). */
  public void runHousekeepingNow() throws Exception {
    housekeeping.submit(this::tick).get();
  }

  @Override
  public void close() {
    redis.stop();
    metrics.unregister();
    housekeeping.shutdown();
    try {
      housekeeping.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    fills.close();
    store.close();
  }

  /** For executors: the housekeeping thread (tests wait on it). */
  ExecutorService housekeeping() {
    return housekeeping;
  }
}
