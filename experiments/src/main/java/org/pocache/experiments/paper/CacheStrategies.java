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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FSDataInputStream;
import org.pocache.csac.Csac;
import org.pocache.csac.Decision;
import org.pocache.csac.FileRef;
import org.pocache.csac.policy.Policies;
import org.pocache.experiments.WholeFileRead;
import org.pocache.manager.PoCacheConfigKeys;
import redis.clients.jedis.Jedis;

/**
 * Experiment 14: read latency of cache strategies at cache sizes of 10, 15 and 20% of
 * the data blocks, one straggler. POCache caches parity through its Manager (CSAC with
 * LFU); SR replicates the most read files' blocks once more up to the same bytes; DC1
 * and DC2 cache data blocks in the same redis-server (DC1: every block a read finds on
 * the listed straggler, LFU over blocks; DC2: CSAC+LFU over files, a cached file
 * holding its blocks on the straggler) and read a file's cached blocks from Redis and
 * the others from HDFS in parallel; OR reads files whose three replicas are all off the
 * straggler (an oracle that always picks a healthy replica).
 */
final class CacheStrategies {
  private static final long MIB = 1L << 20;
  private static final int K = 4;

  private CacheStrategies() {
  }

  static Outcome exp14(Scale s, File plot, PrintStream out) throws IOException {
    int dataNodes = s.tiny ? 6 : 14;
    int files = s.tiny ? 8 : 100;
    int reads = s.tiny ? 12 : 500;
    long block = MIB;
    int[] sizes = s.tiny ? new int[] {4} : new int[] {40, 60, 80};
    Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), dataNodes, reads, 14);
    Outcome o = new Outcome("exp14", "Latency of cache strategies",
        "100 four-block files, 2,000 Zipf-0.9 reads, one straggler; SR, DC1, DC2, OR (3-way replication, reads"
            + " from healthy replicas) and POCache at cache sizes 40, 60, 80 blocks",
        String.format(Locale.ROOT, "%d four-block files of %d MiB blocks on %d DataNodes, %d Zipf-0.9 reads per"
            + " strategy and size, DataNode 0 at 1/%d of %d MiB/s; cache sizes %s blocks; DC1/DC2 keep data blocks"
            + " in the same redis-server and read them in parallel with the HDFS blocks (as SR and OR do); POCache"
            + " is CSAC+LFU; a cluster per size", files, block >> 20, dataNodes, reads, s.slowdown,
            s.diskBandwidth >> 20, Arrays.toString(sizes)));
    String[] names = {"SR", "DC1", "DC2", "OR", "POCache"};
    double[][] mean = new double[names.length][sizes.length];
    double[][] p95 = new double[names.length][sizes.length];
    ExecutorService pool = Executors.newFixedThreadPool(K);
    try {
      for (int t = 0; t < sizes.length; t++) {
        int cacheBlocks = sizes[t];
        try (PaperCluster c = PaperCluster.builder().dataNodes(dataNodes).k(K)
            .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(cacheBlocks * block))
            .set(PoCacheConfigKeys.CSAC_EVICTION_KEY, "lfu").start();
             Jedis redis = new Jedis(c.redis.host(), c.redis.port())) {
          c.hdfs.setAllBandwidth(s.diskBandwidth);
          Workloads.FileSet r1 = Workloads.writeContiguous(c, "/exp14/r1", plan, Collections.emptySet(), 14_100_000);
          Workloads.FileSet sr = Workloads.writeContiguous(c, "/exp14/sr", plan,
              SkewedReads.popular(plan, cacheBlocks), 14_200_000);
          // OR: three replicas, none on the straggler (DataNode 0).
          Workloads.FileSet or = Workloads.writeContiguous(c, "/exp14/or", plan, 14_300_000,
              (f, b) -> offStraggler(plan, f, b));
          Workloads.Stragglers st = Workloads.fixed(0, s.diskBandwidth, s.slowdown);
          st.apply(c, 0);
          Workloads.awaitListed(c, plan, r1, Collections.singleton(0), out);
          Set<String> estimated = Collections.singleton("dn0");
          int warm = s.tiny ? 2 : 5;
          out.printf(Locale.ROOT, " cache %d blocks%n", cacheBlocks);
          List<Workloads.Run> runs = new ArrayList<>();
          runs.add(Workloads.replay("SR", c, c.plain, WholeFileRead.parallelBlockPreads(block, pool), sr,
              plan.reads, warm, st, out));
          for (boolean perBlock : new boolean[] {true, false}) {
            DataCache dc = new DataCache(perBlock ? DataCache.Kind.DC1 : DataCache.Kind.DC2, cacheBlocks, redis, plan,
                estimated);
            runs.add(Workloads.replay(perBlock ? "DC1" : "DC2", c, c.plain, dc.reader(c.plain, r1, pool), r1,
                plan.reads, warm, st, out));
            dc.clear();
          }
          runs.add(Workloads.replay("OR", c, c.plain, WholeFileRead.parallelBlockPreads(block, pool), or, plan.reads,
              warm, st, out));
          runs.add(Workloads.replay("POCache", c, c.pocache, WholeFileRead.positional(), r1, plan.reads, warm, st,
              out));
          st.reset(c);
          for (int x = 0; x < runs.size(); x++) {
            Workloads.Run run = runs.get(x);
            mean[x][t] = run.stats.mean();
            p95[x][t] = run.stats.percentile(95);
            Map<String, Object> row = o.row();
            row.put("cache_blocks", cacheBlocks);
            row.putAll(run.row());
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
    summarize(o, sizes, names, mean, p95, plot, "Exp 14");
    return o;
  }

  /**
   * Exp 14's headlines beside the paper's and its two figures (mean, p95) from each
   * strategy's (POCache last) mean and p95 at each cache size; shared by the
   * in-process and the multi-process run.
   */
  static void summarize(Outcome o, int[] sizes, String[] names, double[][] mean, double[][] p95, File plot,
      String chart) throws IOException {
    // POCache against the best of the others, per size.
    double worst = Double.POSITIVE_INFINITY;
    for (int t = 0; t < sizes.length; t++) {
      double best = Double.POSITIVE_INFINITY;
      for (int x = 0; x < names.length - 1; x++) {
        best = Math.min(best, mean[x][t]);
      }
      worst = Math.min(worst, best / mean[names.length - 1][t]);
    }
    o.headline("best other strategy's mean / POCache's, lowest over sizes", "above 1 (POCache lowest)", 1,
        Double.NaN, worst, "x");
    int dc1 = 1;
    int dc2 = 2;
    o.headline("DC1 mean / DC2 mean at the smallest cache", "slightly below 1 (DC1 slightly below DC2)", Double.NaN,
        1, mean[dc1][0] / mean[dc2][0], "x");
    List<String> groups = new ArrayList<>();
    for (int t : sizes) {
      groups.add("cache " + t);
    }
    Charts.bars(plot, chart + ": mean read latency of cache strategies", "mean latency (ms)", groups,
        Arrays.asList(names), mean, null);
    Charts.bars(SkewedReads.sibling(plot, "-p95"), chart + ": p95 read latency of cache strategies",
        "p95 latency (ms)", groups, Arrays.asList(names), p95, null);
  }

  /** OR's replicas of block b of file f: three DataNodes from its planned one on, none of them the straggler (0). */
  static int[] offStraggler(Workloads.Plan plan, int f, int b) {
    int[] r = new int[3];
    int d = plan.placement[f][b];
    for (int i = 0; i < 3; i++) {
      while (d == 0 || contains(r, i, d)) {
        d = (d + 1) % plan.dataNodes;
      }
      r[i] = d;
    }
    return r;
  }

  private static boolean contains(int[] a, int n, int v) {
    for (int i = 0; i < n; i++) {
      if (a[i] == v) {
        return true;
      }
    }
    return false;
  }

  /**
   * DC1, DC2 or SP-Cache: which data blocks are cached, decided by CSAC with LFU over
   * blocks on the estimated stragglers (DC1), over files and their blocks on them (DC2),
   * or over files and all their blocks, blind to stragglers (SP-Cache: the whole data of
   * the most read files; its partitioning over cache servers is left out, there is one
   * redis-server); the blocks' bytes kept in Redis.
   */
  static final class DataCache {
    enum Kind { DC1, DC2, SP_CACHE }

    private final Kind kind;
    private final boolean perBlock;
    private final Csac csac;
    private final Jedis redis;
    private final Workloads.Plan plan;
    private final Set<String> estimated;
    /** Entry id (a block: file * 64 + block; a file: its index) -> the blocks it holds. */
    private final Map<Long, int[]> held = new HashMap<>();

    DataCache(Kind kind, long capacityBlocks, Jedis redis, Workloads.Plan plan, Set<String> estimated) {
      this.kind = kind;
      this.perBlock = kind == Kind.DC1;
      this.redis = redis;
      this.plan = plan;
      this.estimated = estimated;
      this.csac = new Csac(capacityBlocks, Policies.admission("admission", "cache-upon-access", capacityBlocks,
          plan.files()), Policies.eviction("eviction", "lfu", capacityBlocks),
          Policies.prediction("prediction", "recency", 16), 0, Long.MAX_VALUE, null,
          System::currentTimeMillis);
      if (kind != Kind.SP_CACHE) {
        csac.setStragglers(estimated);
      }
    }

    /** Reads a file's cached blocks from Redis and the rest from HDFS in parallel, then updates the cache. */
    Workloads.FileRead reader(org.apache.hadoop.fs.FileSystem fs, Workloads.FileSet files, ExecutorService pool) {
      boolean[] avoided = new boolean[1];
      return new Workloads.FileRead() {
        @Override
        public boolean lastAvoidedStragglers() {
          return avoided[0];
        }

        @Override
        public void read(int f, byte[] buf) throws IOException {
          readWith(fs, files, pool, f, buf, avoided);
        }
      };
    }

    private void readWith(org.apache.hadoop.fs.FileSystem fs, Workloads.FileSet files, ExecutorService pool, int f,
        byte[] buf, boolean[] avoided) throws IOException {
      int blocks = plan.placement[f].length;
      boolean[] fromRedis = new boolean[blocks];
      for (int[] hb : heldBlocksOf(f)) {
        fromRedis[hb[1]] = true;
      }
      avoided[0] = true;
      for (int b = 0; b < blocks; b++) {
        avoided[0] &= fromRedis[b] || (kind != Kind.SP_CACHE && !estimated.contains("dn" + plan.placement[f][b]));
      }
      List<Future<?>> reads = new ArrayList<>();
      try (FSDataInputStream in = fs.open(files.paths.get(f))) {
        // SP-Cache, file not cached: the same positional read of the whole file as without a cache.
        boolean whole = kind == Kind.SP_CACHE && !fromRedis[0];
        if (whole) {
          in.readFully(0, buf, 0, (int) (blocks * plan.blockSize));
        }
        for (int b = 0; b < blocks && !whole; b++) {
          if (fromRedis[b]) {
            continue;
          }
          final long pos = b * plan.blockSize;
          reads.add(pool.submit(() -> {
            in.readFully(pos, buf, (int) pos, (int) plan.blockSize);
            return null;
          }));
        }
        for (int b = 0; b < blocks; b++) {
          if (fromRedis[b]) {
            byte[] v = redis.get(key(blockId(f, b)));
            if (v == null || v.length != plan.blockSize) {
              throw new IOException("data block " + b + " of file " + f + " is not in Redis");
            }
            System.arraycopy(v, 0, buf, (int) (b * plan.blockSize), v.length);
          }
        }
        for (Future<?> r : reads) {
          r.get();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof IOException ? (IOException) e.getCause() : new IOException(e.getCause());
      } finally {
        for (Future<?> r : reads) {
          r.cancel(true);
        }
      }
      update(f, buf);
    }

    /** The blocks of file f held now, as {file, block} pairs. */
    private List<int[]> heldBlocksOf(int f) {
      List<int[]> out = new ArrayList<>();
      if (perBlock) {
        for (int b = 0; b < plan.placement[f].length; b++) {
          if (held.containsKey(blockId(f, b))) {
            out.add(new int[] {f, b});
          }
        }
      } else if (held.containsKey((long) f)) {
        for (int b : held.get((long) f)) {
          out.add(new int[] {f, b});
        }
      }
      return out;
    }

    /** After a read of f (its bytes in buf): the cache decides, blocks enter and leave Redis. */
    private void update(int f, byte[] buf) {
      int[] on = plan.placement[f];
      if (perBlock) {
        for (int b = 0; b < on.length; b++) {
          if (!estimated.contains("dn" + on[b])) {
            continue;
          }
          long id = blockId(f, b);
          FileRef ref = new FileRef(id, 1, "dn" + on[b]);
          Decision d = csac.query(ref);
          apply(id, new int[] {b}, csac.update(ref, d == Decision.CACHED ? d : Decision.SHOULD_CACHE), f, buf);
        }
        return;
      }
      List<Integer> onStraggler = new ArrayList<>();
      String[] names = new String[on.length];
      for (int b = 0; b < on.length; b++) {
        names[b] = "dn" + on[b];
        if (kind == Kind.SP_CACHE || estimated.contains(names[b])) {
          onStraggler.add(b); // SP-Cache holds every block
        }
      }
      if (onStraggler.isEmpty() && !csac.isCached(f)) {
        return; // nothing on a straggler: nothing worth caching
      }
      FileRef ref = new FileRef(f, Math.max(1, onStraggler.size()), names);
      int[] blocks = onStraggler.stream().mapToInt(Integer::intValue).toArray();
      apply(f, blocks, csac.update(ref, csac.query(ref)), f, buf);
    }

    private void apply(long id, int[] blocks, List<Long> evicted, int f, byte[] buf) {
      for (long e : evicted) {
        int[] gone = held.remove(e);
        if (gone != null) {
          for (int b : gone) {
            redis.del(key(perBlock ? e : blockId((int) e, b)));
          }
        }
      }
      if (csac.isCached(id) && !held.containsKey(id)) {
        for (int b : blocks) {
          redis.set(key(blockId(f, b)), Arrays.copyOfRange(buf, (int) (b * plan.blockSize),
              (int) ((b + 1) * plan.blockSize)));
        }
        held.put(id, blocks);
      }
    }

    private static long blockId(int f, int b) {
      return f * 64L + b;
    }

    void clear() {
      for (Map.Entry<Long, int[]> e : held.entrySet()) {
        for (int b : e.getValue()) {
          redis.del(key(perBlock ? e.getKey() : blockId(e.getKey().intValue(), b)));
        }
      }
      held.clear();
    }

    private static byte[] key(long id) {
      return ("dc:" + id).getBytes(StandardCharsets.UTF_8);
    }
  }
}
