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
package org.pocache.csac.sim;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.pocache.csac.Csac;
import org.pocache.csac.FileRef;
import org.pocache.csac.policy.Policies;

/**
 * Strategies by name: "lru", "lfu", "arc", "s3fifo" (plain, straggler-blind
 * parity caching with cache-upon-access); "csac+lru", "csac+lfu", "csac+arc",
 * "csac+s3fifo" (CSAC keeping the files on stragglers, as the Manager does by
 * default); "paper-csac+lru" and so on (eviction by G_e alone, as the paper's
 * Algorithm 1); "benefit" and "csac+benefit" (benefit per byte, see
 * {@link org.pocache.csac.policy.BenefitPerByte}); "csac+lfu+prefetch" (theta_p from
 * the caller); "sr", "dc1", "dc2" (data caching); "sp-cache" (the whole data of the
 * most read files, as SP-Cache caches it, no parity); "agar" (knapsack planner).
 */
public final class Strategies {
  public static final List<String> NAMES = Arrays.asList("lru", "lfu", "arc", "s3fifo", "csac+lru", "csac+lfu",
      "csac+arc", "csac+s3fifo", "paper-csac+lru", "paper-csac+lfu", "paper-csac+arc", "paper-csac+s3fifo",
      "benefit", "csac+benefit", "csac+lfu+prefetch", "sr", "dc1", "dc2", "sp-cache", "agar");

  private Strategies() {
  }

  /**
   * @throws IllegalArgumentException for an unknown name or a negative capacity
   */
  public static Strategy create(String name, long capacity, Workload w, double prefetchRatio) {
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("unknown strategy '" + name + "'; known: " + String.join(", ", NAMES));
    }
    if (capacity < 0) {
      throw new IllegalArgumentException("cache size must be >= 0, got " + capacity);
    }
    if (capacity == 0) {
      return new NoCache(name);
    }
    Map<Long, FileRef> byId = new HashMap<>();
    for (FileRef f : w.files()) {
      byId.put(f.id(), f);
    }
    int k = w.files().get(0).dataNodes().length;
    switch (name) {
      case "sr":
        return new DataCaching(DataCaching.Kind.SR, csac("lfu", capacity, 0, false, w), k);
      case "sp-cache":
        return new DataCaching(DataCaching.Kind.SP_CACHE, csac("lfu", capacity, 0, false, w), k);
      case "dc1":
        return new DataCaching(DataCaching.Kind.DC1, csac("lfu", capacity, 0, false, w), k);
      case "dc2":
        return new DataCaching(DataCaching.Kind.DC2, csac("lfu", capacity, 0, false, w), k);
      case "agar":
        return new AgarPlanner(capacity, 100, 0.05, byId);
      default:
        boolean paper = name.startsWith("paper-");
        boolean aware = name.startsWith("csac+") || paper;
        boolean prefetch = name.endsWith("+prefetch");
        String eviction = name.replace("paper-", "").replace("csac+", "").replace("+prefetch", "");
        return new ParityCaching(name, csac(eviction, capacity, prefetch ? prefetchRatio : 0, aware && !paper, w),
            aware, prefetch, byId);
    }
  }

  private static Csac csac(String eviction, long capacity, double prefetchRatio, boolean keepStragglerFiles,
      Workload w) {
    return new Csac(capacity, Policies.admission("admission", "cache-upon-access", capacity, w.files().size()),
        Policies.eviction("eviction", eviction, capacity),
        Policies.prediction("prediction", "recency", Math.max(16, w.files().size())), prefetchRatio,
        Long.MAX_VALUE, keepStragglerFiles ? Policies.eviction("eviction", eviction, capacity) : null, () -> 0L);
  }
}
