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
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.pocache.csac.detect.Detectors;
import org.pocache.csac.detect.StragglerDetector;

/**
 * The paper's caching-efficiency experiments (§5.3) in simulation: 100 files of
 * 4 blocks (m = 1, one parity block each), 2,000 reads at Zipf 0.9, one straggler
 * (1/10 speed) among 14 DataNodes so that the three-sigma rule can see it,
 * cache sizes in parity blocks (or data blocks for data caching). Each point is
 * the mean over {@code runs} seeds.
 */
public final class Experiments {
  /** One row of an experiment's output. */
  public static final class Row {
    public final String strategy;
    /** "exact" or "noisy" straggler estimates. */
    public final String sensing;
    public final long cacheSize;
    public final double stragglerHitRatio;
    public final double hitRatio;
    public final double cachedWeight;
    public final double evictedWeight;
    public final double prefetchedWeight;

    Row(String strategy, String sensing, long cacheSize, double shr, double hr, double cached, double evicted,
        double prefetched) {
      this.strategy = strategy;
      this.sensing = sensing;
      this.cacheSize = cacheSize;
      this.stragglerHitRatio = shr;
      this.hitRatio = hr;
      this.cachedWeight = cached;
      this.evictedWeight = evicted;
      this.prefetchedWeight = prefetched;
    }
  }

  public static final List<String> NAMES = Arrays.asList("exp11", "exp13", "exp15", "mix");

  /** The paper's Experiment 4 mix (15 x 512, 30 x 256, 17 x 128, 38 x 64 MiB) in 64 MiB blocks. */
  static final int[] MIX_BLOCKS = {8, 4, 2, 1};
  static final int[] MIX_COUNTS = {15, 30, 17, 38};
  /** Reads per straggler in the "moving" runs of the mix: each lasts this long on a random DataNode. */
  static final int MOVING_SPELL = 250;

  private static final int FILES = 100;
  private static final int K = 4;
  private static final int DATANODES = 14;
  private static final int READS = 2000;
  private static final double ZIPF = 0.9;

  private Experiments() {
  }

  /**
   * @throws IllegalArgumentException for an unknown experiment name
   */
  public static List<Row> run(String experiment, int runs, String detector) {
    switch (experiment) {
      case "exp11":
        return sweep(Arrays.asList("lru", "lfu", "arc", "s3fifo", "csac+lru", "csac+lfu", "csac+arc", "csac+s3fifo",
            "paper-csac+lru", "paper-csac+lfu", "paper-csac+arc", "paper-csac+s3fifo"),
            sizes(0, 100, 10), runs, detector, 0, 0, false);
      case "exp13": {
        // Parity covers any one straggler of a cached file; a cached data block only the
        // one it copies. So data caching is as good as its straggler estimate: run both
        // with exact estimates and with noisy ones.
        List<String> names = Arrays.asList("csac+lfu", "sr", "dc1", "dc2", "agar");
        List<Row> rows = new ArrayList<>(sweep(names, sizes(0, 100, 10), runs, detector, 0, 0, false));
        rows.addAll(sweep(names, sizes(0, 100, 10), runs, detector, 0, 0, true));
        return rows;
      }
      case "exp15":
        // The straggler appears half way through; prefetching reacts when it is detected.
        return sweep(Arrays.asList("lru", "lfu", "arc", "csac+lfu", "csac+lfu+prefetch"), Arrays.asList(20L), runs,
            detector, READS / 2, 0.4, false);
      case "mix": {
        // Files of 8, 4, 2 and 1 blocks: parity bytes protect 4, 4, 2 and 1 blocks of data
        // each. One straggler known from the start ("exact"), and stragglers that move to a
        // random DataNode every MOVING_SPELL reads ("moving"), where what is cached before
        // a straggler is known decides.
        List<String> names = Arrays.asList("lru", "lfu", "benefit", "csac+lru", "csac+lfu", "csac+benefit", "sp-cache");
        List<Long> sizes = sizes(0, 120, 10);
        List<Row> rows = new ArrayList<>(sweep(names, sizes, runs, detector, seed -> mixWorkload(seed),
            seed -> Collections.singletonList(new Simulator.Straggler("dn0", 0, Integer.MAX_VALUE)), 0,
            sensing(false), "exact"));
        rows.addAll(sweep(names, sizes, runs, detector, seed -> mixWorkload(seed), Experiments::moving, 0,
            sensing(false), "moving"));
        return rows;
      }
      default:
        throw new IllegalArgumentException("unknown experiment '" + experiment + "'; known: "
            + String.join(", ", NAMES));
    }
  }

