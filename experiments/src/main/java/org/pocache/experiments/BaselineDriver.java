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
package org.pocache.experiments;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSHedgedReadMetrics;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.hdfs.datanode.PoCacheDataNodePlugin;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * The straggler problem, reproduced (POCache paper, Experiments 1 and 2): F files of
 * k blocks are read whole on a MiniDFSCluster whose DataNodes all serve at one
 * "disk" bandwidth, first with no straggler and then with one DataNode at 1/s of
 * that bandwidth.
 *
 * <ul>
 *   <li>vanilla / contiguous: sequential read; replication 1, block i pinned to
 *       DataNode i, so the straggler (DataNode 0) holds block 0 of every file;</li>
 *   <li>hr / contiguous: HDFS hedged reads, one pread per block; replication 2 over
 *       k+1 DataNodes (block i on DataNodes i and i+1), so every block has a replica
 *       off the straggler;</li>
 *   <li>pr / contiguous: the k blocks read by k parallel preads;</li>
 *   <li>vanilla / striped: sequential read of an erasure-coded file (HDFS reads the k
 *       data cells of a row in parallel); the straggler is the DataNode holding the
 *       file's first data block.</li>
 * </ul>
 * Every read's bytes are checked against what was written.
 *
 * <p><b>Size.</b> Long because it is a driver: its options, the four baselines and the
 * table; the measuring is in WholeFileRead and LatencyStats.
 */
public final class BaselineDriver {
  static final List<String> VALUED = Arrays.asList("json", "k", "files", "repeats", "write-repeats", "block-size",
      "disk-bandwidth", "slowdown", "hedge-threshold-ms", "hedge-threads", "striped-policy", "seed", "write-size",
      "protection");
  static final List<String> FLAGS = Arrays.asList("help", "hr-default", "writes-only");
  /** HDFS's default dfs.client.hedged.read.threshold.millis. */
  static final long HDFS_DEFAULT_HEDGE_THRESHOLD_MS = 500;

  /**
   * Large enough that the hedged-read pool does not run out in these runs. HDFS
   * 3.1 never interrupts the losing read of a hedge, so abandoned reads of the
   * straggler hold pool threads; a pool of only k threads runs out, and the
   * overflow read runs in the reader's thread, possibly against the straggler
   * (see HedgedReadOpsInCurThread in the demo's output with --hedge-threads 4).
   */
  static final int DEFAULT_HEDGE_THREADS = 16;

  static final String USAGE = String.join("\n",
      "Usage: pocache demo [options]",
      "Reads F files of k blocks on a MiniDFSCluster with and without one straggler DataNode",
      "and prints read latencies per mode (vanilla, hr, pr; striped vanilla).",
      "",
      "  --json FILE              also write the results as JSON to FILE",
      "  --k N                    data blocks per file (default 4)",
      "  --files F                files per layout (default 4)",
      "  --repeats R              reads of each file per row (default 6)",
      "  --write-repeats W        writes of each file per mode in the write comparison (default 12)",
      "  --block-size SIZE        HDFS block size, e.g. 4m (default 4m)",
      "  --disk-bandwidth SIZE    read bandwidth of every DataNode per second, e.g. 64m (default 64m)",
      "  --slowdown S             the straggler serves at disk-bandwidth / S (default 10)",
      "  --hedge-threshold-ms MS  dfs.client.hedged.read.threshold.millis for hr (default 0, as in the paper)",
      "  --hedge-threads N        dfs.client.hedged.read.threadpool.size for hr (default 16)",
      "  --hr-default             also rows hr-default: hedged reads at HDFS's default threshold (500 ms)",
      "  --striped-policy NAME    erasure-coding policy of the striped files (default: RS-3-2-1024k,",
      "                           RS-6-3-1024k or RS-10-4-1024k when k matches, else RS-<k>-2-1024k)",
      "  --seed N                 seed of the file contents (default 1)",
      "  --write-size SIZE        size of each file of the write comparison, e.g. 64m (default 64m; 0: skip it)",
      "  --writes-only            only the write comparison (no reads; write_overhead and its CPU use)",
      "  --protection P           dfs.pocache.parity.protection: privacy, integrity or none (default: the shipped",
      "                           default, integrity without Kerberos)",
      "  --help                   this text");

