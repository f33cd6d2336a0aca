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
import java.util.List;
import org.pocache.csac.FileRef;

/**
 * Algorithm 1, lines 28-41: when the straggler list gains a DataNode, CSAC picks the
 * files it would most like cached for it (bounded by theta_p,
 * {@code dfs.pocache.csac.prefetch.ratio}) and the fill worker makes their parity
 * before anyone reads them. Housekeeping thread only.
 */
final class StragglerPrefetcher {
  private final ManagerSettings settings;
  private final CacheState state;
  private final CodePlanner planner;
  private final StragglerMonitor stragglers;
  private final Namespace namespace;
  private final Fills fills;
  private final RedisIncarnation redis;
  private final ManagerMetrics metrics;

  StragglerPrefetcher(ManagerSettings settings, CacheState state, CodePlanner planner, StragglerMonitor stragglers,
      Namespace namespace, Fills fills, RedisIncarnation redis, ManagerMetrics metrics) {
    this.settings = settings;
    this.state = state;
    this.planner = planner;
    this.stragglers = stragglers;
    this.namespace = namespace;
    this.fills = fills;
    this.redis = redis;
    this.metrics = metrics;
  }

  void run() throws IOException {
    List<FileRef> candidates = state.prefetchCandidates(stragglers.getStragglers().dataNodes,
        fills.haveWorker() && settings.prefetchRatio > 0, settings.prefetchCandidates);
    for (FileRef ref : candidates) {
      FileInfo now = namespace.byId(ref.id()); // the file as it is now, not as last seen
      FileInfo seen = state.known(ref.id());
      if (now == null || seen == null || !fills.canFill(now, redis.ready())) {
        continue;
      }
      FileInfo f = new FileInfo(now.id, seen.path, now.length, now.modificationTime, now.blockSize, now.ecDataUnits,
          now.ecCellSize, now.complete, now.dataNodes, now.blocksDigest);
      CodePlanner.Code code = planner.codeFor(f);
      if (!code.cacheable || state.stateOf(f.id) != null) {
        continue;
      }
      CacheIndex.Entry fill = state.startFill(f, code, redis.runIdForWrites());
      if (fill != null) {
        metrics.prefetches.incrementAndGet();
        fills.dispatch(fill);
      }
    }
  }
}