  /** A row from one run (trace replay). */
  public static Row row(String strategy, String sensing, long cacheSize, Simulator.Result r) {
    return new Row(strategy, sensing, cacheSize, r.stragglerHitRatio(), r.hitRatio(), r.cachedWeight,
        r.evictedWeight, r.prefetchedWeight);
  }

  private static List<Long> sizes(long from, long to, long step) {
    List<Long> l = new ArrayList<>();
    for (long s = from; s <= to; s += step) {
      l.add(s);
    }
    return l;
  }

  /**
   * Noisy sensing, i.e. a misidentified straggler: half of the real straggler's
   * samples look normal and one healthy DataNode (dn1) always reports as slow.
   * (Other error models change the ordering: with intermittent misses alone,
   * data caching of the flagged node's blocks beats parity caching, because CSAC
   * falls back to admitting everything whenever the list is momentarily empty;
   * with a false positive alone, two slow-looking nodes among 14 inflate sigma
   * and three-sigma flags neither. See docs/csac.md.)
   */
  private static Simulator.Sensing sensing(boolean noisy) {
    return noisy ? new Simulator.Sensing(50, 10, 0.5, Collections.singletonList("dn1"))
        : new Simulator.Sensing(50, 10, 0, Collections.<String>emptyList());
  }

  /** The Experiment 4 mix of one seed: 100 files, 2,000 Zipf-0.9 reads on 14 DataNodes, k = 4, m = 1. */
  static Workload mixWorkload(long seed) {
    return Workload.mix(MIX_BLOCKS, MIX_COUNTS, K, 1, DATANODES, READS, ZIPF, seed);
  }

  /** Stragglers that come and go: a random DataNode every MOVING_SPELL reads. */
  static List<Simulator.Straggler> moving(long seed) {
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed ^ 0x5eed);
    List<Simulator.Straggler> l = new ArrayList<>();
    for (int from = 0; from < READS; from += MOVING_SPELL) {
      l.add(new Simulator.Straggler("dn" + r.nextInt(DATANODES), from, from + MOVING_SPELL));
    }
    return l;
  }

  private static List<Row> sweep(List<String> strategies, List<Long> sizes, int runs, String detectorName,
      int stragglerFrom, double prefetchRatio, boolean noisy) {
    return sweep(strategies, sizes, runs, detectorName,
        seed -> Workload.zipf(FILES, K, 1, DATANODES, READS, ZIPF, seed),
        seed -> Collections.singletonList(new Simulator.Straggler("dn0", stragglerFrom, Integer.MAX_VALUE)),
        prefetchRatio, sensing(noisy), noisy ? "noisy" : "exact");
  }

  private static List<Row> sweep(List<String> strategies, List<Long> sizes, int runs, String detectorName,
      java.util.function.LongFunction<Workload> workloads,
      java.util.function.LongFunction<List<Simulator.Straggler>> stragglers, double prefetchRatio,
      Simulator.Sensing sensing, String sensingName) {
    if (runs < 1) {
      throw new IllegalArgumentException("runs must be >= 1, got " + runs);
    }
    List<Row> rows = new ArrayList<>();
    for (String name : strategies) {
      for (long size : sizes) {
        double shr = 0;
        double hr = 0;
        double cached = 0;
        double evicted = 0;
        double prefetched = 0;
        for (int run = 0; run < runs; run++) {
          long seed = 1000L + run;
          Workload w = workloads.apply(seed);
          StragglerDetector d = Detectors.create("detector", detectorName, 5, 10_000, 10_000, 0.3);
          // Data caching counts data blocks: a parity block's worth of space per block.
          Strategy s = Strategies.create(name, size, w, prefetchRatio);
          Simulator.Result r = Simulator.run(w, s, stragglers.apply(seed), sensing, d, seed * 31);
          shr += r.stragglerHitRatio();
          hr += r.hitRatio();
          cached += r.cachedWeight;
          evicted += r.evictedWeight;
          prefetched += r.prefetchedWeight;
        }
        rows.add(new Row(name, sensingName, size, shr / runs, hr / runs, cached / runs, evicted / runs,
            prefetched / runs));
      }
    }
    return rows;
  }
}
