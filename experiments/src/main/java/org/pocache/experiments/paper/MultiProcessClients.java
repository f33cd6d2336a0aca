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
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.pocache.experiments.Options;
import org.pocache.experiments.UsageException;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ManagerReport;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.testkit.DataPattern;

/**
 * Experiment 5 on the multi-process cluster ({@code scripts/pocache experiment exp5
 * --cluster multiproc}): 4, 8 and 12 clients, each a JVM of its own configured by the
 * cluster's XML files, read the same four-block files concurrently, each its own
 * Zipf-0.9 sequence, while DataNode 1 (its own JVM in a network namespace) has its
 * egress shaped by {@code tc} to a tenth. The Manager decides what to cache (CSAC, in
 * the cache the cluster was started with); the cache is emptied before each POCache
 * row. A client is {@link MultiClient#main}: it reads once untimed, waits at a file
 * barrier until every client is ready, then reads its sequence, checking every byte.
 *
 * <pre>
 *   MultiProcessClients --clients 4,8,12 --files 100 --reads 50 --block-mib 1 --dir /ex/exp5
 *       --straggler-host 10.77.1.2 --straggler-on CMD --straggler-off CMD [--straggler-sent CMD]
 *       [--listed-within-s 120] --json F --plot F.png
 * </pre>
 */
public final class MultiProcessClients {
  private static final int K = 4;
  private static final String POLICY = "RS-4-2-1024k";

  private MultiProcessClients() {
  }

  public static void main(String[] args) throws Exception {
    int[] clients;
    int files;
    int reads;
    long block;
    double factor;
    int listedWithin;
    Options o;
    try {
      o = Options.parse(args, Arrays.asList("clients", "files", "reads", "block-mib", "factor", "dir",
          "straggler-host", "straggler-on", "straggler-off", "straggler-sent", "listed-within-s", "json", "plot",
          "command"),
          Collections.emptyList());
      for (String name : Arrays.asList("dir", "straggler-host", "straggler-on", "straggler-off", "json", "plot")) {
        if (!o.has(name)) {
          throw new UsageException("--" + name + " is required");
        }
      }
      clients = counts(o.string("clients", "4,8,12"));
      files = o.intValue("files", 100, 1, 100_000);
      reads = o.intValue("reads", 50, 1, 100_000);
      block = (long) o.intValue("block-mib", 1, 1, 1024) << 20;
      factor = o.doubleValue("factor", 10, 1);
      listedWithin = o.intValue("listed-within-s", 120, 0, 3600);
    } catch (UsageException e) {
      System.err.println("MultiProcessClients: " + e.getMessage());
      System.exit(2);
      return;
    }
    long t0 = System.nanoTime();
    File plot = new File(o.string("plot", null));
    Outcome out = run(clients, files, reads, block, factor, listedWithin, new Path(o.string("dir", null)),
        o.string("straggler-host", null), o.string("straggler-on", null), o.string("straggler-off", null),
        o.string("straggler-sent", null), plot, System.out);
    out.put("command", o.string("command", ""));
    out.put("seconds", (System.nanoTime() - t0) / 1e9);
    out.put("plot", plot.getName());
    File json = new File(o.string("json", null));
    out.write(json);
    System.out.println("wrote " + json + " and " + plot);
  }

