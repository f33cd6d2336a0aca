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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pocache.csac.FileRef;

/**
 * Agar's planner (Halalai et al., "Agar: a caching system for erasure-coded data",
 * ICDCS 2017) applied to parity: every {@code period} reads, choose the set of
 * files whose parity maximises sum(popularity x latency saved) under the cache
 * capacity, as a 0/1 knapsack solved by dynamic programming over integer weights
 * (parity blocks). Popularity is a read count halved every period; the latency
 * saved is 1 for a file on an estimated straggler and {@code otherValue} for the
 * rest (parity still shortens their tail a little). Between plans the cache is
 * fixed.
 */
final class AgarPlanner extends CountingStrategy {
  private final long capacity;
  private final int period;
  private final double otherValue;
  private final Map<Long, FileRef> byId;
  private final Map<Long, Double> popularity = new HashMap<>();
  private Set<Long> cache = new HashSet<>();
  private Set<String> estimated = ParityCaching.none();
  private int sincePlan;

  AgarPlanner(long capacity, int period, double otherValue, Map<Long, FileRef> byId) {
    if (capacity > 10_000_000) {
      throw new IllegalArgumentException("Agar's planner needs integer weights and a capacity <= 10^7, got "
          + capacity);
    }
    this.capacity = capacity;
    this.period = period;
    this.otherValue = otherValue;
    this.byId = byId;
  }

  @Override
  public String name() {
    return "agar";
  }

  @Override
  public void onWrite(FileRef f) {
  }

  @Override
  public void onStragglers(Set<String> est) {
    estimated = est;
  }

  @Override
  public boolean read(FileRef f, Set<String> actual) {
    lastHit = cache.contains(f.id());
    boolean hit = Simulator.blocksOn(f, actual) > (lastHit ? f.weight() : 0);
    popularity.merge(f.id(), 1.0, Double::sum);
    if (++sincePlan >= period) {
      sincePlan = 0;
      replan();
      popularity.replaceAll((id, p) -> p / 2);
    }
    return hit;
  }

  private void replan() {
    List<FileRef> items = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (Map.Entry<Long, Double> e : popularity.entrySet()) {
      FileRef f = byId.get(e.getKey());
      items.add(f);
      values.add(e.getValue() * (f.touches(estimated) ? 1.0 : otherValue));
    }
    Set<Long> next = new HashSet<>();
    for (int i : knapsack(items, values, capacity)) {
      next.add(items.get(i).id());
    }
    for (long id : cache) {
      if (!next.contains(id)) {
        evicted += byId.get(id).weight();
      }
    }
    for (long id : next) {
      if (!cache.contains(id)) {
        cached += byId.get(id).weight();
      }
    }
    cache = next;
  }

  /** Indexes of the items of maximum total value with total weight <= capacity (0/1 knapsack, DP). */
  static List<Integer> knapsack(List<FileRef> items, List<Double> values, long capacity) {
    int n = items.size();
    int cap = (int) capacity;
    double[][] best = new double[n + 1][cap + 1];
    for (int i = 1; i <= n; i++) {
      int w = (int) Math.min(Integer.MAX_VALUE, items.get(i - 1).weight());
      double v = values.get(i - 1);
      for (int c = 0; c <= cap; c++) {
        best[i][c] = best[i - 1][c];
        if (w <= c && best[i - 1][c - w] + v > best[i][c]) {
          best[i][c] = best[i - 1][c - w] + v;
        }
      }
    }
    List<Integer> chosen = new ArrayList<>();
    for (int i = n, c = cap; i > 0; i--) {
      if (best[i][c] != best[i - 1][c]) {
        chosen.add(i - 1);
        c -= (int) items.get(i - 1).weight();
      }
    }
    return chosen;
  }
}
