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
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.pocache.experiments.BaselineDriver;
import org.pocache.experiments.LatencyStats;
import org.pocache.experiments.WholeFileRead;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.PoCacheConfigKeys;

/**
 * Experiment 5: 4, 8 and 12 clients, each its own JVM (as the paper's clients on
 * separate machines), read the same files concurrently, each its own Zipf-0.9
 * sequence. The cluster runs in this JVM; a client is {@link #main} with the
 * cluster's configuration file, its mode and its reads, and starts reading only when
 * every client is ready (a file barrier), so JVM start-up is not in the latencies.
 */
final class MultiClient {
  private static final long MIB = 1L << 20;
  private static final int K = 4;

  private MultiClient() {
  }

  static Outcome exp5(Scale s, File plot, PrintStream out) throws IOException {
    int dataNodes = s.tiny ? 6 : 14;
    int files = s.tiny ? 8 : 100;
    int readsPerClient = s.tiny ? 4 : 50;
    long block = MIB;
    int[] clients = s.tiny ? new int[] {2} : new int[] {4, 8, 12};
    int cacheBlocks = s.tiny ? 4 : 40;
    Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), dataNodes, 1, 5);
    String policy = BaselineDriver.defaultStripedPolicy(K);
    Outcome o = new Outcome("exp5", "Multi-client reads",
        "4, 8 and 12 clients on 13 machines, 100 four-block files, each client Zipf-0.9 reads, one straggler",
        String.format(Locale.ROOT, "%s clients, each a JVM of its own on the same 2 cores; %d four-block files of %d"
            + " MiB blocks on %d DataNodes, %d Zipf-0.9 reads per client (its own sequence), DataNode 0 at 1/%d of"
            + " %d MiB/s, cache %d blocks; striped: %s", Arrays.toString(clients), files, block >> 20, dataNodes,
            readsPerClient, s.slowdown, s.diskBandwidth >> 20, cacheBlocks, policy));
    String[] modes = {"Vanilla", "POCache", "Vanilla (striped)", "POCache (striped)"};
    double[][] mean = new double[modes.length][clients.length];
    double[][] p95 = new double[modes.length][clients.length];
    File work = Files.createTempDirectory("pocache-exp5").toFile();
    try (PaperCluster c = PaperCluster.builder().dataNodes(dataNodes).k(K)
        .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(cacheBlocks * block)).start()) {
      c.hdfs.setAllBandwidth(s.diskBandwidth);
      Workloads.FileSet r1 = Workloads.writeContiguous(c, "/exp5/r1", plan, Collections.emptySet(), 5_100_000);
      Workloads.FileSet ec = Workloads.writeStriped(c, "/exp5/ec", plan, policy, 5_200_000);
      Workloads.Stragglers st = Workloads.fixed(0, s.diskBandwidth, s.slowdown);
      st.apply(c, 0);
      Workloads.awaitListed(c, plan, r1, Collections.singleton(0), out);
      File conf = new File(work, "cluster.xml");
      try (OutputStream os = new FileOutputStream(conf)) {
        c.hdfs.conf().writeXml(os);
      }
      for (int n = 0; n < clients.length; n++) {
        for (int m = 0; m < modes.length; m++) {
          boolean pocache = modes[m].startsWith("POCache");
          Workloads.FileSet set = modes[m].endsWith("(striped)") ? ec : r1;
          List<double[]> perClient = run(work, conf, set, pocache, clients[n], readsPerClient, plan, m * 1000 + n);
          record(o, clients[n], modes[m], perClient, mean, p95, m, n);
          out.printf(Locale.ROOT, "  %2d clients  %-18s %4d reads  mean %7.1f ms  p95 %7.1f ms%n", clients[n],
              modes[m], perClient.stream().mapToInt(a -> a.length).sum(), mean[m][n], p95[m][n]);
          if (pocache) {
            Workloads.evictAll(c, set.name);
          }
        }
      }
      st.reset(c);
    } finally {
      org.pocache.testkit.TestDirs.deleteRecursively(work);
    }
    summarize(o, clients, modes, mean, p95, plot, "Exp 5");
    return o;
  }

  /**
   * One row of Exp 5: the clients' latencies pooled into {@code mean[mi][n]} and
   * {@code p95[mi][n]}, and the row (clients, mode, mean, p95, every client's latencies)
   * added to {@code o}; returned for what a run adds to it.
   */
  static Map<String, Object> record(Outcome o, int clients, String mode, List<double[]> perClient,
      double[][] mean, double[][] p95, int mi, int n) {
    LatencyStats stats = new LatencyStats(perClient.stream().flatMapToDouble(java.util.Arrays::stream).toArray());
    mean[mi][n] = stats.mean();
    p95[mi][n] = stats.percentile(95);
    Map<String, Object> row = o.row();
    row.put("clients", clients);
    row.put("mode", mode);
    row.put("mean_ms", mean[mi][n]);
    row.put("p95_ms", p95[mi][n]);
    row.put("latencies_ms_per_client", perClient);
    return row;
  }

  /**
   * Exp 5's headlines beside the paper's and its two figures (mean, p95), from the mean
   * and p95 of each mode (Vanilla, POCache, and both striped, in that order) at each
   * client count; shared by the in-process and the multi-process run.
   */
  static void summarize(Outcome o, int[] clients, String[] modes, double[][] mean, double[][] p95, File plot,
      String chart) throws IOException {
    double[] cm = new double[clients.length];
    double[] cp = new double[clients.length];
    double[] sm = new double[clients.length];
    double[] sp = new double[clients.length];
    for (int n = 0; n < clients.length; n++) {
      cm[n] = SkewedReads.below(mean[1][n], mean[0][n]);
      cp[n] = SkewedReads.below(p95[1][n], p95[0][n]);
      sm[n] = SkewedReads.below(mean[3][n], mean[2][n]);
      sp[n] = SkewedReads.below(p95[3][n], p95[2][n]);
    }
    o.headline("contiguous: POCache mean below Vanilla, lowest over client counts", "41.1-57.3%", 41.1, 57.3,
        SkewedReads.min(cm), "%");
    o.headline("contiguous: POCache mean below Vanilla, highest", "41.1-57.3%", 41.1, 57.3, SkewedReads.max(cm), "%");
    o.headline("contiguous: POCache p95 below Vanilla, lowest", "32.6-55.4%", 32.6, 55.4, SkewedReads.min(cp), "%");
    o.headline("contiguous: POCache p95 below Vanilla, highest", "32.6-55.4%", 32.6, 55.4, SkewedReads.max(cp), "%");
    o.headline("striped: POCache mean below Vanilla, lowest", "31.1-34.2%", 31.1, 34.2, SkewedReads.min(sm), "%");
    o.headline("striped: POCache mean below Vanilla, highest", "31.1-34.2%", 31.1, 34.2, SkewedReads.max(sm), "%");
    o.headline("striped: POCache p95 below Vanilla, lowest", "31.7-41.8%", 31.7, 41.8, SkewedReads.min(sp), "%");
    o.headline("striped: POCache p95 below Vanilla, highest", "31.7-41.8%", 31.7, 41.8, SkewedReads.max(sp), "%");
    List<String> groups = new ArrayList<>();
    for (int n : clients) {
      groups.add(n + " clients");
    }
    Charts.bars(plot, chart + ": multi-client reads, mean latency", "mean latency (ms)", groups, Arrays.asList(modes),
        mean, null);
    Charts.bars(SkewedReads.sibling(plot, "-p95"), chart + ": multi-client reads, p95 latency", "p95 latency (ms)",
        groups, Arrays.asList(modes), p95, null);
  }

  /** Starts {@code n} client JVMs, lets them read at once, and returns each one's latencies. */
  static List<double[]> run(File work, File conf, Workloads.FileSet set, boolean pocache, int n, int reads,
      Workloads.Plan plan, long seed) throws IOException {
    return run(work, conf, set, pocache, n, reads, plan, seed, () -> { });
  }

  /**
   * As above; {@code atGo} runs when every client is ready, just before they are let
   * go. Each client also leaves {@link #details} beside its latencies.
   */
  static List<double[]> run(File work, File conf, Workloads.FileSet set, boolean pocache, int n, int reads,
      Workloads.Plan plan, long seed, Runnable atGo) throws IOException {
    File go = new File(work, "go-" + seed);
    List<Process> procs = new ArrayList<>();
    List<File> results = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        // Each client its own Zipf sequence over the same files.
        int[] seq = Workloads.plan(plan.blockSize, plan.lengths, plan.dataNodes, reads, seed * 100 + i).reads;
        File result = new File(work, "client-" + seed + "-" + i + ".txt");
        File ready = new File(work, "ready-" + seed + "-" + i);
        results.add(result);
        List<String> cmd = new ArrayList<>();
        cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
        cmd.add("-Xmx512m");
        cmd.add("-Dlog4j.configuration=pocache-demo-log4j.properties");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(MultiClient.class.getName());
        cmd.add(conf.getPath());
        cmd.add(pocache ? "pocache" : "vanilla");
        cmd.add(ready.getPath());
        cmd.add(go.getPath());
        cmd.add(result.getPath());
        for (int f : seq) {
          cmd.add(set.paths.get(f) + "@" + set.seeds.get(f));
        }
        procs.add(new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(new File(work, "client-" + seed + "-" + i + ".log")).start());
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      for (int i = 0; i < n; i++) {
        File ready = new File(work, "ready-" + seed + "-" + i);
        while (!ready.exists()) {
          if (!procs.get(i).isAlive() || System.nanoTime() > deadline) {
            throw new IOException("client " + i + " did not get ready: " + tail(new File(work, "client-" + seed
                + "-" + i + ".log")));
          }
          sleep(50);
        }
      }
      atGo.run();
      Files.write(go.toPath(), new byte[0]);
      List<double[]> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Process p = procs.get(i);
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
          throw new IOException("client " + i + " failed: " + tail(new File(work, "client-" + seed + "-" + i
              + ".log")));
        }
        List<String> lines = Files.readAllLines(results.get(i).toPath(), StandardCharsets.UTF_8);
        out.add(lines.stream().mapToDouble(Double::parseDouble).toArray());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } finally {
      for (Process p : procs) {
        p.destroyForcibly();
      }
    }
  }

  /**
   * One client: {@code conf.xml vanilla|pocache readyFile goFile resultFile path@seed...}.
   * Reads its first file once untimed, says it is ready, waits for go, then reads the
   * sequence, checks every byte and writes one latency (ms) per line to resultFile, and
   * to resultFile.detail each read's start and whether it had parity ({@link #details}).
   */
  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    conf.addResource(new Path(new File(args[0]).toURI()));
    boolean pocache = args[1].equals("pocache");
    if (pocache) {
      conf.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
    } else {
      conf.set("fs.hdfs.impl", "org.apache.hadoop.hdfs.DistributedFileSystem");
    }
    File ready = new File(args[2]);
    File go = new File(args[3]);
    File result = new File(args[4]);
    List<Path> paths = new ArrayList<>();
    List<Long> seeds = new ArrayList<>();
    for (int i = 5; i < args.length; i++) {
      int at = args[i].lastIndexOf('@');
      paths.add(new Path(args[i].substring(0, at)));
      seeds.add(Long.parseLong(args[i].substring(at + 1)));
    }
    WholeFileRead how = pocache ? WholeFileRead.positional() : WholeFileRead.sequential(1 << 20);
    Map<Long, byte[]> buffers = new LinkedHashMap<>();
    try (FileSystem fs = FileSystem.newInstance(FileSystem.getDefaultUri(conf), conf)) {
      Workloads.readChecked(fs, how, paths.get(0), seeds.get(0), buffers); // class loading, connections
      Files.write(ready.toPath(), new byte[0]);
      while (!go.exists()) {
        sleep(10);
      }
      long go0 = System.nanoTime();
      StringBuilder b = new StringBuilder();
      StringBuilder detail = new StringBuilder();
      for (int i = 0; i < paths.size(); i++) {
        long opens = fs instanceof PoCacheFileSystem ? ((PoCacheFileSystem) fs).proactiveOpens() : 0;
        long t = System.nanoTime();
        Workloads.readChecked(fs, how, paths.get(i), seeds.get(i), buffers);
        long end = System.nanoTime();
        b.append(String.format(Locale.ROOT, "%.3f%n", (end - t) / 1e6));
        boolean parity = fs instanceof PoCacheFileSystem && ((PoCacheFileSystem) fs).proactiveOpens() != opens;
        detail.append(String.format(Locale.ROOT, "%.3f %d%n", (t - go0) / 1e6, parity ? 1 : 0));
      }
      Files.write(result.toPath(), b.toString().getBytes(StandardCharsets.UTF_8));
      Files.write(new File(result.getPath() + ".detail").toPath(), detail.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * Client {@code i}'s reads of the run with {@code seed}, as {@link #run} left them:
   * each read's start (ms after the client was let go) and whether it opened with
   * parity (1) or not (0).
   */
  static List<double[]> details(File work, long seed, int i) throws IOException {
    List<double[]> out = new ArrayList<>();
    for (String line : Files.readAllLines(new File(work, "client-" + seed + "-" + i + ".txt.detail").toPath(),
        StandardCharsets.UTF_8)) {
      String[] f = line.trim().split(" ");
      out.add(new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1])});
    }
    return out;
  }

  private static String tail(File log) {
    try {
      List<String> lines = Files.readAllLines(log.toPath(), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