  static Outcome run(int[] clients, int files, int reads, long block, double factor, int listedWithin, Path dir,
      String stragglerHost, String stragglerOn, String stragglerOff, String stragglerSent, File plot, PrintStream out)
      throws IOException {
    Configuration conf = new HdfsConfiguration(); // hdfs-site.xml too: the cache's capacity is there
    conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    long capacity = conf.getLong("dfs.pocache.cache.capacity.bytes", 0);
    String[] modes = {"Vanilla", "POCache", "Vanilla (striped)", "POCache (striped)"};
    double[][] mean = new double[modes.length][clients.length];
    double[][] p95 = new double[modes.length][clients.length];
    Outcome o;
    File work = Files.createTempDirectory("pocache-exp5-mp").toFile();
    try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.get(FileSystem.getDefaultUri(conf), conf);
         ManagerClient m = ManagerClient.forDefaultFileSystem(conf, 60_000)) {
      int dataNodes = fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE).length;
      DatanodeInfo straggler = null;
      for (DatanodeInfo d : fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE)) {
        if (d.getIpAddr().equals(stragglerHost) || d.getHostName().equals(stragglerHost)) {
          straggler = d;
        }
      }
      if (straggler == null) {
        throw new IOException("no live DataNode at " + stragglerHost);
      }
      o = new Outcome("exp5-mp", "Multi-client reads",
          "4, 8 and 12 clients on 13 machines, 100 four-block files, each client Zipf-0.9 reads, one straggler",
          String.format(Locale.ROOT, "the multi-process cluster of docs/cluster.md: %s clients, each a JVM of its own"
              + " on the same 2 cores as the cluster's %d DataNode JVMs; %d four-block files of %d MiB blocks placed"
              + " by the NameNode (replication 1), %d Zipf-0.9 reads per client (its own sequence), DataNode 1's"
              + " egress at 1/%s of the others' (tc), the Manager's cache %d MiB (%d blocks), emptied before each"
              + " POCache row; striped: %s", Arrays.toString(clients), dataNodes, files, block >> 20, reads,
              Charts.label(factor), capacity >> 20, capacity / block, POLICY));
      Workloads.Plan plan = Workloads.plan(block, Workloads.uniform(files, K, block), dataNodes, 1, 5);
      fs.delete(dir, true);
      Workloads.FileSet r1 = write(fs, new Path(dir, "r1"), files, block, null, 5_100_000L);
      Workloads.FileSet ec = write(fs, new Path(dir, "ec"), files, block, POLICY, 5_200_000L);
      out.printf(Locale.ROOT, "wrote %d contiguous and %d striped (%s) files of %d x %d MiB under %s%n", files,
          files, POLICY, K, block >> 20, dir);
      evict(m, dir);
      MultiProcessReads.run(stragglerOn, out);
      try {
        boolean listed = awaitListed(fs, m, r1, straggler.getXferAddr(), listedWithin, out);
        o.config("straggler_listed_before_reads", listed);
        File confFile = new File(work, "cluster.xml");
        try (OutputStream os = new FileOutputStream(confFile)) {
          new HdfsConfiguration().writeXml(os);
        }
        for (int n = 0; n < clients.length; n++) {
          for (int mi = 0; mi < modes.length; mi++) {
            boolean pocache = modes[mi].startsWith("POCache");
            Workloads.FileSet set = modes[mi].endsWith("(striped)") ? ec : r1;
            ManagerReport before = m.getReport();
            long sentBefore = sent(stragglerSent);
            List<double[]> perClient = MultiClient.run(work, confFile, set, pocache, clients[n], reads, plan,
                mi * 1000 + n);
            long sentMib = stragglerSent == null ? -1 : (sent(stragglerSent) - sentBefore) >> 20;
            ManagerReport after = m.getReport();
            Map<String, Object> row = MultiClient.record(o, clients[n], modes[mi], perClient, mean, p95, mi, n);
            out.printf(Locale.ROOT, "  %2d clients  %-18s %4d reads  mean %7.1f ms  p95 %7.1f ms  (straggler sent %d"
                + " MiB; Manager: %d hits, %d misses, %d admissions, %d prefetches)%n", clients[n], modes[mi],
                perClient.stream().mapToInt(a -> a.length).sum(), mean[mi][n], p95[mi][n], sentMib,
                after.getHits() - before.getHits(), after.getMisses() - before.getMisses(),
                after.getAdmissions() - before.getAdmissions(), after.getPrefetches() - before.getPrefetches());
            // What the row cost the straggler's link, and what the Manager did meanwhile.
            row.put("straggler_sent_mib", sentMib);
            row.put("manager_hits", after.getHits() - before.getHits());
            row.put("manager_misses", after.getMisses() - before.getMisses());
            row.put("manager_straggler_hits", after.getStragglerHits() - before.getStragglerHits());
            row.put("manager_admissions", after.getAdmissions() - before.getAdmissions());
            row.put("manager_prefetches", after.getPrefetches() - before.getPrefetches());
            row.put("manager_evictions", after.getEvictions() - before.getEvictions());
            if (pocache) {
              row.put("cached_files_after", cachedUnder(m, set.name));
              evict(m, dir);
            }
          }
        }
      } finally {
        MultiProcessReads.run(stragglerOff, out);
      }
    } finally {
      org.pocache.testkit.TestDirs.deleteRecursively(work);
    }
    MultiClient.summarize(o, clients, modes, mean, p95, plot, "Exp 5, multi-process");
    return o;
  }

  /**
   * {@code files} files of four blocks under {@code dir} (striped by {@code policy} if
   * not null), written through stock HDFS, which places them.
   */
  static Workloads.FileSet write(DistributedFileSystem fs, Path dir, int files, long block, String policy,
      long seedBase) throws IOException {
    fs.mkdirs(dir);
    if (policy != null) {
      MultiProcessReads.enablePolicy(fs, policy); // RS-4-2 is not among HDFS's built-in policies: added
      fs.setErasureCodingPolicy(dir, policy);
    }
    Workloads.FileSet set = new Workloads.FileSet(dir.toUri().getPath());
    byte[] buf = new byte[1 << 20];
    for (int f = 0; f < files; f++) {
      Path p = new Path(dir, "f" + f);
      long seed = seedBase + f;
      long length = K * block;
      try (FSDataOutputStream os = policy != null ? fs.create(p, true)
          : fs.create(p, true, buf.length, (short) 1, block)) {
        for (long pos = 0; pos < length; pos += buf.length) {
          int n = (int) Math.min(buf.length, length - pos);
          DataPattern.fill(seed, pos, buf, 0, n);
          os.write(buf, 0, n);
        }
      }
      set.paths.add(p);
      set.seeds.add(seed);
      set.dataNodes.add(new HashSet<>());
    }
    return set;
  }

  /**
   * Reads blocks of every DataNode through stock HDFS, one thread per DataNode reading
   * its blocks over and over, until the Manager lists exactly the straggler, at most
   * {@code seconds}; says how long it took, or that it did not happen (the reads then start with
   * the straggler unlisted, and POCache's clients find it by their own reads). A DataNode
   * times what it serves as the time its socket took the bytes, so a shaped link shows
   * only under a load that keeps its socket full: one read at a time fits in the
   * kernel's buffers and looks fast.
   */
  static boolean awaitListed(DistributedFileSystem fs, ManagerClient m, Workloads.FileSet files,
      String straggler, int seconds, PrintStream out) throws IOException {
    Map<String, List<long[]>> blocksOf = new LinkedHashMap<>();
    for (int f = 0; f < files.paths.size(); f++) {
      for (BlockLocation b : fs.getFileBlockLocations(files.paths.get(f), 0, Long.MAX_VALUE)) {
        for (String name : b.getNames()) {
          blocksOf.computeIfAbsent(name, x -> new ArrayList<>()).add(new long[] {f, b.getOffset(), b.getLength()});
        }
      }
    }
    Set<String> want = new HashSet<>(Arrays.asList(straggler));
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(blocksOf.size());
    List<Future<?>> probes = new ArrayList<>();
    for (List<long[]> blocks : blocksOf.values()) {
      probes.add(pool.submit(() -> {
        byte[] buf = new byte[(int) Math.min(1L << 20, blocks.get(0)[2])];
        for (int i = 0; !stop.get(); i = (i + 1) % blocks.size()) {
          long[] fb = blocks.get(i);
          try (FSDataInputStream in = fs.open(files.paths.get((int) fb[0]))) {
            in.readFully(fb[1], buf, 0, (int) Math.min(buf.length, fb[2]));
          }
        }
        return null;
      }));
    }
    long begin = System.nanoTime();
    try {
      while (true) {
        List<String> listed = m.getStragglers().dataNodes;
        if (new HashSet<>(listed).equals(want)) {
          out.printf(Locale.ROOT, "the Manager lists %s after %.1f s of probe reads%n", straggler,
              (System.nanoTime() - begin) / 1e9);
          return true;
        }
        for (Future<?> p : probes) {
          if (p.isDone()) {
            p.get(); // a failed probe read fails the run
          }
        }
        if (System.nanoTime() - begin > seconds * 1_000_000_000L) {
          out.printf(Locale.ROOT, "the Manager lists %s after %d s of probe reads, not %s; reading anyway%n",
              listed, seconds, straggler);
          return false;
        }
        Thread.sleep(250);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IOException("a probe read failed", e.getCause());
    } finally {
      stop.set(true);
      pool.shutdown();
      try {
        pool.awaitTermination(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The bytes the straggler's link has sent, as {@code command} prints them; -1 without a command. */
  private static long sent(String command) throws IOException {
    if (command == null) {
      return -1;
    }
    Process p = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
    String text;
    try (java.io.InputStream in = p.getInputStream()) {
      text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim();
    }
    try {
      if (p.waitFor() != 0) {
        throw new IOException("'" + command + "' exited with " + p.exitValue() + ": " + text);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IOException("'" + command + "' printed '" + text + "', not a byte count");
    }
  }

  private static int cachedUnder(ManagerClient m, String dir) throws IOException {
    return m.listCached(dir, 100_000).getDescriptors().size();
  }

  static void evict(ManagerClient m, Path dir) throws IOException {
    for (ParityDescriptor d : m.listCached(dir.toUri().getPath(), 100_000).getDescriptors()) {
      m.evict(d.getPath());
    }
  }

  private static int[] counts(String v) throws UsageException {
    String[] parts = v.split(",");
    int[] out = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        out[i] = Integer.parseInt(parts[i].trim());
      } catch (NumberFormatException e) {
        out[i] = 0;
      }
      if (out[i] < 1) {
        throw new UsageException("--clients must be client counts >= 1 separated by commas, got '" + v + "'");
      }
    }
    return out;
  }
}
