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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.pocache.experiments.WholeFileRead;
import org.pocache.manager.PoCacheConfigKeys;
import redis.clients.jedis.Jedis;

/**
 * Cases the paper does not measure, in the same form as its experiments: two
 * simultaneous stragglers with m = 1 and m = 2 parity pieces cached per stripe, a
 * straggler that is slow only part of the time, what a cache byte buys on files of mixed
 * sizes, and EC-Cache's late binding (k + 1 of k + 2 pieces) against POCache's k + m.
 */
final class BeyondPaper {
  private static final long MIB = 1L << 20;
  private static final int K = 4;

  private BeyondPaper() {
  }

  /**
   * Two DataNodes at 1/slowdown at once: with m = 1 a file with blocks on both still
   * waits for one; with m = 2 neither. Same files and reads; a cluster per m, each
   * caching the same number of files (twice the bytes with m = 2).
   */
  static Outcome twoStragglers(Scale s, File plot, PrintStream out) throws IOException {
    int dataNodes = s.tiny ? 6 : 14;
    int files = s.tiny ? 8 : 100;
    int reads = s.tiny ? 12 : 1000;
    long block = MIB;
    int cachedFiles = s.tiny ? 4 : 40;
    Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), dataNodes, reads, 21);
    Set<Integer> slow = new HashSet<>(Arrays.asList(0, 1));
    Outcome o = new Outcome("two-stragglers", "Two stragglers at once, m = 1 and m = 2",
        "(not in the paper)",
        String.format(Locale.ROOT, "%d four-block files of %d MiB blocks on %d DataNodes, %d Zipf-0.9 reads per"
            + " mode, DataNodes 0 and 1 at 1/%d of %d MiB/s; cache of %d files' parity (m blocks each)", files,
            block >> 20, dataNodes, reads, s.slowdown, s.diskBandwidth >> 20, cachedFiles));
    List<Workloads.Run> runs = new ArrayList<>();
    for (int m = 1; m <= 2; m++) {
      try (PaperCluster c = PaperCluster.builder().dataNodes(dataNodes).k(K)
          .set(PoCacheConfigKeys.CODE_M_KEY, Integer.toString(m))
          .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(cachedFiles * m * block)).start()) {
        c.hdfs.setAllBandwidth(s.diskBandwidth);
        Workloads.FileSet r1 = Workloads.writeContiguous(c, "/two/r1", plan, Collections.emptySet(), 21_000_000);
        Workloads.Stragglers st = Workloads.fixed(slow, s.diskBandwidth, s.slowdown);
        st.apply(c, 0);
        Workloads.awaitListed(c, plan, r1, slow, out);
        int warm = s.tiny ? 2 : 5;
        if (m == 1) {
          runs.add(Workloads.replay("Vanilla", c, c.plain, WholeFileRead.sequential(1 << 20), r1, plan.reads, warm,
              st, out));
        }
        runs.add(Workloads.replay("POCache m = " + m, c, c.pocache, WholeFileRead.positional(), r1, plan.reads,
            warm, st, out));
        st.reset(c);
      }
    }
    // Reads of files with blocks on both stragglers: the ones m = 1 cannot mask.
    Map<String, Workloads.Run> by = Workloads.record(o, runs);
    o.headline("POCache m = 1: mean below Vanilla", "(not in the paper)", Double.NaN, Double.NaN,
        SkewedReads.below(by.get("POCache m = 1").stats.mean(), by.get("Vanilla").stats.mean()), "%");
    o.headline("POCache m = 2: mean below Vanilla", "(not in the paper)", Double.NaN, Double.NaN,
        SkewedReads.below(by.get("POCache m = 2").stats.mean(), by.get("Vanilla").stats.mean()), "%");
    o.headline("p99, m = 2 / m = 1", "(not in the paper)", Double.NaN, Double.NaN,
        by.get("POCache m = 2").stats.percentile(99) / by.get("POCache m = 1").stats.percentile(99), "x");
    SkewedReads.statBars(plot, "Two stragglers at once: m = 1 against m = 2", runs);
    return o;
  }

  /** One DataNode slow for half of every period: how fast the Manager's list and the cache follow. */
  static Outcome intermittent(Scale s, File plot, PrintStream out) throws IOException {
    int dataNodes = s.tiny ? 6 : 14;
    int files = s.tiny ? 8 : 100;
    int reads = s.tiny ? 12 : 1000;
    long block = MIB;
    int cacheBlocks = s.tiny ? 4 : 40;
    long period = s.tiny ? 2000 : 20_000;
    Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), dataNodes, reads, 22);
    Workloads.Stragglers st = Workloads.intermittent(0, s.diskBandwidth, s.slowdown, period, period / 2);
    Outcome o = new Outcome("intermittent", "A straggler slow only part of the time", "(not in the paper)",
        String.format(Locale.ROOT, "%d four-block files of %d MiB blocks on %d DataNodes, %d Zipf-0.9 reads per"
            + " mode; %s, %d MiB/s otherwise; cache %d blocks", files, block >> 20, dataNodes, reads, st,
            s.diskBandwidth >> 20, cacheBlocks));
    List<Workloads.Run> runs = new ArrayList<>();
    try (PaperCluster c = PaperCluster.builder().dataNodes(dataNodes).k(K)
        .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(cacheBlocks * block)).start()) {
      c.hdfs.setAllBandwidth(s.diskBandwidth);
      Workloads.FileSet r1 = Workloads.writeContiguous(c, "/intermittent/r1", plan, Collections.emptySet(),
          22_000_000);
      int warm = s.tiny ? 2 : 5;
      try {
        runs.add(Workloads.replay("Vanilla", c, c.plain, WholeFileRead.sequential(1 << 20), r1, plan.reads, warm,
            st, out));
        runs.add(Workloads.replay("POCache", c, c.pocache, WholeFileRead.positional(), r1, plan.reads, warm, st,
            out));
      } finally {
        st.reset(c);
      }
    }
    Map<String, Workloads.Run> by = Workloads.record(o, runs);
    o.headline("POCache mean below Vanilla", "(not in the paper)", Double.NaN, Double.NaN,
        SkewedReads.below(by.get("POCache").stats.mean(), by.get("Vanilla").stats.mean()), "%");
    o.headline("POCache p95 below Vanilla", "(not in the paper)", Double.NaN, Double.NaN,
        SkewedReads.below(by.get("POCache").stats.percentile(95), by.get("Vanilla").stats.percentile(95)), "%");
    o.headline("POCache straggler hits / reads on the straggler", "(not in the paper)", Double.NaN, Double.NaN,
        by.get("POCache").touchingStraggler == 0 ? 0
            : by.get("POCache").stragglerHits / (double) by.get("POCache").touchingStraggler, "x");
    SkewedReads.statBars(plot, "A straggler slow half of the time", runs);
    return o;
  }

  /**
   * What a cache byte buys on files of mixed sizes (the paper's Experiment 4 mix): the
   * same cache, in bytes, given to POCache with CSAC+LFU, to POCache with CSAC+benefit
   * (benefit per byte, the Manager's default) and to SP-Cache's whole data of the most
   * read files, against no cache, under one straggler that moves to a random DataNode
   * every epoch. A cluster per POCache policy (the Manager's policy is a site setting).
   */
  static Outcome cacheBytes(Scale s, File plot, PrintStream out) throws IOException {
    int dataNodes = s.tiny ? 6 : 14;
    long block = MIB;
    int[] blocksPerFile = {8, 4, 2, 1};
    int[] counts = s.tiny ? new int[] {1, 2, 2, 3} : new int[] {15, 30, 17, 38};
    int reads = s.tiny ? 12 : 1000;
    int cacheBlocks = s.tiny ? 4 : 40;
    long epoch = s.tiny ? 2000 : 15_000;
    List<Long> lengths = new ArrayList<>();
    for (int i = 0; i < counts.length; i++) {
      for (int j = 0; j < counts[i]; j++) {
        lengths.add(blocksPerFile[i] * block);
      }
    }
    Workloads.Plan plan = Workloads.plan(block, lengths.stream().mapToLong(Long::longValue).toArray(), dataNodes,
        reads, 23);
    Outcome o = new Outcome("cache-bytes", "What a cache byte buys on files of mixed sizes", "(not in the paper)",
        String.format(Locale.ROOT, "%s files of 8, 4, 2 and 1 blocks of %d MiB (Exp 4's mix) on %d DataNodes,"
            + " %d Zipf-0.9 reads per mode; one DataNode at 1/%d of %d MiB/s, a random one every %d s; %d MiB of"
            + " cache: parity for POCache, data for SP-Cache; every mode reads a file with one positional read of"
            + " it (HDFS's, block after block, where nothing is cached)", Arrays.toString(counts), block >> 20,
            dataNodes, reads, s.slowdown, s.diskBandwidth >> 20, epoch / 1000, cacheBlocks * block >> 20));
    List<Workloads.Run> runs = new ArrayList<>();
    int warm = s.tiny ? 2 : 5;
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      for (String eviction : new String[] {"lfu", "benefit"}) {
        Workloads.Stragglers st = Workloads.moving(dataNodes, s.diskBandwidth, s.slowdown, epoch, 23);
        try (PaperCluster c = PaperCluster.builder().dataNodes(dataNodes).k(K)
            .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(cacheBlocks * block))
            .set(PoCacheConfigKeys.CSAC_EVICTION_KEY, eviction).start();
             Jedis redis = new Jedis(c.redis.host(), c.redis.port())) {
          c.hdfs.setAllBandwidth(s.diskBandwidth);
          Workloads.FileSet r1 = Workloads.writeContiguous(c, "/bytes/r1", plan, Collections.emptySet(), 23_000_000);
          try {
            if (eviction.equals("lfu")) {
              runs.add(Workloads.replay("No cache", c, c.plain, WholeFileRead.positional(), r1, plan.reads, warm,
                  st, out));
              CacheStrategies.DataCache sp = new CacheStrategies.DataCache(CacheStrategies.DataCache.Kind.SP_CACHE,
                  cacheBlocks, redis, plan, Collections.<String>emptySet());
              runs.add(Workloads.replay("SP-Cache", c, c.plain, sp.reader(c.plain, r1, pool), r1, plan.reads, warm,
                  st, out));
              sp.clear();
            }
            runs.add(Workloads.replay("POCache CSAC+" + (eviction.equals("lfu") ? "LFU" : "benefit"), c,
                c.pocache, WholeFileRead.positional(), r1, plan.reads, warm, st, out));
          } finally {
            st.reset(c);
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
    // Each mode's row, with its mean and p95 per file size: where each cache's bytes went.
    Map<String, Workloads.Run> by = new java.util.LinkedHashMap<>();
    for (int r = 0; r < runs.size(); r++) {
      by.put(runs.get(r).mode, runs.get(r));
      Map<String, Object> row = o.row();
      row.putAll(runs.get(r).row());
      List<Map<String, Object>> perSize = new ArrayList<>();
      for (int b : blocksPerFile) {
        List<Double> ms = new ArrayList<>();
        for (int j = 0; j < plan.reads.length; j++) {
          if (plan.lengths[plan.reads[j]] == b * block) {
            ms.add(runs.get(r).ms[j]);
          }
        }
        org.pocache.experiments.LatencyStats st = new org.pocache.experiments.LatencyStats(
            ms.stream().mapToDouble(Double::doubleValue).toArray());
        Map<String, Object> sz = new java.util.LinkedHashMap<>();
        sz.put("file_blocks", b);
        sz.put("reads", ms.size());
        sz.put("mean_ms", ms.isEmpty() ? Double.NaN : st.mean());
        sz.put("p95_ms", ms.isEmpty() ? Double.NaN : st.percentile(95));
        perSize.add(sz);
        out.printf(Locale.ROOT, "  %-22s %d-block files  %4d reads  mean %7.1f ms  p95 %7.1f ms%n", runs.get(r).mode,
            b, ms.size(), ms.isEmpty() ? Double.NaN : st.mean(), ms.isEmpty() ? Double.NaN : st.percentile(95));
      }
      row.put("by_size", perSize);
    }
    Workloads.Run none = by.get("No cache");
    double mib = cacheBlocks * block / (double) MIB;
    for (String mode : new String[] {"POCache CSAC+benefit", "POCache CSAC+LFU", "SP-Cache"}) {
      Workloads.Run r = by.get(mode);
      o.headline(mode + ": mean read time saved per cache MiB", "(not in the paper)", Double.NaN, Double.NaN,
          (none.stats.mean() - r.stats.mean()) / mib, "ms");
      o.headline(mode + ": p95 read time saved per cache MiB", "(not in the paper)", Double.NaN, Double.NaN,
          (none.stats.percentile(95) - r.stats.percentile(95)) / mib, "ms");
    }
    o.headline("POCache CSAC+benefit p95 / CSAC+LFU p95", "(not in the paper)", Double.NaN, Double.NaN,
        by.get("POCache CSAC+benefit").stats.percentile(95) / by.get("POCache CSAC+LFU").stats.percentile(95), "x");
    SkewedReads.statBars(plot, "Exp 4's sizes, one moving straggler: the same cache bytes", runs);
    return o;
  }

  /**
   * EC-Cache's late binding on POCache's reads: m = 2 parity pieces cached per stripe, and
   * a read asks for all k + 2 pieces (POCache) or for k + 1 of them
   * ({@code dfs.pocache.read.parity.pieces} = 1), with no straggler, one, and two at once.
   * Every file's parity is cached before the reads, so only the read differs. Besides the
   * latencies, the bytes redis-server sent per read.
   */
  static Outcome lateBinding(Scale s, File plot, PrintStream out) throws IOException {
    int dataNodes = s.tiny ? 6 : 14;
    int files = s.tiny ? 8 : 60;
    int reads = s.tiny ? 12 : 400;
    long block = MIB;
    Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), dataNodes, reads, 24);
    Outcome o = new Outcome("late-binding", "EC-Cache's late binding: k + 1 of k + 2 against k + 2",
        "(not in the paper)",
        String.format(Locale.ROOT, "%d four-block files of %d MiB blocks on %d DataNodes, m = 2 parity pieces"
            + " cached for every file, %d Zipf-0.9 reads per mode and case; stragglers at 1/%d of %d MiB/s:"
            + " none, DataNode 0, DataNodes 0 and 1", files, block >> 20, dataNodes, reads, s.slowdown,
            s.diskBandwidth >> 20));
    List<Workloads.Run> runs = new ArrayList<>();
    Map<String, Double> redisBytesPerRead = new java.util.LinkedHashMap<>();
    List<Set<Integer>> cases = Arrays.asList(Collections.<Integer>emptySet(), Collections.singleton(0),
        new HashSet<>(Arrays.asList(0, 1)));
    String[] caseNames = {"no straggler", "one straggler", "two stragglers"};
    try (PaperCluster c = PaperCluster.builder().dataNodes(dataNodes).k(K)
        .set(PoCacheConfigKeys.CODE_M_KEY, "2")
        .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(2L * files * block)).start();
         Jedis redis = new Jedis(c.redis.host(), c.redis.port())) {
      c.hdfs.setAllBandwidth(s.diskBandwidth);
      Workloads.FileSet r1 = Workloads.writeContiguous(c, "/late/r1", plan, Collections.emptySet(), 24_000_000);
      c.cache(r1.paths);
      org.apache.hadoop.fs.FileSystem all = c.client();
      org.apache.hadoop.fs.FileSystem late = c.client(PoCacheConfigKeys.READ_PARITY_PIECES_KEY, "1");
      int warm = s.tiny ? 2 : 5;
      for (int x = 0; x < cases.size(); x++) {
        Workloads.Stragglers st = Workloads.fixed(cases.get(x), s.diskBandwidth, s.slowdown);
        st.apply(c, 0);
        try {
          if (!cases.get(x).isEmpty()) {
            Workloads.awaitListed(c, plan, r1, cases.get(x), out);
          }
          for (int mode = 0; mode < 2; mode++) {
            String name = (mode == 0 ? "k + 2, " : "k + 1 of k + 2, ") + caseNames[x];
            long before = netOutput(redis);
            runs.add(Workloads.replay(name, c, mode == 0 ? all : late, WholeFileRead.positional(), r1, plan.reads,
                warm, st, out));
            double perRead = (netOutput(redis) - before) / (double) (plan.reads.length + Math.min(warm,
                plan.reads.length));
            redisBytesPerRead.put(name, perRead);
            out.printf(Locale.ROOT, "  %-32s redis-server sent %.0f KiB per read%n", name, perRead / 1024);
          }
        } finally {
          st.reset(c);
        }
      }
    }
    Map<String, Workloads.Run> by = new java.util.LinkedHashMap<>();
    for (Workloads.Run r : runs) {
      by.put(r.mode, r);
      Map<String, Object> row = o.row();
      row.putAll(r.row());
      row.put("redis_bytes_per_read", redisBytesPerRead.get(r.mode));
      // Reads of files with blocks on both DataNodes 0 and 1: what one parity piece cannot mask.
      List<Double> both = new ArrayList<>();
      for (int j = 0; j < plan.reads.length; j++) {
        Set<Integer> on = new HashSet<>();
        for (int d : plan.placement[plan.reads[j]]) {
          on.add(d);
        }
        if (on.contains(0) && on.contains(1)) {
          both.add(r.ms[j]);
        }
      }
      if (!both.isEmpty()) {
        org.pocache.experiments.LatencyStats b = new org.pocache.experiments.LatencyStats(
            both.stream().mapToDouble(Double::doubleValue).toArray());
        row.put("reads_on_datanodes_0_and_1", both.size());
        row.put("mean_ms_on_datanodes_0_and_1", b.mean());
        out.printf(Locale.ROOT, "  %-32s %d reads of files on DataNodes 0 and 1: mean %.1f ms%n", r.mode,
            both.size(), b.mean());
      }
    }
    for (int x = 1; x < caseNames.length; x++) {
      Workloads.Run k2 = by.get("k + 2, " + caseNames[x]);
      Workloads.Run k1 = by.get("k + 1 of k + 2, " + caseNames[x]);
      o.headline(caseNames[x] + ": late binding mean / k + 2 mean", "(not in the paper)", Double.NaN, Double.NaN,
          k1.stats.mean() / k2.stats.mean(), "x");
      o.headline(caseNames[x] + ": late binding p99 / k + 2 p99", "(not in the paper)", Double.NaN, Double.NaN,
          k1.stats.percentile(99) / k2.stats.percentile(99), "x");
    }
    o.headline("redis-server bytes per read, late binding / k + 2, one straggler", "(not in the paper)", Double.NaN,
        Double.NaN, redisBytesPerRead.get("k + 1 of k + 2, one straggler")
            / redisBytesPerRead.get("k + 2, one straggler"), "x");
    SkewedReads.statBars(plot, "Late binding (k + 1 of k + 2) against k + 2, m = 2", runs);
    return o;
  }

  /** redis-server's total_net_output_bytes. */
  private static long netOutput(Jedis redis) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("total_net_output_bytes:(\\d+)")
        .matcher(redis.info("stats"));
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }
}
