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

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Predicate;
import org.pocache.cache.ParityStore;
import org.pocache.cache.ParityStoreException;
import org.pocache.manager.protocol.ParityDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Manager's own Redis changes, on the housekeeping thread in the order they were
 * submitted: index entries written, and the keys of dropped parity deleted by their
 * known names (never KEYS or SCAN). A delete that fails is kept and retried on later
 * ticks ({@link #retry}), up to {@link #MAX_PENDING} entries. A Manager whose NameNode
 * is standby changes nothing: in an HA pair, Redis is the active one's.
 */
final class ParityReaper {
  private static final Logger LOG = LoggerFactory.getLogger(ParityReaper.class);
  static final int MAX_PENDING = 100_000;

  private final Executor housekeeping;
  private final ManagerStore store;
  private final ParitySecrets secrets;
  private final ManagerMetrics metrics;
  /** Whether this Manager may change Redis: its NameNode is active (fencing, in an HA pair). */
  private final java.util.function.BooleanSupplier mayWrite;
  /** Whether a newer entry of the same file is indexed (see {@link CacheState#indexedElsewhere}). */
  private volatile Predicate<CacheIndex.Entry> indexedElsewhere = e -> false;
  /** Deletes that failed (housekeeping thread only). */
  private final Deque<CacheIndex.Entry> pending = new ArrayDeque<>();

  ParityReaper(Executor housekeeping, ManagerStore store, ParitySecrets secrets, ManagerMetrics metrics,
      java.util.function.BooleanSupplier mayWrite) {
    this.housekeeping = housekeeping;
    this.mayWrite = mayWrite;
    this.store = store;
    this.secrets = secrets;
    this.metrics = metrics;
  }

  /** Set once the cache state exists (it needs the reaper first). */
  void checkIndexWith(Predicate<CacheIndex.Entry> newerEntryIndexed) {
    this.indexedElsewhere = newerEntryIndexed;
  }

  /** Deletes the keys of {@code dropped} entries, after everything submitted before. */
  void reap(List<CacheIndex.Entry> dropped) {
    for (CacheIndex.Entry e : dropped) {
      try {
        housekeeping.execute(() -> deleteNow(e));
      } catch (RejectedExecutionException closed) {
        return; // shutting down: the next start rebuilds from Redis and drops what is stale
      }
    }
  }

  /** Writes (sealed) a file's entry into the index in Redis, after everything submitted before. */
  void writeIndex(long fileId, ParityDescriptor d) {
    try {
      housekeeping.execute(() -> {
        if (!mayWrite.getAsBoolean()) {
          return; // demoted to standby since: the index is the active Manager's
        }
        try {
          store.get().index().put(fileId, secrets.sealIndexEntry(fileId, d));
        } catch (ParityStoreException | RuntimeException e) {
          metrics.redisFailures.incrementAndGet();
          LOG.debug("A Redis update of the Manager failed: {}", e.toString());
        }
      });
    } catch (RejectedExecutionException closed) {
      // Shutting down: what is not written is rebuilt or dropped at the next start.
    }
  }

  /** Housekeeping thread: removes the index entry first (never points at missing keys), then the keys. */
  void deleteNow(CacheIndex.Entry e) {
    if (!mayWrite.getAsBoolean()) {
      return; // demoted to standby since: the parity may be the active Manager's now
    }
    try {
      ParityStore s = store.get();
      if (!indexedElsewhere.test(e)) {
        s.index().remove(e.fileId);
      }
      s.deleteFile(e.fileId, e.generation, e.stripes(), e.substripesPerStripe(), e.m);
    } catch (ParityStoreException | RuntimeException ex) {
      metrics.failedDeletes.incrementAndGet();
      if (pending.size() < MAX_PENDING) {
        pending.add(e);
      }
    }
  }

  /** Housekeeping thread: tries the failed deletes again. */
  void retry() {
    for (int n = pending.size(); n > 0; n--) {
      deleteNow(pending.poll());
    }
  }

  /** Housekeeping thread: the NameNode turned standby; the deletes waiting for a retry are not this Manager's. */
  void forgetPending() {
    pending.clear();
  }

  /** Deletes that failed and wait for a retry (housekeeping thread). */
  int pending() {
    return pending.size();
  }
}
