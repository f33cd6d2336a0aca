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
package org.pocache.experiments.csac;

import java.io.File;
import java.io.FileReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.pocache.csac.detect.Detectors;
import org.pocache.csac.sim.Experiments;
import org.pocache.csac.sim.Simulator;
import org.pocache.csac.sim.Strategies;
import org.pocache.csac.sim.Strategy;
import org.pocache.csac.sim.TraceReader;
import org.pocache.experiments.Options;
import org.pocache.experiments.UsageException;

/**
 * {@code pocache simulate}: the caching-efficiency experiments of the POCache paper
 * (§5.3) in simulation, or a CSV trace replayed through chosen strategies.
 */
public final class SimulateDriver {
  static final String USAGE = String.join("\n",
      "Usage: pocache simulate --experiment exp11|exp13|exp15|mix [--runs N] [--detector NAME] [--json FILE]",
      "       pocache simulate --trace FILE --strategies LIST --sizes LIST [--detector NAME] [--json FILE]",
      "  --experiment   exp11: straggler hit ratio vs cache size, plain vs CSAC policies;",
      "                 exp13: POCache vs data caching (SR, DC1, DC2) and Agar, exact and noisy sensing;",
      "                 exp15: prefetching (theta_p = 0.4) at cache size 20, straggler appearing mid-run;",
      "                 mix: Exp 4's file sizes (8, 4, 2, 1 blocks), benefit per byte vs LFU, LRU and SP-Cache,",
      "                 a fixed and a moving straggler; avoided/unit: straggler hits per 1,000 reads each unit",
      "                 of cache avoided",
      "  --runs N       seeds averaged per point (default 5)",
      "  --detector     three-sigma (default) or median-mad",
      "  --trace FILE   CSV: file,<id>,<weight>,<dn>;...  read,<id>  straggler,<dn>,<from>,<to>",
      "  --strategies   with --trace: e.g. lru,csac+lfu,dc1 (" + String.join(", ", Strategies.NAMES) + ")",
      "  --sizes        with --trace: cache sizes, e.g. 0,10,40",
      "  --json FILE    write {\"rows\":[{\"strategy\",\"cache_size\",\"straggler_hit_ratio\",\"hit_ratio\",...}]}");

  public static void main(String[] args) throws Exception {
    List<Experiments.Row> rows = new ArrayList<>();
    Options o;
    try {
      o = Options.parse(args, Arrays.asList("experiment", "runs", "detector", "json", "trace", "strategies",
          "sizes"), Arrays.asList("help"));
      if (o.has("help")) {
        System.out.println(USAGE);
        return;
      }
      String detector = o.string("detector", "three-sigma");
      Detectors.create("--detector", detector, 5, 1, 1, 0.3);
      if (o.has("experiment") == o.has("trace")) {
        throw new UsageException("give exactly one of --experiment and --trace");
      }
      if (o.has("experiment")) {
        rows = Experiments.run(o.string("experiment", null), o.intValue("runs", 5, 1, 1000), detector);
      } else {
        rows = replay(new File(o.string("trace", null)), o.string("strategies", "lru,csac+lfu"),
            o.string("sizes", "10"), detector);
      }
    } catch (UsageException | IllegalArgumentException e) {
      System.err.println("pocache simulate: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    System.out.printf(Locale.ROOT, "%-18s %-7s %6s %16s %10s %10s %10s %10s %12s%n", "strategy", "sensing", "size",
        "straggler_hits", "hit_ratio", "cached", "evicted", "prefetched", "avoided/unit");
    // Straggler hits per 1,000 reads that each unit of cache avoided, against the same
    // strategy and sensing with no cache: what a cache byte buys.
    java.util.Map<String, Double> none = new java.util.HashMap<>();
    for (Experiments.Row r : rows) {
      if (r.cacheSize == 0) {
        none.put(r.strategy + "/" + r.sensing, r.stragglerHitRatio);
      }
    }
    StringBuilder json = new StringBuilder("{\"rows\":[\n");
    for (int i = 0; i < rows.size(); i++) {
      Experiments.Row r = rows.get(i);
      Double base = none.get(r.strategy + "/" + r.sensing);
      double avoided = base == null || r.cacheSize == 0 ? Double.NaN
          : 1000 * (base - r.stragglerHitRatio) / r.cacheSize;
      System.out.printf(Locale.ROOT, "%-18s %-7s %6d %15.2f%% %10.3f %10.1f %10.1f %10.1f %12s%n", r.strategy,
          r.sensing, r.cacheSize, 100 * r.stragglerHitRatio, r.hitRatio, r.cachedWeight, r.evictedWeight,
          r.prefetchedWeight, Double.isNaN(avoided) ? "-" : String.format(Locale.ROOT, "%.2f", avoided));
      json.append(String.format(Locale.ROOT,
          "  {\"strategy\":\"%s\",\"sensing\":\"%s\",\"cache_size\":%d,\"straggler_hit_ratio\":%.5f,\"hit_ratio\":%.5f,"
              + "\"cached\":%.1f,\"evicted\":%.1f,\"prefetched\":%.1f%s}%s%n",
          r.strategy, r.sensing, r.cacheSize, r.stragglerHitRatio, r.hitRatio, r.cachedWeight, r.evictedWeight,
          r.prefetchedWeight, Double.isNaN(avoided) ? ""
              : String.format(Locale.ROOT, ",\"avoided_per_1000_reads_per_unit\":%.4f", avoided),
          i + 1 < rows.size() ? "," : ""));
    }
    json.append("]}\n");
    if (o.has("json")) {
      ModelDriver.write(new File(o.string("json", null)), json.toString());
    }
  }

  private static List<Experiments.Row> replay(File trace, String strategies, String sizes, String detector)
      throws Exception {
    TraceReader.Trace t;
    try (FileReader in = new FileReader(trace)) {
      t = TraceReader.read(in);
    } catch (java.io.FileNotFoundException e) {
      throw new UsageException("--trace: cannot read " + trace);
    }
    List<Experiments.Row> rows = new ArrayList<>();
    for (String name : strategies.split(",")) {
      for (String size : sizes.split(",")) {
        long cap;
        try {
          cap = Long.parseLong(size.trim());
        } catch (NumberFormatException e) {
          throw new UsageException("--sizes entries must be integers, got '" + size + "'");
        }
        Strategy s = Strategies.create(name.trim(), cap, t.workload, 0.4);
        Simulator.Result r = Simulator.run(t.workload, s, t.stragglers,
            new Simulator.Sensing(50, 10, 0, Collections.<String>emptyList()),
            Detectors.create("--detector", detector, 5, 10_000, 10_000, 0.3), 1);
        rows.add(Experiments.row(name.trim(), "exact", cap, r));
      }
    }
    return rows;
  }
}