  /** The parameters of one run. */
  public static final class Config {
    int k = 4;
    int files = 4;
    int repeats = 6;
    int writeRepeats = 12;
    long blockSize = 4L << 20;
    long diskBandwidth = 64L << 20;
    double slowdown = 10;
    long hedgeThresholdMillis = 0;
    boolean hrDefault;
    boolean writesOnly;
    int hedgeThreads;
    String stripedPolicy;
    long seed = 1;
    long writeSize = 64L << 20;
    /** Empty: the shipped default (integrity without Kerberos). */
    String protection = "";
    File json;

    public static Config parse(String[] args) throws UsageException {
      Options o = Options.parse(args, VALUED, FLAGS);
      Config c = new Config();
      if (o.has("help")) {
        throw new HelpRequested();
      }
      c.k = o.intValue("k", c.k, 2, 32);
      c.files = o.intValue("files", c.files, 1, 10_000);
      c.repeats = o.intValue("repeats", c.repeats, 1, 10_000);
      c.writeRepeats = o.intValue("write-repeats", c.writeRepeats, 1, 10_000);
      c.blockSize = o.bytes("block-size", c.blockSize, 1 << 20);
      if (c.blockSize % 512 != 0 || c.blockSize > (1L << 30)) {
        throw new UsageException("--block-size must be a multiple of 512 bytes and at most 1g, got "
            + c.blockSize);
      }
      c.diskBandwidth = o.bytes("disk-bandwidth", c.diskBandwidth, 1 << 20);
      c.slowdown = o.doubleValue("slowdown", c.slowdown, 1);
      c.hedgeThresholdMillis = o.intValue("hedge-threshold-ms", 0, 0, 600_000);
      c.hedgeThreads = o.intValue("hedge-threads", DEFAULT_HEDGE_THREADS, 1, 1024);
      c.hrDefault = o.has("hr-default");
      c.writesOnly = o.has("writes-only");
      c.stripedPolicy = o.string("striped-policy", defaultStripedPolicy(c.k));
      c.seed = o.intValue("seed", 1, Integer.MIN_VALUE, Integer.MAX_VALUE);
      c.writeSize = o.bytes("write-size", c.writeSize, 0);
      if (c.writesOnly && c.writeSize == 0) {
        throw new UsageException("--writes-only needs a --write-size above 0");
      }
      c.protection = o.string("protection", c.protection);
      try {
        if (!c.protection.isEmpty()) {
          org.pocache.cache.ParityProtection.parse("--protection", c.protection);
        }
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
      String json = o.string("json", null);
      c.json = json == null ? null : new File(json);
      return c;
    }

    int parityOfStripedPolicy() throws UsageException {
      String[] parts = stripedPolicy.split("-");
      try {
        if (parts.length == 4 && Integer.parseInt(parts[1]) == k) {
          return Integer.parseInt(parts[2]);
        }
      } catch (NumberFormatException e) {
        // fall through
      }
      throw new UsageException("--striped-policy must look like RS-" + k + "-<m>-<cell>k (k data units"
          + " to match --k " + k + "), got '" + stripedPolicy + "'");
    }
  }

  /** --help: print usage and exit 0. */
  static final class HelpRequested extends UsageException {
    private static final long serialVersionUID = 1L;

    HelpRequested() {
      super("help");
    }
  }

  public static String defaultStripedPolicy(int k) {
    switch (k) {
      case 3:
        return "RS-3-2-1024k";
      case 6:
        return "RS-6-3-1024k";
      case 10:
        return "RS-10-4-1024k";
      default:
        return "RS-" + k + "-2-1024k";
    }
  }

