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

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParityStore;
import org.pocache.cache.ParityStoreException;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ProtoTranslation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the index true to the Redis that is running. On first contact with a Redis
 * the index is rebuilt from the index hash there, keeping only entries whose file is
 * unchanged, whose secret still opens them and whose keys exist; when INFO's run_id
 * changes (Redis restarted, its data gone or older than the index) every entry is
 * dropped. Descriptors are served and admissions made only while {@link #ready}.
 * Checked each housekeeping tick, on the housekeeping thread.
 */
final class RedisIncarnation {
  private static final Logger LOG = LoggerFactory.getLogger(RedisIncarnation.class);
  /**
   * Redis's allocator rounds a value just over 1 MiB up to its 1.25 MiB size class, so
   * a cache of capacity C needs about 1.25 C of maxmemory.
   */
  static final double REDIS_OVERHEAD = 1.25;

  private final ManagerSettings settings;
  private final ManagerStore store;
  private final CacheState state;
  private final ParityReaper reaper;
  private final Namespace namespace;
  private final ParitySecrets secrets;
  private final ManagerMetrics metrics;

  /** The run id the index is true to; null before the first rebuild (housekeeping thread). */
  private String runId;
  private volatile String runIdForWrites = "";
  private volatile boolean ready;
  private boolean loggedRedisDown;
  private boolean loggedRebuildWait;
  private boolean loggedTight;

  RedisIncarnation(ManagerSettings settings, ManagerStore store, CacheState state, ParityReaper reaper,
      Namespace namespace, ParitySecrets secrets, ManagerMetrics metrics) {
    this.settings = settings;
    this.store = store;
    this.state = state;
    this.reaper = reaper;
    this.namespace = namespace;
    this.secrets = secrets;
    this.metrics = metrics;
  }

  /** Whether Redis answers and the index is true to it. */
  boolean ready() {
    return ready;
  }

  /** The run id new parity is written under. */
  String runIdForWrites() {
    return runIdForWrites;
  }

  void stop() {
    ready = false;
  }

  /**
   * Housekeeping thread: the NameNode turned standby. Nothing is served; when it is active
   * again, the first check rebuilds the index from Redis, as at a start (the other
   * NameNode's Manager changed it meanwhile).
   */
  void standby() {
    ready = false;
    runId = null;
  }

  /** Housekeeping thread: connects, checks the run id and the capacity, rebuilds or invalidates. */
  void check() {
    try {
      if (!store.isConnected()) {
        checkCapacity(store.connect()); // refused: disconnected again, and tried next tick
        LOG.info("POCache Manager connected to Redis at {}", settings.redis.hosts);
      }
      ParityStore s = store.get();
      String id = s.server().runId();
      loggedRedisDown = false;
      if (runId == null) {
        rebuild(s, id);
        loggedRebuildWait = false;
      } else if (!id.equals(runId)) {
        metrics.redisRestarts.incrementAndGet();
        invalidateAll(s, "Redis restarted");
        s.index().clear();
        runId = id;
        runIdForWrites = id;
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

  /**
   * A capacity above Redis's maxmemory is refused (the connection is dropped, and
   * retried each tick, so a corrected maxmemory is picked up); one the allocator's
   * overhead would not fit is said once at WARN.
   */
  private void checkCapacity(ParityStore s) throws ParityStoreException {
    long max;
    try {
      max = s.server().maxMemory();
      if (max > 0 && settings.capacityBytes > max) {
        throw new IllegalArgumentException(PoCacheConfigKeys.CACHE_CAPACITY_KEY + " = " + settings.capacityBytes
            + " bytes exceeds Redis's maxmemory of " + max + " bytes");
      }
    } catch (IllegalArgumentException | ParityStoreException e) {
      store.close();
      throw e;
    }
    if (max > 0 && settings.capacityBytes * REDIS_OVERHEAD > max && !loggedTight) {
      loggedTight = true;
      LOG.warn("POCache: {} = {} bytes leaves Redis's maxmemory of {} bytes too little room: values of 1 MiB take"
          + " about {}x their size in Redis, so Redis fills before the cache does; set maxmemory to at least {}"
          + " bytes or lower the capacity", PoCacheConfigKeys.CACHE_CAPACITY_KEY, settings.capacityBytes, max,
          REDIS_OVERHEAD, (long) Math.ceil(settings.capacityBytes * REDIS_OVERHEAD));
    }
  }

  /** First contact with a Redis: keep the index entries that are still true, drop the rest. */
  private void rebuild(ParityStore s, String id) throws ParityStoreException, IOException {
    Map<Long, byte[]> raw = s.index().load();
    List<CacheIndex.Entry> keep = new ArrayList<>();
    List<FileInfo> files = new ArrayList<>();
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
            s.deleteFile(r.getKey(), h.generation, h.stripes, h.substripesPerStripe, h.m);
          }
          s.index().remove(r.getKey());
          metrics.invalidations.incrementAndGet();
          continue;
        }
        ParityDescriptor d = ProtoTranslation.decodeDescriptor(opened);
        e = CacheIndex.Entry.of(d);
        // Sealed otherwise than configured now, or under a secret that is gone: readers could
        // not open it, or (an entry rewritten in Redis to say "none") would trust forgeries.
        opens = secrets.canOpen(d);
      } catch (IllegalArgumentException bad) { // not a descriptor
        s.index().remove(r.getKey());
        continue;
      }
      FileInfo f = opens && e.state() == ParityState.CACHED && id.equals(e.redisRunId())
          ? namespace.byId(e.fileId) : null;
      if (e.matches(f) && keysExist(s, e)) {
        keep.add(e);
        files.add(f);
      } else {
        drop.add(e);
      }
    }
    drop.addAll(state.restore(keep, files));
    for (CacheIndex.Entry e : drop) {
      reaper.deleteNow(e);
    }
    metrics.invalidations.addAndGet(drop.size());
    runId = id;
    runIdForWrites = id;
    LOG.info("POCache Manager index rebuilt from Redis: {} files kept, {} dropped", keep.size() - countIn(drop, keep),
        drop.size());
  }

  private static int countIn(List<CacheIndex.Entry> drop, List<CacheIndex.Entry> keep) {
    int n = 0;
    for (CacheIndex.Entry e : keep) {
      n += drop.contains(e) ? 1 : 0;
    }
    return n;
  }

  private static boolean keysExist(ParityStore s, CacheIndex.Entry e) throws ParityStoreException {
    ParityKey first = s.key(e.fileId, e.generation, 0, 0, 0);
    ParityKey last = s.key(e.fileId, e.generation, e.stripes() - 1, 0, e.m - 1);
    return s.exists(first) && s.exists(last);
  }

  private void invalidateAll(ParityStore s, String why) {
    List<CacheIndex.Entry> all = state.clear(why);
    metrics.invalidations.addAndGet(all.size());
    LOG.warn("POCache Manager dropped its index of {} files: {}", all.size(), why);
    for (CacheIndex.Entry e : all) {
      try {
        // Keys a persisted Redis may have brought back are older than the index: delete them.
        s.deleteFile(e.fileId, e.generation, e.stripes(), e.substripesPerStripe(), e.m);
      } catch (ParityStoreException ex) {
        metrics.failedDeletes.incrementAndGet();
      }
    }
  }
}
