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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.pocache.experiments.Options;
import org.pocache.experiments.UsageException;
import org.pocache.experiments.WholeFileRead;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.DataPattern;
import redis.clients.jedis.Jedis;

/**
 * Experiment 14 on the multi-process cluster ({@code scripts/pocache experiment exp14
 * --cluster multiproc}): the read latency of SR, DC1, DC2, OR and POCache at one cache
 * size per run ({@code run}, the cluster started with that cache), the runs then merged
 * ({@code summarize}). The files are placed as the in-process Experiment 14's plan says
 * (block b of file f on DataNode placement[f][b] + 1, pinned by favored nodes and
 * checked), DataNode 1 is shaped by {@code tc} to 1/F, and the strategies are as in
 * {@link CacheStrategies}: SR and OR read stock HDFS (popular files' blocks replicated
 * once more; every block on three DataNodes other than the straggler), DC1 and DC2 keep
 * data blocks in the cluster's redis-server, POCache is the installed drop-in with the
 * Manager's CSAC+LFU. All reads are made by this JVM, a client of the cluster's daemons,
 * and every byte is checked.
 *
 * <pre>
 *   MultiProcessStrategies run --files 100 --reads 500 --block-mib 1 --factor 10 [--listed-within-s 120]
 *       --dir /ex/exp14 --host-format 10.77.%d.2 --straggler-on CMD --straggler-off CMD --json part.json
 *   MultiProcessStrategies summarize --out exp14-mp.json --plot exp14-mp.png --command C part.json...
 * </pre>
 */
public final class MultiProcessStrategies {
  private static final int K = 4;
  private static final int CHUNK = 1 << 20;
  static final String[] NAMES = {"SR", "DC1", "DC2", "OR", "POCache"};

