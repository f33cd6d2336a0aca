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
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedStripedBlock;
import org.pocache.experiments.Options;
import org.pocache.experiments.UsageException;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ManagerReport;

/**
 * Experiment 16 on the multi-process cluster ({@code scripts/pocache experiment exp16
 * --cluster multiproc}): stragglers that come and go at random across the DataNodes at
 * several strengths, as on the paper's shared EC2 machines. Every epoch each DataNode
 * is slow with probability p, its egress shaped by {@code tc} to 1/2, 1/4 or 1/10 of
 * the others' (drawn per epoch, seeded: the same schedule for every mode); nothing
 * tells the Manager, which finds them from heartbeats and clients' reads as they
 * happen. One client JVM (configured by the cluster's XML files) reads the same
 * Zipf-0.9 sequence of four-block files in each mode, checking every byte.
 *
 * <pre>
 *   MultiProcessNatural --files 150 --reads 2000 --block-mib 1 --epoch-s 8 --p 0.1 --dir /ex/exp16
 *       --host-format 10.77.%d.2 --straggler-on 'CMD {dn} {factor}' --straggler-off 'CMD {dn}'
 *       --json F --plot F.png
 * </pre>
 */
public final class MultiProcessNatural {
  private static final int K = 4;
  private static final String POLICY = "RS-4-2-1024k";
  private static final int[] STRENGTHS = {2, 4, 10};

  private MultiProcessNatural() {
  }

  public static void main(String[] args) throws Exception {
    Options o;
    int files;
    int reads;
    long block;
    long epochMillis;
    double p;
    long seed;
    try {
      o = Options.parse(args, Arrays.asList("files", "reads", "block-mib", "epoch-s", "p", "seed", "dir",
          "host-format", "straggler-on", "straggler-off", "json", "plot", "command"), Collections.emptyList());
      for (String name : Arrays.asList("dir", "host-format", "straggler-on", "straggler-off", "json", "plot")) {
        if (!o.has(name)) {
          throw new UsageException("--" + name + " is required");
        }
      }
      files = o.intValue("files", 150, 1, 100_000);
      reads = o.intValue("reads", 2000, 1, 1_000_000);
      block = (long) o.intValue("block-mib", 1, 1, 1024) << 20;
      epochMillis = (long) (o.doubleValue("epoch-s", 8, 0.5) * 1000);
      p = o.doubleValue("p", 0.1, 0);
      if (p > 1) {
        throw new UsageException("--p must be a probability in [0, 1], got " + p);
      }
      seed = o.intValue("seed", 16, 0, Integer.MAX_VALUE);
      for (String name : Arrays.asList("straggler-on", "straggler-off")) {
        if (!o.string(name, "").contains("{dn}")) {
          throw new UsageException("--" + name + " must contain {dn} (the DataNode's number), got '"
              + o.string(name, "") + "'");
        }
      }
      if (!o.string("straggler-on", "").contains("{factor}")) {
        throw new UsageException("--straggler-on must contain {factor}, got '" + o.string("straggler-on", "") + "'");
      }
    } catch (UsageException e) {
      System.err.println("MultiProcessNatural: " + e.getMessage());
      System.exit(2);
      return;
    }
    long t0 = System.nanoTime();
    File plot = new File(o.string("plot", null));
    Schedule schedule = new Schedule(epochMillis, p, seed, o.string("straggler-on", null),
        o.string("straggler-off", null), System.out);
    Outcome out = run(files, reads, block, schedule, new Path(o.string("dir", null)), o.string("host-format", null),
        plot, System.out);
    out.put("command", o.string("command", ""));
    out.put("seconds", (System.nanoTime() - t0) / 1e9);
    out.put("plot", plot.getName());
    File json = new File(o.string("json", null));
    out.write(json);
    System.out.println("wrote " + json + " and " + plot);
  }