  public static void main(String[] args) {
    if (System.getProperty("log4j.configuration") == null) {
      System.setProperty("log4j.configuration", "pocache-demo-log4j.properties");
    }
    Config c;
    try {
      c = Config.parse(args);
    } catch (HelpRequested h) {
      System.out.println(USAGE);
      return;
    } catch (UsageException e) {
      System.err.println("pocache demo: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    try {
      ResultTable t = run(c, System.out);
      System.exit(t.bytesVerified() ? 0 : 1);
    } catch (UsageException e) {
      System.err.println("pocache demo: " + e.getMessage());
      System.exit(2);
    } catch (Exception e) {
      System.err.println("pocache demo failed: " + e);
      e.printStackTrace();
      System.exit(1);
    }
  }

  /** Runs the whole experiment, printing progress and the table to {@code out}. */
  public static ResultTable run(Config c, PrintStream out) throws Exception {
    int stripedParity = c.parityOfStripedPolicy();
    int dataNodes = Math.max(c.k + 1, c.k + stripedParity);
    long fileLength = c.k * c.blockSize;
    long stragglerBandwidth = Math.max(1, (long) (c.diskBandwidth / c.slowdown));
    ResultTable table = new ResultTable();
    table.config("k", c.k);
    table.config("files", c.files);
    table.config("repeats", c.repeats);
    table.config("write_repeats", c.writeRepeats);
    table.config("block_bytes", c.blockSize);
    table.config("datanodes", dataNodes);
    table.config("disk_bandwidth_bytes_per_s", c.diskBandwidth);
    table.config("straggler_bandwidth_bytes_per_s", stragglerBandwidth);
    table.config("hedge_threshold_ms", c.hedgeThresholdMillis);
    table.config("hedge_threads", c.hedgeThreads);
    table.config("striped_policy", c.stripedPolicy);
    table.config("parity_protection", c.protection.isEmpty() ? "integrity" : c.protection);

    out.printf(Locale.ROOT, "POCache baseline: %d files x %d blocks of %s on %d DataNodes at %s/s each;"
        + " straggler at %.1f MiB/s (1/%s); parity protection %s%n", c.files, c.k, size(c.blockSize), dataNodes,
        size(c.diskBandwidth), stragglerBandwidth / (double) (1 << 20), trim(c.slowdown),
        c.protection.isEmpty() ? "integrity (default)" : c.protection);

    ExecutorService pool = Executors.newFixedThreadPool(c.k);
    int managerPort = org.pocache.testkit.FreePorts.pick();
    // The Manager runs in the NameNode and every DataNode heartbeats its service rate to
    // it, as in a POCache deployment; they do not touch the reads measured here.
    // POCache runs at its shipped defaults; the keys below are the only ones changed
    // (k and protection only when an option asks), and the run prints them.
    Map<String, String> changed = new LinkedHashMap<>();
    if (!Integer.toString(c.k).equals(PoCacheConfigKeys.CODE_K_DEFAULT)) {
      changed.put(PoCacheConfigKeys.CODE_K_KEY, Integer.toString(c.k));
    }
    if (!c.protection.isEmpty()) {
      changed.put(PoCacheConfigKeys.PARITY_PROTECTION_KEY, c.protection);
    }
    // HDFS's own, in both modes alike: a client's close retries completeFile after 400 ms
    // when the DataNode's block report is not in yet, a random +400 ms on single writes.
    changed.put("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
    out.printf("Keys changed from the defaults: %s%n", changed);
    MiniHdfs.Builder cluster = MiniHdfs.builder().dataNodes(dataNodes)
        .set(PoCacheConfigKeys.ENABLED_KEY, "true")
        .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
        .set("dfs.datanode.plugins", PoCacheDataNodePlugin.class.getName())
        .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + managerPort);
    for (Map.Entry<String, String> e : changed.entrySet()) {
      cluster.set(e.getKey(), e.getValue());
    }
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         MiniHdfs hdfs = cluster.set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port())
             .start()) {
      out.printf("redis-server %s on port %d (%s)%n",
          redis.version(), redis.port(), redis.binary().source().name().toLowerCase(Locale.ROOT));

      if (c.writesOnly) {
        Configuration conf = hdfs.conf();
        conf.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
        compareWrites(c, hdfs, redis.pid(), conf, table, out);
        if (c.json != null) {
          table.writeJson(c.json);
          out.println("wrote " + c.json);
        }
        return table;
      }
      List<Path> plain = new ArrayList<>();
      List<Path> hedged = new ArrayList<>();
      List<Path> striped = new ArrayList<>();
      for (int f = 0; f < c.files; f++) {
        Path p = new Path("/baseline/r1/file-" + f);
        hdfs.writePinnedFile(p, c.blockSize, c.k, seedOf(c, "r1", f));
        plain.add(p);
        Path h = new Path("/baseline/r2/file-" + f);
        hdfs.writePinnedFile(h, c.blockSize, fileLength, seedOf(c, "r2", f), b -> new int[] {b, b + 1});
        hedged.add(h);
        Path s = new Path("/baseline/striped/file-" + f);
        hdfs.writeStripedFile(s, c.stripedPolicy, fileLength, seedOf(c, "striped", f));
        striped.add(s);
      }
      out.printf("wrote %d files per layout (contiguous r1, contiguous r2, striped %s)%n%n", c.files,
          c.stripedPolicy);

      // POCache: the Manager's fill worker caches the parity of the contiguous r1 and
      // the striped files (an operator's `pocache admin -prefetch`).
      List<Path> cached = new ArrayList<>(plain);
      cached.addAll(striped);
      try (ManagerClient manager = new ManagerClient(
          new java.net.InetSocketAddress("127.0.0.1", managerPort), hdfs.conf(), 10_000)) {
        awaitParity(manager, cached);
      }
      Configuration pocacheConf = hdfs.conf();
      pocacheConf.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
      if (c.writeSize > 0) {
        // Before any straggler is injected: while the Manager knows one, CSAC admits only
        // files on stragglers (Algorithm 1, line 7), and a new file has no DataNodes yet.
        compareWrites(c, hdfs, redis.pid(), pocacheConf, table, out);
      }
      hdfs.setAllBandwidth(c.diskBandwidth);
      byte[] buf = new byte[(int) fileLength];
      WholeFileRead vanilla = WholeFileRead.sequential(1 << 20);
      List<Integer> firstDataNode = new ArrayList<>();
      for (Path s : striped) {
        firstDataNode.add(hdfs.dataNodesOfBlockGroups(s).get(0)[0]);
      }
      try (FileSystem plainFs = FileSystem.newInstance(hdfs.fs().getUri(), hdfs.conf());
           FileSystem pocacheFs = FileSystem.newInstance(hdfs.fs().getUri(), pocacheConf)) {
        WholeFileRead pr = WholeFileRead.parallelBlockPreads(c.blockSize, pool);
        Mode pocacheRead = new Mode("pocache", pocacheFs, WholeFileRead.positional());
        // Without a straggler, pr and POCache read the same files in turns, so that both see
        // the same machine: rows measured half a minute apart differed by +-3% on this
        // 2-core machine. With one they do not: a read POCache abandons to the straggler
        // would still be running when pr's next read starts.
        measure(table, "contiguous", false, plain, "r1", c, hdfs, buf, f -> 0, new Mode("vanilla", plainFs, vanilla));
        measure(table, "contiguous", false, plain, "r1", c, hdfs, buf, f -> 0, new Mode("pr", plainFs, pr),
            pocacheRead);
        measure(table, "striped", false, striped, "striped", c, hdfs, buf, firstDataNode::get,
            new Mode("vanilla", plainFs, vanilla));
        measure(table, "striped", false, striped, "striped", c, hdfs, buf, firstDataNode::get, pocacheRead);
        measure(table, "contiguous", true, plain, "r1", c, hdfs, buf, f -> 0, new Mode("vanilla", plainFs, vanilla));
        measure(table, "contiguous", true, plain, "r1", c, hdfs, buf, f -> 0, new Mode("pr", plainFs, pr));
        measure(table, "striped", true, striped, "striped", c, hdfs, buf, firstDataNode::get,
            new Mode("vanilla", plainFs, vanilla));
        measure(table, "contiguous", true, plain, "r1", c, hdfs, buf, f -> 0, pocacheRead);
        measure(table, "striped", true, striped, "striped", c, hdfs, buf, firstDataNode::get, pocacheRead);
        table.field("pocache_proactive_opens", ((PoCacheFileSystem) pocacheFs).proactiveOpens());
        table.field("pocache_fallbacks", ((PoCacheFileSystem) pocacheFs).fallbacks());
        table.field("pocache_skipped_pieces", ((PoCacheFileSystem) pocacheFs).skippedPieces());
      }

      // HR comes last: DFSClient's hedged-read pool is static, so once one client in
      // this JVM hedges, every later pread in the JVM is hedged too (HDFS 3.1.4).
      Configuration hedgedConf = hdfs.conf();
      hedgedConf.setInt(HdfsClientConfigKeys.HedgedRead.THREADPOOL_SIZE_KEY, c.hedgeThreads);
      hedgedConf.setLong(HdfsClientConfigKeys.HedgedRead.THRESHOLD_MILLIS_KEY, c.hedgeThresholdMillis);
      try (FileSystem hedgedFs = FileSystem.newInstance(hdfs.fs().getUri(), hedgedConf)) {
        // The counters are JVM-wide and cumulative: report each row's share.
        DFSHedgedReadMetrics counters = ((DistributedFileSystem) hedgedFs).getHedgedReadMetrics();
        for (boolean straggler : new boolean[] {false, true}) {
          long ops = counters.getHedgedReadOps();
          long wins = counters.getHedgedReadWins();
          long inCaller = counters.getHedgedReadOpsInCurThread();
          measure(table, "contiguous", straggler, hedged, "r2", c, hdfs, buf, f -> 0,
              new Mode("hr", hedgedFs, WholeFileRead.blockByBlockPread(c.blockSize)));
          table.hedgedReads(straggler, counters.getHedgedReadOps() - ops,
              counters.getHedgedReadWins() - wins, counters.getHedgedReadOpsInCurThread() - inCaller);
        }
      }
      if (c.hrDefault) {
        // The same hedged reads at HDFS's default threshold: a read hedges only once its
        // first replica has taken that long (the pool is static: the size above holds).
        Configuration defaultConf = hdfs.conf();
        defaultConf.setInt(HdfsClientConfigKeys.HedgedRead.THREADPOOL_SIZE_KEY, c.hedgeThreads);
        defaultConf.setLong(HdfsClientConfigKeys.HedgedRead.THRESHOLD_MILLIS_KEY, HDFS_DEFAULT_HEDGE_THRESHOLD_MS);
        try (FileSystem defaultFs = FileSystem.newInstance(hdfs.fs().getUri(), defaultConf)) {
          for (boolean straggler : new boolean[] {false, true}) {
            measure(table, "contiguous", straggler, hedged, "r2", c, hdfs, buf, f -> 0,
                new Mode("hr-default", defaultFs, WholeFileRead.blockByBlockPread(c.blockSize)));
          }
        }
      }
      // What the Manager made of it: the contiguous layouts' straggler is DataNode 0.
      String injected = hdfs.dataNode(0).getDatanodeId().getXferAddr();
      table.field("straggler_injected", injected);
      // The striped rows throttle the DataNode of each file's first cell instead.
      java.util.Set<String> stripedStragglers = new java.util.TreeSet<>();
      for (int dn : firstDataNode) {
        stripedStragglers.add(hdfs.dataNode(dn).getDatanodeId().getXferAddr());
      }
      table.field("stragglers_injected_striped", new ArrayList<>(stripedStragglers));
      try (ManagerClient manager = new ManagerClient(
          new java.net.InetSocketAddress("127.0.0.1", managerPort), hdfs.conf(), 2000)) {
        ManagerClient.StragglerList detected = manager.getStragglers();
        table.field("stragglers_detected", detected.dataNodes);
        table.field("stragglers_by_heartbeats", detected.byHeartbeats);
        table.field("stragglers_by_client_reads", detected.byClientReads);
        out.printf("straggler injected: %s (striped rows: %s); the Manager (%s) reports stragglers: %s"
            + " (by heartbeats: %s; by client reads: %s)%n", injected, stripedStragglers, detected.detector,
            detected.dataNodes, detected.byHeartbeats, detected.byClientReads);
      } catch (IOException e) {
        table.field("stragglers_detected", new ArrayList<String>());
        out.println("the Manager could not be asked for its straggler list: " + e.getMessage());
      }
    } finally {
      pool.shutdownNow();
    }
    table.sortByStraggler();
    table.print(out);
    out.printf(Locale.ROOT, "(a sequential read of %d blocks, one of them at 1/%s speed, can slow down by at most"
        + " (k-1+s)/k = %.2fx; parallel reads by s = %sx)%n", c.k, trim(c.slowdown),
        (c.k - 1 + c.slowdown) / c.k, trim(c.slowdown));
    if (c.json != null) {
      table.writeJson(c.json);
      out.println("wrote " + c.json);
    }
    return table;
  }

