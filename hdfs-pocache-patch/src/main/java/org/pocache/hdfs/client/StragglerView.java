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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.PoCacheManagerProtocol;
import org.pocache.manager.protocol.ReadReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client FileSystem's copy of the Manager's straggler list, refreshed in the background
 * at most every heartbeat interval, so a read never waits for it. Each refresh also sends
 * what this client's reads have seen of their DataNodes so far.
 */
final class StragglerView {
  /** The client's lines are logged under its FileSystem's name, as operators look for them. */
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheFileSystem.class);

  private final long refreshMillis;
  private final Executor pool;
  /** The Manager's client if it was made (never made here), else null. */
  private final Supplier<ManagerClient> manager;
  /** What this client's reads have seen so far, taken (each observation is sent once). */
  private final Supplier<List<ReadReport.Observation>> observations;
  private volatile Set<String> listed = Collections.emptySet();
  /** Which of {@link #listed} the Manager lists on clients' reads (what readers waited on). */
  private volatile Set<String> seenSlowByClients = Collections.emptySet();
  private volatile long refreshedAt;
  private final AtomicBoolean refreshing = new AtomicBoolean();

  StragglerView(long refreshMillis, Executor pool, Supplier<ManagerClient> manager,
      Supplier<List<ReadReport.Observation>> observations) {
    this.refreshMillis = refreshMillis;
    this.pool = pool;
    this.manager = manager;
    this.observations = observations;
  }

  /** The DataNodes the Manager lists as stragglers, as last fetched; starts a refresh when due. */
  Set<String> listed() {
    long now = System.currentTimeMillis();
    if (now - refreshedAt > refreshMillis && refreshing.compareAndSet(false, true)) {
      refreshedAt = now;
      try {
        pool.execute(() -> {
          try {
            reportReadsSoFar();
            ManagerClient m = manager.get();
            if (m != null) {
              refresh(m);
            }
          } finally {
            refreshing.set(false);
          }
        });
      } catch (RejectedExecutionException closed) {
        refreshing.set(false);
      }
    }
    return listed;
  }

  /** Which listed DataNodes the Manager lists on clients' reads; starts a refresh when due. */
  Set<String> seenSlowByClients() {
    listed(); // refreshes both
    return seenSlowByClients;
  }

  /** Fetches the list now, on this thread. No Manager: no known stragglers (deadlines still apply). */
  void refresh(ManagerClient m) {
    try {
      PoCacheManagerProtocol.StragglerList list = m.getStragglers();
      Set<String> seen = new HashSet<>(list.byClientReads);
      seen.retainAll(list.dataNodes);
      seenSlowByClients = seen;
      Set<String> now = new HashSet<>(list.dataNodes);
      if (LOG.isDebugEnabled() && !now.equals(listed)) {
        LOG.debug("The Manager lists {} as stragglers (by clients' reads: {})", now, seen);
      }
      listed = now;
    } catch (IOException | RuntimeException | LinkageError e) {
      listed = Collections.emptySet();
      seenSlowByClients = Collections.emptySet();
    }
    refreshedAt = System.currentTimeMillis();
  }

  /**
   * Sends what this client's reads have seen of their DataNodes so far (those that served
   * at least a sample's worth, or have a read under way for a second or more) with each
   * refresh, instead of waiting for the streams to close: a MapReduce task streaming a
   * straggler's block closes its stream only when its split is read, 20 s later at a
   * tenth of the speed, and until then the Manager would hear nothing of it from that
   * task. Reports from the tasks reading the straggler's peers at the same time are what
   * the straggler's pace is judged against. At most one call per refresh interval, and
   * none when nothing is to be reported.
   */
  private void reportReadsSoFar() {
    ManagerClient m = manager.get();
    List<ReadReport.Observation> seen = m == null ? Collections.<ReadReport.Observation>emptyList()
        : observations.get();
    if (seen.isEmpty()) {
      return;
    }
    try {
      m.reportRead(ReadReport.observationsOnly(seen));
    } catch (IOException | RuntimeException | LinkageError e) {
      LOG.debug("Observations of reads under way not delivered: {}", e.toString());
    }
  }
}