  private MultiProcessStrategies() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || !Arrays.asList("run", "summarize").contains(args[0])) {
      System.err.println("MultiProcessStrategies: run|summarize [options]");
      System.exit(2);
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    if (args[0].equals("summarize")) {
      summarize(rest);
      return;
    }
    Options o;
    int files;
    int reads;
    long block;
    double factor;
    int listedWithin;
    try {
      o = Options.parse(rest, Arrays.asList("files", "reads", "block-mib", "factor", "listed-within-s", "dir",
          "host-format",
          "straggler-on", "straggler-off", "json"), Collections.emptyList());
      for (String name : Arrays.asList("dir", "host-format", "straggler-on", "straggler-off", "json")) {
        if (!o.has(name)) {
          throw new UsageException("--" + name + " is required");
        }
      }
      files = o.intValue("files", 100, 1, 100_000);
      reads = o.intValue("reads", 500, 1, 1_000_000);
      block = (long) o.intValue("block-mib", 1, 1, 1024) << 20;
      factor = o.doubleValue("factor", 10, 1);
      listedWithin = o.intValue("listed-within-s", 120, 0, 3600);
    } catch (UsageException e) {
      System.err.println("MultiProcessStrategies: " + e.getMessage());
      System.exit(2);
      return;
    }
    run(files, reads, block, factor, listedWithin, new Path(o.string("dir", null)), o.string("host-format", null),
        o.string("straggler-on", null), o.string("straggler-off", null), new File(o.string("json", null)),
        System.out);
  }

  static void run(int files, int reads, long block, double factor, int listedWithin, Path dir, String hostFormat,
      String stragglerOn, String stragglerOff, File json, PrintStream out) throws Exception {
    Configuration conf = new HdfsConfiguration();
    conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    long capacity = conf.getLong("dfs.pocache.cache.capacity.bytes", 0);
    int cacheBlocks = (int) (capacity / block);
    String[] redisAt = conf.getTrimmedStrings("dfs.pocache.redis.hosts")[0].split(":");
    Configuration pocacheConf = new HdfsConfiguration(); // the cluster's fs.hdfs.impl: POCache's
    pocacheConf.setBoolean("fs.hdfs.impl.disable.cache", true);
    ExecutorService pool = Executors.newFixedThreadPool(K);
    try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.get(FileSystem.getDefaultUri(conf), conf);
         FileSystem pocache = FileSystem.newInstance(FileSystem.getDefaultUri(pocacheConf), pocacheConf);
         ManagerClient m = ManagerClient.forDefaultFileSystem(conf, 60_000);
         Jedis redis = new Jedis(redisAt[0], Integer.parseInt(redisAt[1]))) {
      if (pocache.getClass() == DistributedFileSystem.class) {
        throw new IOException("the cluster's configuration does not name POCache's FileSystem as fs.hdfs.impl");
      }
      DatanodeInfo[] byNumber = byNumber(fs, hostFormat);
      int dataNodes = byNumber.length - 1;
      Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), dataNodes, reads, 14);
      fs.delete(dir, true);
      MultiProcessClients.evict(m, dir);
      // Placement index d of the plan is DataNode d + 1; the straggler is index 0, DataNode 1.
      Random twiceRandom = new Random(14_200_000);
      Set<Integer> popular = SkewedReads.popular(plan, cacheBlocks);
      out.printf(Locale.ROOT, "cache %d blocks: writing 3 x %d files of %d x %d MiB, placed as planned%n",
          cacheBlocks, files, K, block >> 20);
      Workloads.FileSet r1 = write(fs, new Path(dir, "r1"), plan, 14_100_000, byNumber, (f, b) ->
          new int[] {plan.placement[f][b]});
      Workloads.FileSet sr = write(fs, new Path(dir, "sr"), plan, 14_200_000, byNumber, (f, b) -> {
        int first = plan.placement[f][b];
        return popular.contains(f)
            ? new int[] {first, (first + 1 + twiceRandom.nextInt(dataNodes - 1)) % dataNodes} : new int[] {first};
      });
      Workloads.FileSet or = write(fs, new Path(dir, "or"), plan, 14_300_000, byNumber,
          (f, b) -> CacheStrategies.offStraggler(plan, f, b));
      Workloads.Stragglers st = listedOnly(Collections.singleton(0));
      MultiProcessReads.run(stragglerOn, out);
      Outcome o = new Outcome("exp14-mp-part", "Latency of cache strategies", "", "");
      try {
        boolean listed = MultiProcessClients.awaitListed(fs, m, r1, byNumber[1].getXferAddr(), listedWithin, out);
        o.config("straggler_listed_before_reads", listed);
        Set<String> estimated = Collections.singleton("dn0");
        int warm = 5;
        List<Workloads.Run> runs = new ArrayList<>();
        runs.add(Workloads.replay("SR", null, fs, WholeFileRead.parallelBlockPreads(block, pool), sr, plan.reads,
            warm, st, out));
        for (boolean perBlock : new boolean[] {true, false}) {
          CacheStrategies.DataCache dc = new CacheStrategies.DataCache(perBlock ? CacheStrategies.DataCache.Kind.DC1
              : CacheStrategies.DataCache.Kind.DC2, cacheBlocks, redis, plan, estimated);
          try {
            runs.add(Workloads.replay(perBlock ? "DC1" : "DC2", null, fs, dc.reader(fs, r1, pool), r1, plan.reads,
                warm, st, out));
          } finally {
            dc.clear();
          }
        }
        runs.add(Workloads.replay("OR", null, fs, WholeFileRead.parallelBlockPreads(block, pool), or, plan.reads,
            warm, st, out));
        runs.add(Workloads.replay("POCache", null, pocache, WholeFileRead.positional(), r1, plan.reads, warm, st,
            out));
        for (Workloads.Run run : runs) {
          Map<String, Object> row = o.row();
          row.put("cache_blocks", cacheBlocks);
          row.putAll(run.row());
        }
      } finally {
        MultiProcessReads.run(stragglerOff, out);
        MultiProcessClients.evict(m, dir);
      }
      o.config("cache_blocks", cacheBlocks);
      o.config("data_nodes", dataNodes);
      o.config("files", files);
      o.config("reads", reads);
      o.config("block_bytes", block);
      o.config("factor", factor);
      o.write(json);
      out.println("wrote " + json);
    } finally {
      pool.shutdownNow();
    }
  }

  /** The straggler set for the reads' accounting; the straggler itself is shaped by tc. */
  private static Workloads.Stragglers listedOnly(Set<Integer> slow) {
    return new Workloads.Stragglers() {
      @Override
      public Set<Integer> apply(PaperCluster c, long elapsedMillis) {
        return slow;
      }

      @Override
      public void reset(PaperCluster c) {
      }
    };
  }

  /** The live DataNodes by number (index 0 unused): DataNode i at {@code String.format(hostFormat, i)}. */
  private static DatanodeInfo[] byNumber(DistributedFileSystem fs, String hostFormat) throws IOException {
    DatanodeInfo[] live = fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE);
    DatanodeInfo[] out = new DatanodeInfo[live.length + 1];
    for (DatanodeInfo d : live) {
      boolean found = false;
      for (int i = 1; i <= live.length; i++) {
        if (d.getIpAddr().equals(String.format(Locale.ROOT, hostFormat, i))) {
          out[i] = d;
          found = true;
        }
      }
      if (!found) {
        throw new IOException("live DataNode " + d.getXferAddr() + " is not at " + hostFormat + " for 1.."
            + live.length);
      }
    }
    return out;
  }

  /**
   * The plan's files under {@code dir}, block b of file f on the DataNodes of placement
   * indices {@code replicas(f, b)}: one create or append per block with those DataNodes
   * as favored nodes, then checked (the NameNode may overrule a favored node).
   */
  private static Workloads.FileSet write(DistributedFileSystem fs, Path dir, Workloads.Plan plan, long seedBase,
      DatanodeInfo[] byNumber, java.util.function.BiFunction<Integer, Integer, int[]> replicas) throws IOException {
    fs.mkdirs(dir);
    Workloads.FileSet set = new Workloads.FileSet(dir.toUri().getPath());
    byte[] buf = new byte[CHUNK];
    for (int f = 0; f < plan.files(); f++) {
      Path p = new Path(dir, "f" + f);
      long seed = seedBase + f;
      int blocks = plan.placement[f].length;
      Set<Integer> on = new TreeSet<>();
      List<Set<String>> want = new ArrayList<>();
      for (int b = 0; b < blocks; b++) {
        int[] r = replicas.apply(f, b);
        InetSocketAddress[] favored = new InetSocketAddress[r.length];
        Set<String> where = new TreeSet<>();
        for (int i = 0; i < r.length; i++) {
          DatanodeInfo d = byNumber[r[i] + 1];
          favored[i] = InetSocketAddress.createUnresolved(d.getIpAddr(), d.getXferPort());
          where.add(d.getXferAddr());
          on.add(r[i]);
        }
        want.add(where);
        long start = b * plan.blockSize;
        long end = Math.min(plan.lengths[f], start + plan.blockSize);
        try (FSDataOutputStream os = b == 0
            ? fs.create(p, FsPermission.getFileDefault(), true, CHUNK, (short) r.length, plan.blockSize, null, favored)
            : fs.append(p, EnumSet.of(CreateFlag.APPEND), CHUNK, null, favored)) {
          for (long pos = start; pos < end; pos += CHUNK) {
            int n = (int) Math.min(CHUNK, end - pos);
            DataPattern.fill(seed, pos, buf, 0, n);
            os.write(buf, 0, n);
          }
        }
      }
      awaitPlaced(fs, p, want);
      set.paths.add(p);
      set.seeds.add(seed);
      set.dataNodes.add(on);
    }
    return set;
  }

  /** Waits (at most 30 s: a replica shows once its DataNode reported it) until p's blocks are on {@code want}. */
  private static void awaitPlaced(DistributedFileSystem fs, Path p, List<Set<String>> want) throws IOException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      List<LocatedBlock> blocks = fs.getClient().getLocatedBlocks(p.toUri().getPath(), 0).getLocatedBlocks();
      String wrong = blocks.size() != want.size() ? blocks.size() + " blocks, not " + want.size() : null;
      for (int b = 0; wrong == null && b < blocks.size(); b++) {
        Set<String> got = new TreeSet<>();
        for (DatanodeInfo d : blocks.get(b).getLocations()) {
          got.add(d.getXferAddr());
        }
        if (!got.equals(want.get(b))) {
          wrong = "block " + b + " is on " + got + ", not on " + want.get(b) + " as asked";
        }
      }
      if (wrong == null) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(p + ": " + wrong);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
  }

  /** Merges the runs' JSON (one cache size each) into exp14-mp.json and its figures. */
  private static void summarize(String[] args) throws Exception {
    List<String> parts = new ArrayList<>();
    String outPath = null;
    String plotPath = null;
    String command = "";
    double seconds = 0;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--out":
          outPath = args[++i];
          break;
        case "--plot":
          plotPath = args[++i];
          break;
        case "--command":
          command = args[++i];
          break;
        case "--seconds":
          seconds = Double.parseDouble(args[++i]);
          break;
        default:
          parts.add(args[i]);
      }
    }
    if (outPath == null || plotPath == null || parts.isEmpty()) {
      System.err.println("MultiProcessStrategies summarize --out F.json --plot F.png [--command C] [--seconds S]"
          + " part.json...");
      System.exit(2);
    }
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> runs = new ArrayList<>();
    for (String p : parts) {
      runs.add(json.readTree(new File(p)));
    }
    runs.sort((a, b) -> Integer.compare(a.get("config").get("cache_blocks").asInt(),
        b.get("config").get("cache_blocks").asInt()));
    int[] sizes = new int[runs.size()];
    double[][] mean = new double[NAMES.length][sizes.length];
    double[][] p95 = new double[NAMES.length][sizes.length];
    JsonNode c0 = runs.get(0).get("config");
    Map<String, Object> listed = new LinkedHashMap<>();
    for (int t = 0; t < runs.size(); t++) {
      sizes[t] = runs.get(t).get("config").get("cache_blocks").asInt();
      listed.put(Integer.toString(sizes[t]), runs.get(t).get("config").get("straggler_listed_before_reads"));
    }
    Outcome o = new Outcome("exp14-mp", "Latency of cache strategies",
        "100 four-block files, 2,000 Zipf-0.9 reads, one straggler; SR, DC1, DC2, OR (3-way replication, reads"
            + " from healthy replicas) and POCache at cache sizes 40, 60, 80 blocks",
        String.format(Locale.ROOT, "the multi-process cluster of docs/cluster.md, restarted per cache size: %d"
            + " DataNode JVMs on the same 2 cores as this client; %d four-block files of %d MiB blocks placed as the"
            + " in-process run's plan (favored nodes), %d Zipf-0.9 reads per strategy and size, DataNode 1's egress"
            + " at 1/%s of the others' (tc); cache sizes %s blocks; DC1/DC2 keep data blocks in the cluster's"
            + " redis-server and read them in parallel with the HDFS blocks (as SR and OR do); POCache is the"
            + " drop-in with the Manager's CSAC+LFU", c0.get("data_nodes").asInt(), c0.get("files").asInt(),
            c0.get("block_bytes").asLong() >> 20, c0.get("reads").asInt(), Charts.label(c0.get("factor").asDouble()),
            Arrays.toString(sizes)));
    o.config("straggler_listed_before_reads", listed);
    for (int t = 0; t < runs.size(); t++) {
      for (Iterator<JsonNode> it = runs.get(t).get("rows").elements(); it.hasNext(); ) {
        JsonNode r = it.next();
        int x = Arrays.asList(NAMES).indexOf(r.get("mode").asText());
        mean[x][t] = r.get("mean_ms").asDouble();
        p95[x][t] = r.get("p95_ms").asDouble();
        Map<String, Object> row = o.row();
        row.putAll(json.convertValue(r, Map.class));
      }
    }
    CacheStrategies.summarize(o, sizes, NAMES, mean, p95, new File(plotPath), "Exp 14, multi-process");
    o.put("command", command);
    o.put("seconds", seconds);
    o.put("plot", new File(plotPath).getName());
    o.write(new File(outPath));
    System.out.println("wrote " + outPath + " and " + plotPath);
  }
}