  /**
   * POCache's write cost (paper: 8.18%): the same F files of --write-size written
   * through stock HDFS and through PoCacheFileSystem (admission, incremental
   * encoding, parity uploads, commit), --write-repeats times each in alternating order,
   * after one untimed write each.
   */
  private static void compareWrites(Config c, MiniHdfs hdfs, long redisPid, Configuration pocacheConf,
      ResultTable table, PrintStream out) throws IOException {
    byte[] chunk = new byte[1 << 20];
    int writes = c.files * c.writeRepeats;
    double[] vanillaWrites = new double[writes];
    double[] pocacheWrites = new double[writes];
    // What the timed writes of each mode cost: JVM CPU ms, GC ms, redis-server CPU ms.
    double[] vanillaUse = new double[4];
    double[] pocacheUse = new double[4];
    long cached;
    try (FileSystem plainFs = FileSystem.newInstance(hdfs.fs().getUri(), hdfs.conf());
         FileSystem pocacheFs = FileSystem.newInstance(hdfs.fs().getUri(), pocacheConf)) {
      timeWrite(plainFs, new Path("/baseline/write/warm-vanilla"), c, chunk, redisPid, new double[4]);
      timeWrite(pocacheFs, new Path("/baseline/write/warm-pocache"), c, chunk, redisPid, new double[4]);
      // Single writes on a small shared machine vary by 20% or more: every file is
      // written R times per mode, in alternating order, and the totals compared.
      for (int r = 0; r < c.writeRepeats; r++) {
        for (int f = 0; f < c.files; f++) {
          Path v = new Path("/baseline/write/vanilla-" + r + "-" + f);
          Path p = new Path("/baseline/write/pocache-" + r + "-" + f);
          int w = r * c.files + f;
          if ((r + f) % 2 == 0) {
            vanillaWrites[w] = timeWrite(plainFs, v, c, chunk, redisPid, vanillaUse);
            pocacheWrites[w] = timeWrite(pocacheFs, p, c, chunk, redisPid, pocacheUse);
          } else {
            pocacheWrites[w] = timeWrite(pocacheFs, p, c, chunk, redisPid, pocacheUse);
            vanillaWrites[w] = timeWrite(plainFs, v, c, chunk, redisPid, vanillaUse);
          }
          // Keeps the cluster's disk use to one pair of files. The POCache file goes through
          // POCache, which drops its parity at once: Redis then reuses that memory, as a
          // full cache does when CSAC evicts (see the README on write_overhead).
          plainFs.delete(v, false);
          pocacheFs.delete(p, false);
        }
      }
      cached = ((PoCacheFileSystem) pocacheFs).cachedWrites() - ((PoCacheFileSystem) pocacheFs).abandonedWrites();
    }
    double vanillaMs = 0;
    double pocacheMs = 0;
    for (int w = 0; w < writes; w++) {
      vanillaMs += vanillaWrites[w];
      pocacheMs += pocacheWrites[w];
    }
    double overhead = pocacheMs / vanillaMs;
    table.field("write_overhead", overhead);
    table.field("write_files_cached", cached);
    // Each write's time in file order, so that a run's ratio can be traced to single writes.
    table.field("write_ms_vanilla", vanillaWrites);
    table.field("write_ms_pocache", pocacheWrites);
    // Per file, while the timed writes ran (background work of one write may land in the next).
    String[] use = {"jvm_cpu_ms", "gc_ms", "redis_cpu_ms", "close_ms"};
    for (int i = 0; i < use.length; i++) {
      table.field("write_" + use[i] + "_vanilla", vanillaUse[i] / writes);
      table.field("write_" + use[i] + "_pocache", pocacheUse[i] / writes);
    }
    out.printf(Locale.ROOT, "writes of %d x %s, %d times each: vanilla %.1f ms, pocache %.1f ms per file ->"
        + " write_overhead %.3f (%d of %d pocache writes cached their parity)%n", c.files, size(c.writeSize),
        c.writeRepeats, vanillaMs / writes, pocacheMs / writes, overhead, cached, writes + 1);
    out.printf(Locale.ROOT, "  per file while writing: JVM CPU %.1f / %.1f ms, GC %.1f / %.1f ms, redis-server CPU"
        + " %.1f / %.1f ms, close %.1f / %.1f ms (vanilla / pocache)%n", vanillaUse[0] / writes,
        pocacheUse[0] / writes, vanillaUse[1] / writes, pocacheUse[1] / writes, vanillaUse[2] / writes,
        pocacheUse[2] / writes, vanillaUse[3] / writes, pocacheUse[3] / writes);
  }

