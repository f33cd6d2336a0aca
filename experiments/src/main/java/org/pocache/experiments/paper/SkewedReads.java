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
package org.pocache.experiments.paper;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.pocache.experiments.BaselineDriver;
import org.pocache.experiments.LatencyStats;
import org.pocache.experiments.WholeFileRead;
import org.pocache.manager.PoCacheConfigKeys;

/**
 * The paper's experiments on read workloads (§5.1, §5.3, §5.4) on the in-process
 * cluster: Experiment 3 (a skewed workload over four-block files), 4 (files of the
 * Facebook size mix), 12 (read latency by cache size and cache algorithm, on the real
 * Manager) and 16 (stragglers that come and go). Each writes the plan's files, then
 * replays the same Zipf-0.9 reads through every mode, one client, reads checked.
 */
final class SkewedReads {
  private static final long MIB = 1L << 20;
  private static final int K = 4;

  private SkewedReads() {
  }

  /** Experiment 3: 100 four-block files, Zipf-0.9 reads; Vanilla, HR, SR, POCache (and striped). */
  static Outcome exp3(Scale s, File plot, PrintStream out) throws IOException {
    int dataNodes = s.tiny ? 6 : 14;
    int files = s.tiny ? 8 : 100;
    int reads = s.tiny ? 12 : 2000;
    long block = MIB;
    int cacheBlocks = s.tiny ? 4 : 40;
    Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), dataNodes, reads, 3);
    String policy = BaselineDriver.defaultStripedPolicy(K);
    Outcome o = new Outcome("exp3", "Skewed workload",
        "100 four-block files (64 MiB blocks) on 13 DataNodes, 2,000 Zipf-0.9 reads, one straggler",
        String.format(Locale.ROOT, "%d four-block files of %d MiB blocks on %d DataNodes, %d Zipf-0.9 reads per mode"
            + " (the same sequence), DataNode 0 at 1/%d of %d MiB/s; POCache's cache %d blocks (10%% of the data),"
            + " SR replicates the most read files' blocks once more up to the same bytes; striped: %s",
            files, block >> 20, dataNodes, reads, s.slowdown, s.diskBandwidth >> 20, cacheBlocks, policy));
    List<Workloads.Run> runs = new ArrayList<>();
    try (PaperCluster c = PaperCluster.builder().dataNodes(dataNodes).k(K)
        .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(cacheBlocks * block)).start();
         FileSystem hedged = hedged(c)) {
      c.hdfs.setAllBandwidth(s.diskBandwidth);
      Set<Integer> popular = popular(plan, cacheBlocks);
      Workloads.FileSet r1 = Workloads.writeContiguous(c, "/exp3/r1", plan, Collections.emptySet(), 3_100_000);
      Workloads.FileSet sr = Workloads.writeContiguous(c, "/exp3/sr", plan, popular, 3_200_000);
      Workloads.FileSet r2 = Workloads.writeContiguous(c, "/exp3/r2", plan, all(files), 3_300_000);
      Workloads.FileSet ec = Workloads.writeStriped(c, "/exp3/ec", plan, policy, 3_400_000);
      Workloads.Stragglers st = Workloads.fixed(0, s.diskBandwidth, s.slowdown);
      st.apply(c, 0);
      Workloads.awaitListed(c, plan, r1, Collections.singleton(0), out);
      int warm = s.tiny ? 2 : 5;
      ExecutorService pool = Executors.newFixedThreadPool(K);
      try {
        WholeFileRead sequential = WholeFileRead.sequential(1 << 20);
        runs.add(Workloads.replay("Vanilla", c, c.plain, sequential, r1, plan.reads, warm, st, out));
        runs.add(Workloads.replay("SR", c, c.plain, WholeFileRead.parallelBlockPreads(block, pool), sr, plan.reads,
            warm, st, out));
        runs.add(Workloads.replay("POCache", c, c.pocache, WholeFileRead.positional(), r1, plan.reads, warm, st,
            out));
        Workloads.evictAll(c, "/exp3/r1");
        runs.add(Workloads.replay("Vanilla (striped)", c, c.plain, sequential, ec, plan.reads, warm, st, out));
        runs.add(Workloads.replay("POCache (striped)", c, c.pocache, WholeFileRead.positional(), ec, plan.reads,
            warm, st, out));
        // Last: HDFS 3.1's hedged-read pool is static, so every later pread in this JVM would hedge.
        runs.add(Workloads.replay("HR", c, hedged, WholeFileRead.blockByBlockPread(block), r2, plan.reads, warm, st,
            out));
      } finally {
        pool.shutdownNow();
        st.reset(c);
      }
    }
    Map<String, Workloads.Run> by = Workloads.record(o, runs);
    o.headline("contiguous: POCache p95 below Vanilla", "83.3%", 83.3, 83.3,
        below(by.get("POCache").stats.percentile(95), by.get("Vanilla").stats.percentile(95)), "%");
    o.headline("contiguous: POCache mean below Vanilla", "(not given)", Double.NaN, Double.NaN,
        below(by.get("POCache").stats.mean(), by.get("Vanilla").stats.mean()), "%");
    o.headline("contiguous: POCache p95 below HR", "(not given)", Double.NaN, Double.NaN,
        below(by.get("POCache").stats.percentile(95), by.get("HR").stats.percentile(95)), "%");
    o.headline("SR p95 / HR p95", "above 1 (SR's tail above HR's)", 1, Double.NaN,
        by.get("SR").stats.percentile(95) / by.get("HR").stats.percentile(95), "x");
    o.headline("striped: POCache p95 below Vanilla", "(not given)", Double.NaN, Double.NaN,
        below(by.get("POCache (striped)").stats.percentile(95), by.get("Vanilla (striped)").stats.percentile(95)),
        "%");
    statBars(plot, "Exp 3: skewed workload (Zipf 0.9), one straggler", runs);
    cdf(plot, "Exp 3: CDF of read latency", runs);
    return o;
  }

  /** Experiment 4: the Facebook size mix scaled by block size, Zipf-0.9 reads; Vanilla and POCache per layout. */
  static Outcome exp4(Scale s, File plot, PrintStream out) throws IOException {
    int dataNodes = s.tiny ? 6 : 14;
    long block = MIB;
    int[] blocksPerFile = {8, 4, 2, 1};
    int[] counts = s.tiny ? new int[] {1, 2, 2, 3} : new int[] {15, 30, 17, 38};
    int reads = s.tiny ? 12 : 1000;
    List<Long> lengths = new ArrayList<>();
    int dataBlocks = 0;
    for (int i = 0; i < counts.length; i++) {
      for (int j = 0; j < counts[i]; j++) {
        lengths.add(blocksPerFile[i] * block);
        dataBlocks += blocksPerFile[i];
      }
    }
    int cacheBlocks = s.tiny ? 4 : dataBlocks / 5;
    long[] ls = lengths.stream().mapToLong(Long::longValue).toArray();
    Workloads.Plan plan = Workloads.plan(block, ls, dataNodes, reads, 4);
    String policy = BaselineDriver.defaultStripedPolicy(K);
    Outcome o = new Outcome("exp4", "Multi-size workload",
        "15 x 512, 30 x 256, 17 x 128 and 38 x 64 MiB files (64 MiB blocks), Zipf-0.9 reads, k = 4, m = 1;"
            + " short files padded with zeros to a stripe",
        String.format(Locale.ROOT, "%s files of 8, 4, 2 and 1 blocks of %d MiB (the paper's mix with 64 MiB"
            + " blocks scaled to %d MiB) on %d DataNodes, %d Zipf-0.9 reads per mode, DataNode 0 at 1/%d of %d MiB/s;"
            + " cache %d blocks (20%% of the data); striped: %s", Arrays.toString(counts), block >> 20, block >> 20,
            dataNodes, reads, s.slowdown, s.diskBandwidth >> 20, cacheBlocks, policy));
    List<Workloads.Run> runs = new ArrayList<>();
    try (PaperCluster c = PaperCluster.builder().dataNodes(dataNodes).k(K)
        .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(cacheBlocks * block)).start()) {
      c.hdfs.setAllBandwidth(s.diskBandwidth);
      Workloads.FileSet r1 = Workloads.writeContiguous(c, "/exp4/r1", plan, Collections.emptySet(), 4_100_000);
      Workloads.FileSet ec = Workloads.writeStriped(c, "/exp4/ec", plan, policy, 4_200_000);
      Workloads.Stragglers st = Workloads.fixed(0, s.diskBandwidth, s.slowdown);
      st.apply(c, 0);
      Workloads.awaitListed(c, plan, r1, Collections.singleton(0), out);
      runs.addAll(Workloads.bothLayouts(c, r1, ec, plan.reads, s.tiny ? 2 : 5, st, out));
    }
    // Mean latency per file size, per mode.
    List<String> sizes = new ArrayList<>();
    for (int b : blocksPerFile) {
      sizes.add((b * block >> 20) + " MiB");
    }
    double[][] mean = new double[runs.size()][blocksPerFile.length];
    double[][] p95 = new double[runs.size()][blocksPerFile.length];
    for (int r = 0; r < runs.size(); r++) {
      Workloads.Run run = runs.get(r);
      Map<String, Object> row = o.row();
      row.putAll(run.row());
      List<Map<String, Object>> perSize = new ArrayList<>();
      for (int i = 0; i < blocksPerFile.length; i++) {
        List<Double> ms = new ArrayList<>();
        for (int j = 0; j < plan.reads.length; j++) {
          if (plan.lengths[plan.reads[j]] == blocksPerFile[i] * block) {
            ms.add(run.ms[j]);
          }
        }
        LatencyStats st = new LatencyStats(ms.stream().mapToDouble(Double::doubleValue).toArray());
        mean[r][i] = ms.isEmpty() ? Double.NaN : st.mean();
        p95[r][i] = ms.isEmpty() ? Double.NaN : st.percentile(95);
        Map<String, Object> sz = new LinkedHashMap<>();
        sz.put("file_bytes", blocksPerFile[i] * block);
        sz.put("reads", ms.size());
        sz.put("mean_ms", mean[r][i]);
        sz.put("p95_ms", p95[r][i]);
        perSize.add(sz);
        out.printf(Locale.ROOT, "  %-18s %8s  %4d reads  mean %7.1f ms  p95 %7.1f ms%n", run.mode, sizes.get(i),
            ms.size(), mean[r][i], p95[r][i]);
      }
      row.put("by_size", perSize);
    }
    double[] contiguous = belowBySize(mean[1], mean[0]);
    double[] striped = belowBySize(mean[3], mean[2]);
    o.headline("contiguous: POCache mean below Vanilla, smallest over sizes", "68.9%", 68.9, 68.9,
        min(contiguous), "%");
    o.headline("contiguous: POCache mean below Vanilla, largest over sizes", "81.9%", 81.9, 81.9, max(contiguous),
        "%");
    o.headline("striped: POCache mean below Vanilla, smallest over sizes", "50.8%", 50.8, 50.8, min(striped), "%");
    o.headline("striped: POCache mean below Vanilla, largest over sizes", "76.8%", 76.8, 76.8, max(striped), "%");
    List<String> names = new ArrayList<>();
    for (Workloads.Run r : runs) {
      names.add(r.mode);
    }
    Charts.bars(plot, "Exp 4: multi-size workload, mean read latency by file size", "latency (ms)", sizes, names,
        mean, null);
    return o;
  }

  /**
   * Experiment 12: POCache's read latency at cache sizes of 40, 60 and 80 blocks (10, 15
   * and 20% of the data blocks; also 10 and 20 for Experiment 11's straggler hit ratio
   * on the real Manager), for LRU, LFU and ARC without straggler awareness (detector
   * none) and CSAC with each; a cluster per configuration.
   */
  static Outcome exp12(Scale s, File plot, PrintStream out) throws IOException {
    int dataNodes = s.tiny ? 6 : 14;
    int files = s.tiny ? 8 : 100;
    int reads = s.tiny ? 12 : 500;
    long block = MIB;
    int[] sizes = s.tiny ? new int[] {3} : new int[] {10, 20, 40, 60, 80};
    // The paper's latency comparison is at 40 blocks (10% of the data blocks).
    int at = Math.max(0, Arrays.binarySearch(sizes, 40));
    String[][] configs = s.tiny
        ? new String[][] {{"LRU", "none", "lru"}, {"CSAC+LRU", "median-mad", "lru"}}
        : new String[][] {{"LRU", "none", "lru"}, {"LFU", "none", "lfu"}, {"ARC", "none", "arc"},
            {"CSAC+LRU", "median-mad", "lru"}, {"CSAC+LFU", "median-mad", "lfu"}, {"CSAC+ARC", "median-mad", "arc"}};
    Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), dataNodes, reads, 12);
    Outcome o = new Outcome("exp12", "Read latency against cache size",
        "100 four-block files, 2,000 Zipf-0.9 reads, one straggler; cache 40, 60, 80 blocks (hit ratios 0-100);"
            + " LRU, LFU, ARC and CSAC with each",
        String.format(Locale.ROOT, "%d four-block files of %d MiB blocks on %d DataNodes, %d Zipf-0.9 reads per"
            + " configuration, DataNode 0 at 1/%d of %d MiB/s; cache sizes %s blocks; the plain policies are the"
            + " Manager with dfs.pocache.straggler.detector = none; a fresh cluster per configuration", files,
            block >> 20, dataNodes, reads, s.slowdown, s.diskBandwidth >> 20, Arrays.toString(sizes)));
    double[][] p95 = new double[configs.length][sizes.length];
    double[][] mean = new double[configs.length][sizes.length];
    double[][] hits = new double[configs.length][sizes.length];
    for (int t = 0; t < sizes.length; t++) {
      for (int x = 0; x < configs.length; x++) {
        out.printf(Locale.ROOT, " %s, cache %d blocks%n", configs[x][0], sizes[t]);
        Workloads.Run run;
        try (PaperCluster c = PaperCluster.builder().dataNodes(dataNodes).k(K)
            .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(sizes[t] * block))
            .set(PoCacheConfigKeys.STRAGGLER_DETECTOR_KEY, configs[x][1])
            .set(PoCacheConfigKeys.CSAC_EVICTION_KEY, configs[x][2]).start()) {
          c.hdfs.setAllBandwidth(s.diskBandwidth);
          Workloads.FileSet r1 = Workloads.writeContiguous(c, "/exp12/r1", plan, Collections.emptySet(), 12_000_000);
          Workloads.Stragglers st = Workloads.fixed(0, s.diskBandwidth, s.slowdown);
          st.apply(c, 0);
          if (!configs[x][1].equals("none")) {
            Workloads.awaitListed(c, plan, r1, Collections.singleton(0), out);
          }
          run = Workloads.replay(configs[x][0], c, c.pocache, WholeFileRead.positional(), r1, plan.reads,
              s.tiny ? 2 : 5, st, out);
          st.reset(c);
        }
        mean[x][t] = run.stats.mean();
        p95[x][t] = run.stats.percentile(95);
        hits[x][t] = 100 * run.stragglerHitRatio();
        Map<String, Object> row = o.row();
        row.put("cache_blocks", sizes[t]);
        row.put("policy", configs[x][0]);
        row.put("straggler_hit_ratio", run.stragglerHitRatio());
        row.putAll(run.row());
      }
    }
    // At 40 blocks: every CSAC configuration's p95 against every plain one's.
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (int a = 0; a < configs.length; a++) {
      for (int b = 0; b < configs.length; b++) {
        if (configs[a][1].equals("none") || !configs[b][1].equals("none")) {
          continue;
        }
        double v = below(p95[a][at], p95[b][at]);
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    String where = sizes[at] + " blocks";
    o.headline("CSAC p95 below the plain policies at " + where + ", lowest", "72.1%", 72.1, 72.1, lo, "%");
    o.headline("CSAC p95 below the plain policies at " + where + ", highest", "86.3%", 86.3, 86.3, hi, "%");
    // Experiment 11's measure on the real Manager: reads that met the straggler unprotected.
    for (int x = 0; x < configs.length; x++) {
      if (configs[x][0].equals("CSAC+LFU") || s.tiny && configs[x][0].startsWith("CSAC")) {
        o.headline(configs[x][0] + " straggler hit ratio at " + where + ", on the Manager (Exp 11's measure)",
            "below 2.5% at T = 40", Double.NaN, 2.5, hits[x][at], "%");
        if (sizes[0] == 10) {
          o.headline(configs[x][0] + " straggler hit ratio at 10 blocks, on the Manager", "10.8% at T = 10",
              10.8, 10.8, hits[x][0], "%");
        }
      }
    }
    List<String> groups = new ArrayList<>();
    for (int t : sizes) {
      groups.add("cache " + t);
    }
    List<String> names = new ArrayList<>();
    for (String[] cfg : configs) {
      names.add(cfg[0]);
    }
    double[] xs = new double[sizes.length];
    for (int t = 0; t < sizes.length; t++) {
      xs[t] = sizes[t];
    }
    List<double[]> hitLines = Arrays.asList(hits);
    Charts.lines(sibling(plot, "-hits"), "Exp 12 (Exp 11's measure on the Manager): straggler hit ratio",
        "cache size (blocks)", "straggler hit ratio (%)", xs, names, hitLines, false);
    Charts.bars(plot, "Exp 12: p95 read latency by cache size and policy", "p95 latency (ms)", groups, names, p95,
        null);
    Charts.bars(sibling(plot, "-mean"), "Exp 12: mean read latency by cache size and policy", "mean latency (ms)",
        groups, names, mean, null);
    return o;
  }

  /**
   * Experiment 16: stragglers that come and go at random across the DataNodes at
   * several strengths (the paper's shared EC2 machines), detected by the Manager from
   * the DataNodes' heartbeats as they happen.
   */
  static Outcome exp16(Scale s, File plot, PrintStream out) throws IOException {
    int dataNodes = s.tiny ? 6 : 14;
    int files = s.tiny ? 8 : 150;
    int reads = s.tiny ? 12 : 1000;
    long block = MIB;
    int cacheBlocks = files * K / 10;
    long epoch = s.tiny ? 1000 : 8000;
    Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), dataNodes, reads, 16);
    String policy = BaselineDriver.defaultStripedPolicy(K);
    Workloads.Stragglers st = Workloads.natural(dataNodes, s.diskBandwidth, epoch, 0.1, 16);
    Outcome o = new Outcome("exp16", "Natural stragglers",
        "EC2: 28 DataNodes on shared machines, 300 four-block files, 1,000 Zipf-0.9 reads, cache 120 blocks",
        String.format(Locale.ROOT, "%d four-block files of %d MiB blocks on %d DataNodes (half the paper's), %d"
            + " Zipf-0.9 reads per mode, cache %d blocks (10%% of the data); stragglers: %s, %d MiB/s otherwise;"
            + " striped: %s", files, block >> 20, dataNodes, reads, cacheBlocks, st, s.diskBandwidth >> 20, policy));
    List<Workloads.Run> runs = new ArrayList<>();
    try (PaperCluster c = PaperCluster.builder().dataNodes(dataNodes).k(K)
        .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(cacheBlocks * block)).start()) {
      c.hdfs.setAllBandwidth(s.diskBandwidth);
      Workloads.FileSet r1 = Workloads.writeContiguous(c, "/exp16/r1", plan, Collections.emptySet(), 16_100_000);
      Workloads.FileSet ec = Workloads.writeStriped(c, "/exp16/ec", plan, policy, 16_200_000);
      runs.addAll(Workloads.bothLayouts(c, r1, ec, plan.reads, s.tiny ? 2 : 5, st, out));
    }
    Map<String, Workloads.Run> by = Workloads.record(o, runs);
    o.headline("contiguous: POCache mean below Vanilla", "64.3%", 64.3, 64.3,
        below(by.get("POCache").stats.mean(), by.get("Vanilla").stats.mean()), "%");
    o.headline("contiguous: POCache p95 below Vanilla", "63.9%", 63.9, 63.9,
        below(by.get("POCache").stats.percentile(95), by.get("Vanilla").stats.percentile(95)), "%");
    o.headline("striped: POCache mean below Vanilla", "30.9%", 30.9, 30.9,
        below(by.get("POCache (striped)").stats.mean(), by.get("Vanilla (striped)").stats.mean()), "%");
    o.headline("striped: POCache p95 below Vanilla", "42.4%", 42.4, 42.4,
        below(by.get("POCache (striped)").stats.percentile(95), by.get("Vanilla (striped)").stats.percentile(95)),
        "%");
    statBars(plot, "Exp 16: stragglers that come and go", runs);
    cdf(plot, "Exp 16: CDF of read latency", runs);
    return o;
  }

  /** A FileSystem whose preads hedge at once (threshold 0, as the paper's HR). */
  private static FileSystem hedged(PaperCluster c) throws IOException {
    Configuration conf = c.hdfs.conf();
    conf.setInt(HdfsClientConfigKeys.HedgedRead.THREADPOOL_SIZE_KEY, 16);
    conf.setLong(HdfsClientConfigKeys.HedgedRead.THRESHOLD_MILLIS_KEY, 0);
    return FileSystem.newInstance(c.hdfs.fs().getUri(), conf);
  }

  /** The most read files whose blocks, replicated once more, fit in {@code blocks}. */
  static Set<Integer> popular(Workloads.Plan plan, int blocks) {
    Set<Integer> out = new TreeSet<>();
    int used = 0;
    for (int f : plan.byPopularity()) {
      int b = plan.placement[f].length;
      if (used + b > blocks) {
        break;
      }
      out.add(f);
      used += b;
    }
    return out;
  }

  private static Set<Integer> all(int files) {
    Set<Integer> out = new HashSet<>();
    for (int f = 0; f < files; f++) {
      out.add(f);
    }
    return out;
  }

  /** How far {@code ours} is below {@code base}, percent. */
  static double below(double ours, double base) {
    return 100 * (1 - ours / base);
  }

  private static double[] belowBySize(double[] ours, double[] base) {
    double[] out = new double[ours.length];
    for (int i = 0; i < ours.length; i++) {
      out[i] = below(ours[i], base[i]);
    }
    return out;
  }

  /** The smallest finite value (+infinity when none). */
  static double min(double[] v) {
    double m = Double.POSITIVE_INFINITY;
    for (double x : v) {
      if (Double.isFinite(x)) {
        m = Math.min(m, x);
      }
    }
    return m;
  }

  /** The largest finite value (-infinity when none). */
  static double max(double[] v) {
    double m = Double.NEGATIVE_INFINITY;
    for (double x : v) {
      if (Double.isFinite(x)) {
        m = Math.max(m, x);
      }
    }
    return m;
  }

  /** Bars of mean, p50, p95 and p99 per mode. */
  static void statBars(File plot, String title, List<Workloads.Run> runs) throws IOException {
    List<String> groups = Arrays.asList("mean", "p50", "p95", "p99");
    List<String> names = new ArrayList<>();
    double[][] v = new double[runs.size()][4];
    for (int r = 0; r < runs.size(); r++) {
      Workloads.Run run = runs.get(r);
      names.add(run.mode);
      v[r] = new double[] {run.stats.mean(), run.stats.percentile(50), run.stats.percentile(95),
          run.stats.percentile(99)};
    }
    Charts.bars(plot, title, "latency (ms)", groups, names, v, null);
  }

  private static void cdf(File plot, String title, List<Workloads.Run> runs) throws IOException {
    List<String> names = new ArrayList<>();
    List<double[]> samples = new ArrayList<>();
    for (Workloads.Run r : runs) {
      names.add(r.mode);
      samples.add(r.ms);
    }
    Charts.cdf(sibling(plot, "-cdf"), title, "read latency (ms)", names, samples);
  }

  /** {@code exp3.png} with a suffix: {@code exp3-cdf.png}. */
  static File sibling(File plot, String suffix) {
    String name = plot.getName();
    int dot = name.lastIndexOf('.');
    String base = dot < 0 ? name : name.substring(0, dot);
    String ext = dot < 0 ? "" : name.substring(dot);
    return new File(plot.getAbsoluteFile().getParentFile(), base + suffix + ext);
  }
}