  static Outcome run(int files, int reads, long block, Schedule schedule, Path dir, String hostFormat, File plot,
      PrintStream out) throws IOException {
    Configuration conf = new HdfsConfiguration(); // hdfs-site.xml too: the cache's capacity is there
    conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    long capacity = conf.getLong("dfs.pocache.cache.capacity.bytes", 0);
    String[] modes = {"Vanilla", "POCache", "Vanilla (striped)", "POCache (striped)"};
    List<Workloads.Run> runs = new ArrayList<>();
    File work = Files.createTempDirectory("pocache-exp16-mp").toFile();
    Outcome o;
    try (DistributedFileSystem fs = (DistributedFileSystem) org.apache.hadoop.fs.FileSystem.get(
        org.apache.hadoop.fs.FileSystem.getDefaultUri(conf), conf);
         ManagerClient m = ManagerClient.forDefaultFileSystem(conf, 60_000)) {
      DatanodeInfo[] live = fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE);
      Map<String, Integer> numberOf = new LinkedHashMap<>();
      for (int i = 1; i <= live.length; i++) {
        numberOf.put(String.format(Locale.ROOT, hostFormat, i), i);
      }
      for (DatanodeInfo d : live) {
        if (!numberOf.containsKey(d.getIpAddr())) {
          throw new IOException("live DataNode " + d.getXferAddr() + " is not one of " + numberOf.keySet()
              + " (--host-format " + hostFormat + ")");
        }
      }
      schedule.dataNodes = live.length;
      o = new Outcome("exp16-mp", "Natural stragglers",
          "EC2: 28 DataNodes on shared machines, 300 four-block files, 1,000 Zipf-0.9 reads, cache 120 blocks",
          String.format(Locale.ROOT, "the multi-process cluster of docs/cluster.md: %d DataNode JVMs, one client JVM,"
              + " all on the same 2 cores; %d four-block files of %d MiB blocks placed by the NameNode (replication"
              + " 1), %d Zipf-0.9 reads per mode (the same sequence), the Manager's cache %d MiB (%d blocks, %.0f%% of"
              + " the data), emptied before each POCache row; stragglers: %s, by tc on the DataNodes' egress (64 MiB/s"
              + " otherwise), unknown to the Manager; striped: %s", live.length, files, block >> 20, reads,
              capacity >> 20, capacity / block, 100.0 * capacity / (files * K * block), schedule, POLICY));
      Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), live.length, 1, 16);
      fs.delete(dir, true);
      Workloads.FileSet r1 = MultiProcessClients.write(fs, new Path(dir, "r1"), files, block, null, 16_100_000L);
      Workloads.FileSet ec = MultiProcessClients.write(fs, new Path(dir, "ec"), files, block, POLICY, 16_200_000L);
      placeData(fs, r1, numberOf);
      placeData(fs, ec, numberOf);
      out.printf(Locale.ROOT, "wrote %d contiguous and %d striped (%s) files of %d x %d MiB under %s%n", files,
          files, POLICY, K, block >> 20, dir);
      File confFile = new File(work, "cluster.xml");
      try (OutputStream os = new FileOutputStream(confFile)) {
        new HdfsConfiguration().writeXml(os);
      }
      for (int mi = 0; mi < modes.length; mi++) {
        boolean pocache = modes[mi].startsWith("POCache");
        Workloads.FileSet set = modes[mi].endsWith("(striped)") ? ec : r1;
        MultiProcessClients.evict(m, dir);
        schedule.allOff();
        ManagerReport before = m.getReport();
        List<double[]> latencies;
        try {
          // The same reads and the same schedule in every mode: seed 16, started as the client goes.
          latencies = MultiClient.run(work, confFile, set, pocache, 1, reads, plan, 16, schedule::start);
        } finally {
          schedule.stop();
        }
        ManagerReport after = m.getReport();
        double[] ms = latencies.get(0);
        List<double[]> details = MultiClient.details(work, 16, 0);
        // MultiClient.run's sequence for its client 0 (seed * 100 + 0).
        int[] sequence = Workloads.plan(plan.blockSize, plan.lengths, plan.dataNodes, reads, 16 * 100).reads;
        int touching = 0;
        int hits = 0;
        int withParity = 0;
        int[] onSlow = new int[ms.length];
        int[] parities = new int[ms.length];
        for (int i = 0; i < ms.length; i++) {
          Set<Integer> slow = schedule.slowAt((long) details.get(i)[0]).keySet();
          boolean parity = details.get(i)[1] > 0;
          parities[i] = parity ? 1 : 0;
          withParity += parities[i];
          if (!Collections.disjoint(slow, set.dataNodes.get(sequence[i]))) {
            onSlow[i] = 1;
            touching++;
            hits += parity ? 0 : 1;
          }
        }
        Workloads.Run run = new Workloads.Run(modes[mi], ms, touching, hits);
        runs.add(run);
        Map<String, Object> row = o.row();
        row.putAll(run.row());
        row.put("reads_with_parity", withParity);
        row.put("read_starts_ms", details.stream().mapToDouble(d -> d[0]).toArray());
        row.put("read_on_a_straggler", onSlow); // 1: a DataNode holding the file's data was slow as it began
        row.put("read_with_parity", parities);
        row.put("manager_hits", after.getHits() - before.getHits());
        row.put("manager_misses", after.getMisses() - before.getMisses());
        row.put("manager_admissions", after.getAdmissions() - before.getAdmissions());
        row.put("manager_evictions", after.getEvictions() - before.getEvictions());
        row.put("stragglers_applied", schedule.applied());
        out.printf(Locale.ROOT, "  %-18s %5d reads  mean %7.1f  p50 %7.1f  p95 %7.1f  p99 %7.1f ms  %d with parity;"
            + " %d started while a DataNode of theirs was slow, %d of them without parity; Manager: %d admissions%n",
            modes[mi], ms.length, run.stats.mean(), run.stats.percentile(50), run.stats.percentile(95),
            run.stats.percentile(99), withParity, touching, hits, after.getAdmissions() - before.getAdmissions());
      }
      MultiProcessClients.evict(m, dir);
    } finally {
      schedule.allOff();
      org.pocache.testkit.TestDirs.deleteRecursively(work);
    }
    Map<String, Workloads.Run> by = new LinkedHashMap<>();
    for (Workloads.Run r : runs) {
      by.put(r.mode, r);
    }
    o.config("epoch_ms", schedule.epochMillis);
    o.config("p_slow", schedule.p);
    o.config("strengths", STRENGTHS);
    o.headline("contiguous: POCache mean below Vanilla", "64.3%", 64.3, 64.3,
        SkewedReads.below(by.get("POCache").stats.mean(), by.get("Vanilla").stats.mean()), "%");
    o.headline("contiguous: POCache p95 below Vanilla", "63.9%", 63.9, 63.9,
        SkewedReads.below(by.get("POCache").stats.percentile(95), by.get("Vanilla").stats.percentile(95)), "%");
    o.headline("striped: POCache mean below Vanilla", "30.9%", 30.9, 30.9,
        SkewedReads.below(by.get("POCache (striped)").stats.mean(), by.get("Vanilla (striped)").stats.mean()), "%");
    o.headline("striped: POCache p95 below Vanilla", "42.4%", 42.4, 42.4,
        SkewedReads.below(by.get("POCache (striped)").stats.percentile(95),
            by.get("Vanilla (striped)").stats.percentile(95)), "%");
    SkewedReads.statBars(plot, "Exp 16, multi-process: stragglers that come and go", runs);
    List<String> names = new ArrayList<>();
    List<double[]> samples = new ArrayList<>();
    for (Workloads.Run r : runs) {
      names.add(r.mode);
      samples.add(r.ms);
    }
    Charts.cdf(SkewedReads.sibling(plot, "-cdf"), "Exp 16, multi-process: CDF of read latency", "read latency (ms)",
        names, samples);
    return o;
  }

  /**
   * Which DataNodes (by number) hold each file's data: a replicated file's blocks, an
   * erasure-coded file's data internal blocks (parity blocks are not read while the data
   * blocks answer).
   */
  private static void placeData(DistributedFileSystem fs, Workloads.FileSet set, Map<String, Integer> numberOf)
      throws IOException {
    for (int f = 0; f < set.paths.size(); f++) {
      Set<Integer> on = set.dataNodes.get(f);
      on.clear();
      for (LocatedBlock b : fs.getClient().getLocatedBlocks(set.paths.get(f).toUri().getPath(), 0)
          .getLocatedBlocks()) {
        DatanodeInfo[] where = b.getLocations();
        byte[] indices = b instanceof LocatedStripedBlock ? ((LocatedStripedBlock) b).getBlockIndices() : null;
        for (int i = 0; i < where.length; i++) {
          if (indices == null || indices[i] < K) {
            Integer n = numberOf.get(where[i].getIpAddr());
            if (n != null) {
              on.add(n);
            }
          }
        }
      }
    }
  }

  /**
   * The stragglers' schedule: in epoch e, DataNode d (1-based) is slow with probability
   * p at a strength drawn from {@link #STRENGTHS}, from a generator seeded by the seed and
   * e (as the in-process Exp 16's). {@link #start} applies it epoch by epoch on a thread of
   * its own, changing only the DataNodes whose state changes, each by its own command.
   */
  static final class Schedule {
    final long epochMillis;
    final double p;
    private final long seed;
    private final String onTemplate;
    private final String offTemplate;
    private final PrintStream out;
    int dataNodes;
    private final Map<Integer, Integer> current = new TreeMap<>();
    private final List<Map<String, Object>> applied = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean stopped;
    private Thread thread;
    private volatile IOException failure;

    Schedule(long epochMillis, double p, long seed, String onTemplate, String offTemplate, PrintStream out) {
      this.epochMillis = epochMillis;
      this.p = p;
      this.seed = seed;
      this.onTemplate = onTemplate;
      this.offTemplate = offTemplate;
      this.out = out;
    }

    /** The slow DataNodes (number to slowdown factor) {@code elapsedMillis} into a run. */
    Map<Integer, Integer> slowAt(long elapsedMillis) {
      long e = Math.max(0, elapsedMillis) / epochMillis;
      Random r = new Random(seed * 1_000_003L + e);
      Map<Integer, Integer> slow = new TreeMap<>();
      for (int d = 1; d <= dataNodes; d++) {
        if (r.nextDouble() < p) {
          slow.put(d, STRENGTHS[r.nextInt(STRENGTHS.length)]);
        }
      }
      return slow;
    }

    /** Starts applying the schedule from epoch 0, now. */
    synchronized void start() {
      stopped = false;
      failure = null;
      applied.clear();
      long t0 = System.nanoTime();
      CountDownLatch first = new CountDownLatch(1);
      thread = new Thread(() -> {
        try {
          for (long e = 0; !stopped; e++) {
            long at = (System.nanoTime() - t0) / 1_000_000;
            Map<Integer, Integer> want = slowAt(e * epochMillis);
            long took = apply(want);
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("epoch", e);
            a.put("at_ms", at);
            a.put("apply_ms", took);
            a.put("slow", new TreeMap<>(want));
            applied.add(a);
            first.countDown();
            long next = t0 + (e + 1) * epochMillis * 1_000_000L;
            while (!stopped && System.nanoTime() < next) {
              Thread.sleep(Math.max(1, Math.min(100, (next - System.nanoTime()) / 1_000_000)));
            }
          }
        } catch (IOException ex) {
          failure = ex;
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
        } finally {
          first.countDown();
        }
      }, "straggler-schedule");
      thread.setDaemon(true);
      thread.start();
      try {
        first.await(60, TimeUnit.SECONDS); // epoch 0 in place before the client goes
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** Stops the schedule; a failed command fails the run here. */
    void stop() throws IOException {
      Thread t;
      synchronized (this) {
        stopped = true;
        t = thread;
        thread = null;
      }
      if (t != null) {
        try {
          t.join(60_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (failure != null) {
        throw new IOException("the straggler schedule failed", failure);
      }
    }

    /** Every DataNode back to full speed. */
    void allOff() throws IOException {
      apply(Collections.emptyMap());
    }

    List<Map<String, Object>> applied() {
      return new ArrayList<>(applied);
    }

    /** Moves from {@link #current} to {@code want}, each change its own command, at once; ms taken. */
    private long apply(Map<Integer, Integer> want) throws IOException {
      long t = System.nanoTime();
      List<String> commands = new ArrayList<>();
      Set<Integer> all = new HashSet<>(current.keySet());
      all.addAll(want.keySet());
      for (int d : all) {
        Integer now = current.get(d);
        Integer next = want.get(d);
        if (next == null) {
          commands.add(offTemplate.replace("{dn}", Integer.toString(d)));
        } else if (!next.equals(now)) {
          commands.add(onTemplate.replace("{dn}", Integer.toString(d)).replace("{factor}", Integer.toString(next)));
        }
      }
      List<Process> procs = new ArrayList<>();
      for (String c : commands) {
        procs.add(new ProcessBuilder("bash", "-c", c).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.INHERIT).start());
      }
      try {
        for (int i = 0; i < procs.size(); i++) {
          if (procs.get(i).waitFor() != 0) {
            throw new IOException("'" + commands.get(i) + "' exited with " + procs.get(i).exitValue());
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
      current.clear();
      current.putAll(want);
      return (System.nanoTime() - t) / 1_000_000;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "each DataNode slow with p = %.2f per %s s epoch, at 1/2, 1/4 or 1/10", p,
          Charts.label(epochMillis / 1000.0));
    }
  }
}