  /** One timed write of --write-size bytes; adds its JVM CPU, GC and redis-server CPU to {@code use}. */
  private static double timeWrite(FileSystem fs, Path p, Config c, byte[] chunk, long redisPid, double[] use)
      throws IOException {
    ResourceUse before = ResourceUse.now(redisPid);
    long start = System.nanoTime();
    long closing;
    try (FSDataOutputStream o = fs.create(p, true, 1 << 16, (short) 1, c.blockSize)) {
      for (long pos = 0; pos < c.writeSize; ) {
        int n = (int) Math.min(chunk.length, c.writeSize - pos);
        DataPattern.fill(c.seed, pos, chunk, 0, n);
        o.write(chunk, 0, n);
        pos += n;
      }
      closing = System.nanoTime();
    }
    long end = System.nanoTime();
    double ms = (end - start) / 1e6;
    before.addDifference(ResourceUse.now(redisPid), use);
    use[3] += (end - closing) / 1e6;
    return ms;
  }

  /** Asks the Manager to fill each file's parity and waits until every one is cached. */
  public static void awaitParity(ManagerClient manager, List<Path> files) throws IOException {
    for (Path p : files) {
      manager.prefetch(p.toUri().getPath());
    }
    long deadline = System.currentTimeMillis() + 120_000;
    for (Path p : files) {
      while (!manager.getDescriptor(p.toUri().getPath()).hasParity()) {
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("the Manager did not cache the parity of " + p + " within 120 s");
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
      }
    }
  }

  /** A way of reading files: a row's mode name, the FileSystem and the read pattern. */
  private static final class Mode {
    final String name;
    final FileSystem fs;
    final WholeFileRead how;

    Mode(String name, FileSystem fs, WholeFileRead how) {
      this.name = name;
      this.fs = fs;
      this.how = how;
    }
  }

  /**
   * Reads every file {@code repeats} times in each mode, timing each whole-file read,
   * one row per mode; with several modes they take turns, file by file, in
   * alternating order. With {@code straggler}, DataNode {@code stragglerOf(f)} serves
   * file f at the straggler's bandwidth while it is read.
   */
  private static void measure(ResultTable table, String layout, boolean straggler, List<Path> files,
      String seedTag, Config c, MiniHdfs hdfs, byte[] buf, java.util.function.IntUnaryOperator stragglerOf,
      Mode... modes) throws IOException {
    long stragglerBandwidth = Math.max(1, (long) (c.diskBandwidth / c.slowdown));
    if (!straggler) {
      // One untimed read of every file: class loading, connections and JIT are not the
      // straggler's fault, nor what one mode pays and another does not.
      for (Mode m : modes) {
        for (Path p : files) {
          try (FSDataInputStream in = m.fs.open(p)) {
            m.how.read(in, buf);
          }
        }
      }
    }
    double[][] latencies = new double[modes.length][files.size() * c.repeats];
    long[][] before = new long[modes.length][];
    for (int x = 0; x < modes.length; x++) {
      before[x] = counters(modes[x].fs);
    }
    int n = 0;
    for (int r = 0; r < c.repeats; r++) {
      for (int f = 0; f < files.size(); f++) {
        for (int turn = 0; turn < modes.length; turn++) {
          int x = (r + f) % 2 == 0 ? turn : modes.length - 1 - turn;
          Mode m = modes[x];
          int slow = stragglerOf.applyAsInt(f);
          if (straggler) {
            hdfs.throttle(slow).setBandwidth(stragglerBandwidth);
          }
          Arrays.fill(buf, (byte) 0);
          long start = System.nanoTime();
          try (FSDataInputStream in = m.fs.open(files.get(f))) {
            m.how.read(in, buf);
          } finally {
            if (straggler) {
              hdfs.throttle(slow).setBandwidth(c.diskBandwidth);
            }
          }
          latencies[x][n] = (System.nanoTime() - start) / 1e6;
          long bad = DataPattern.firstMismatch(seedOf(c, seedTag, f), 0, buf, 0, buf.length);
          if (bad >= 0) {
            table.markVerificationFailed();
            System.err.printf("%s %s read of %s returned a wrong byte at offset %d%n", m.name, layout,
                files.get(f), bad);
          }
        }
        n++;
      }
    }
    for (int x = 0; x < modes.length; x++) {
      long[] after = counters(modes[x].fs);
      java.util.Map<String, Long> counters = new java.util.LinkedHashMap<>();
      if (after.length > 0) {
        counters.put("skipped_pieces", after[0] - before[x][0]);
        counters.put("decoded_substripes", after[1] - before[x][1]);
      }
      table.add(modes[x].name, layout, straggler, latencies[x], counters);
    }
  }

  /** A POCache client's pieces skipped and substripes decoded so far; none for another FileSystem. */
  private static long[] counters(FileSystem fs) {
    if (!(fs instanceof PoCacheFileSystem)) {
      return new long[0];
    }
    PoCacheFileSystem p = (PoCacheFileSystem) fs;
    return new long[] {p.skippedPieces(), p.decodedSubstripes()};
  }

  static long seedOf(Config c, String tag, int file) {
    return c.seed * 1_000_003L + tag.hashCode() * 31L + file;
  }

  static String size(long bytes) {
    if (bytes % (1L << 30) == 0) {
      return (bytes >> 30) + " GiB";
    }
    if (bytes % (1L << 20) == 0) {
      return (bytes >> 20) + " MiB";
    }
    if (bytes % 1024 == 0) {
      return (bytes >> 10) + " KiB";
    }
    return bytes + " B";
  }

  private static String trim(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
