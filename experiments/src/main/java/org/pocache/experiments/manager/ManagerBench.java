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
package org.pocache.experiments.manager;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.pocache.cache.ParityProtection;
import org.pocache.csac.ParityFootprint;
import org.pocache.experiments.LatencyStats;
import org.pocache.experiments.Options;
import org.pocache.experiments.UsageException;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.WriteAdmission;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * {@code pocache bench manager}: descriptor lookups against the Manager running in
 * a MiniDFSCluster NameNode (plugin) with a real Redis, from N client threads over
 * Hadoop IPC. Every lookup is the real thing: the NameNode's permission check and
 * block locations, CSAC Query/Update, the index. Half the files have committed
 * descriptors (reservations committed without uploading parity: nothing reads it
 * here). Two phases: closed loop (as fast as the threads can go) and open loop at
 * a fixed total rate, where latency is measured from each request's scheduled
 * start, so a stall is not hidden by the threads waiting it out. The same two phases
 * then call the NameNode's own {@code getBlockLocations} (what every open costs, and
 * what a lookup rides along with), on the same cluster and machine, for each number
 * of client threads asked for.
 */
public final class ManagerBench {
  static final String USAGE = String.join("\n",
      "Usage: pocache bench manager [--threads N[,N...]] [--seconds S] [--warmup S] [--rate R] [--files F]"
          + " [--json FILE]",
      "  --threads N   client threads; a list runs every phase with each (default 8,32)",
      "  --seconds S   measuring time per phase (default 10)",
      "  --warmup S    seconds each target is called, closed loop, before the first measured phase, so that the",
      "                JIT has compiled the RPC paths on both sides (default 10; each phase also has 2 s of its own)",
      "  --rate R      lookups per second, all threads together, for the paced phase (default 10000)",
      "  --files F     files in HDFS, half of them cached (default 200)",
      "  --json FILE   also write {\"results\":[{\"target\",\"phase\",\"threads\",\"lookups\",\"lookups_per_s\","
          + "\"p50_ms\",\"p99_ms\",\"p999_ms\",\"max_ms\",\"hits\",\"errors\"}, ...]}",
      "                (target: manager, or namenode for getBlockLocations)");

  public static void main(String[] args) throws Exception {
    if (System.getProperty("log4j.configuration") == null) {
      System.setProperty("log4j.configuration", "pocache-demo-log4j.properties");
    }
    Options o;
    List<Integer> threadCounts = new ArrayList<>();
    int files;
    double seconds;
    double warmup;
    double rate;
    try {
      o = Options.parse(args, Arrays.asList("threads", "seconds", "warmup", "rate", "files", "json"),
          Arrays.asList("help"));
      if (o.has("help")) {
        System.out.println(USAGE);
        return;
      }
      for (String t : o.string("threads", "8,32").split(",")) {
        int n;
        try {
          n = Integer.parseInt(t.trim());
        } catch (NumberFormatException e) {
          throw new UsageException("--threads takes numbers separated by commas, got '" + t + "'");
        }
        if (n < 1 || n > 256) {
          throw new UsageException("--threads must be in [1, 256], got " + n);
        }
        threadCounts.add(n);
      }
      files = o.intValue("files", 200, 2, 100_000);
      seconds = o.doubleValue("seconds", 10, 0.5);
      warmup = o.doubleValue("warmup", 10, 0);
      rate = o.doubleValue("rate", 10_000, 1);
    } catch (UsageException e) {
      System.err.println("pocache bench manager: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    int port = FreePorts.pick();
    List<String> rows = new ArrayList<>();
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         MiniHdfs hdfs = MiniHdfs.builder().dataNodes(1)
             .set(PoCacheConfigKeys.ENABLED_KEY, "true")
             .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
             .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + port)
             .set(PoCacheConfigKeys.MANAGER_HANDLERS_KEY, System.getProperty("bench.handlers", "8"))
             .set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port())
             .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(64 << 10))
             .set("dfs.namenode.fs-limits.min-block-size", "0")
             .start()) {
      InetSocketAddress addr = new InetSocketAddress("127.0.0.1", port);
      List<String> paths = writeFiles(hdfs, addr, files);
      int cached;
      try (ManagerClient m = new ManagerClient(addr, hdfs.conf(), 10_000)) {
        cached = m.getReport().getFilesCached();
      }
      System.out.printf(Locale.ROOT, "Manager in a MiniDFSCluster NameNode at %s; %d files (%d cached, the rest filled"
          + " by the fill worker on their first lookup); %s client threads; %s RPC handlers; %.0f s warm-up per"
          + " target%n", addr, files, cached, threadCounts, System.getProperty("bench.handlers", "8"), warmup);
      System.out.printf(Locale.ROOT, "%-9s %-12s %7s %9s %13s %9s %9s %9s %9s %8s %7s%n", "target", "phase", "threads",
          "calls", "calls/s", "p50_ms", "p99_ms", "p999_ms", "max_ms", "hits", "errors");
      if (warmup > 0) {
        // The first seconds after start are slower while the JIT compiles Hadoop IPC, protobuf and the
        // lookup on both sides (8 threads: 14.8k lookups/s in the first 8 s after 2 s of calls, 27.8k later).
        for (Target target : Target.values()) {
          run(hdfs, addr, paths, threadCounts.get(0), warmup, 0, target, null);
        }
      }
      for (int threads : threadCounts) {
        for (Target target : Target.values()) {
          run(hdfs, addr, paths, threads, 2, 0, target, null); // this phase's connections
          rows.add(run(hdfs, addr, paths, threads, seconds, 0, target, "closed-loop"));
          rows.add(run(hdfs, addr, paths, threads, seconds, rate, target, "paced"));
        }
      }
      // The Manager's own view (metrics2, as in /jmx): time inside the handler, NameNode reads included.
      javax.management.MBeanServer mbs = java.lang.management.ManagementFactory.getPlatformMBeanServer();
      javax.management.ObjectName name = new javax.management.ObjectName(
          "Hadoop:service=NameNode,name=PoCacheManager");
      System.out.printf(Locale.ROOT, "server side (PoCacheManager metrics): %s lookups, mean %.1f us in the handler%n",
          mbs.getAttribute(name, "GetDescriptorNumOps"), ((Number) mbs.getAttribute(name, "GetDescriptorAvgTime"))
              .doubleValue());
    }
    if (o.has("json")) {
      File f = new File(o.string("json", null));
      File parent = f.getAbsoluteFile().getParentFile();
      if (parent != null) {
        Files.createDirectories(parent.toPath());
      }
      Files.write(f.toPath(), ("{\"results\":[\n  " + String.join(",\n  ", rows) + "\n]}\n")
          .getBytes(StandardCharsets.UTF_8));
      System.out.println("wrote " + f);
    }
  }

  /** Writes {@code n} one-block files; every other one is admitted and committed. */
  private static List<String> writeFiles(MiniHdfs hdfs, InetSocketAddress addr, int n) throws Exception {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      paths.add("/bench/manager/f" + i);
    }
    try (ManagerClient m = new ManagerClient(addr, hdfs.conf(), 10_000)) {
      waitReady(m);
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
    List<java.util.concurrent.Future<?>> done = new ArrayList<>();
    for (int w = 0; w < 8; w++) {
      int first = w;
      done.add(pool.submit(() -> {
        writeSome(hdfs, addr, paths, first, 8);
        return null;
      }));
    }
    for (java.util.concurrent.Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    return paths;
  }

  private static void writeSome(MiniHdfs hdfs, InetSocketAddress addr, List<String> paths, int first, int step)
      throws Exception {
    byte[] data = new byte[64 << 10];
    long block = 256 << 10;
    try (ManagerClient m = new ManagerClient(addr, hdfs.conf(), 10_000)) {
      for (int i = first; i < paths.size(); i += step) {
        String p = paths.get(i);
        FSDataOutputStream out = hdfs.fs().create(new Path(p), true, 4096, (short) 1, block);
        WriteAdmission a = i % 2 == 0 ? m.admitWrite(p, data.length) : null;
        out.write(data);
        out.close();
        if (a != null && a.hasReservation()) {
          ParityDescriptor d = a.getReservation().getParity();
          // No values are uploaded here: a digest table of the right size (empty slots) stands
          // for them, so descriptors are as large as a real file's.
          long stripes = Math.max(1, (data.length + d.getBlockSize() * d.getK() - 1) / (d.getBlockSize() * d.getK()));
          byte[] digests = d.getProtection() == ParityProtection.NONE ? new byte[0]
              : new byte[(int) (stripes * d.getSubstripesPerStripe() * d.getM() * 16)];
          m.commit(a.getReservation().getId(), d.getFileId(), data.length,
              ParityFootprint.parityBytes(data.length, d.getBlockSize(), d.getK(), d.getM()), digests);
        }
      }
    }
  }

  private static void waitReady(ManagerClient m) throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!m.getReport().isRedisHealthy()) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("the Manager did not connect to Redis within 30 s");
      }
      Thread.sleep(50);
    }
  }

  /** What a client thread calls: the Manager's lookup, or the NameNode's block locations. */
  private enum Target {
    MANAGER, NAMENODE
  }

  /** One client thread's connection: its own, as a separate client process would have. */
  private interface Caller extends AutoCloseable {
    /** One call for {@code path}; true on a hit (a descriptor with parity; the NameNode: always). */
    boolean call(String path) throws IOException;

    @Override
    void close() throws IOException;
  }

  private static Caller caller(Target target, MiniHdfs hdfs, InetSocketAddress addr) throws IOException {
    if (target == Target.MANAGER) {
      ManagerClient m = new ManagerClient(addr, hdfs.conf(), 10_000);
      return new Caller() {
        @Override
        public boolean call(String path) throws IOException {
          return m.getDescriptor(path).hasParity();
        }

        @Override
        public void close() {
          m.close();
        }
      };
    }
    org.apache.hadoop.hdfs.DFSClient c = new org.apache.hadoop.hdfs.DFSClient(hdfs.fs().getUri(), hdfs.conf());
    return new Caller() {
      @Override
      public boolean call(String path) throws IOException {
        return c.getNamenode().getBlockLocations(path, 0, Long.MAX_VALUE) != null;
      }

      @Override
      public void close() throws IOException {
        c.close();
      }
    };
  }

  private static String run(MiniHdfs hdfs, InetSocketAddress addr, List<String> paths, int threads, double seconds,
      double rate, Target target, String phase) throws Exception {
    long durationNanos = (long) (seconds * 1e9);
    List<double[]> perThread = new ArrayList<>();
    int[] counts = new int[threads];
    AtomicLong hits = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> ts = new ArrayList<>();
    String user = org.apache.hadoop.security.UserGroupInformation.getCurrentUser().getShortUserName();
    for (int t = 0; t < threads; t++) {
      int capacity = (int) Math.min(50_000_000L, (long) (seconds * (rate > 0 ? rate / threads + 10 : 100_000)) + 16);
      double[] lat = new double[capacity];
      perThread.add(lat);
      int id = t;
      Thread th = new Thread(() -> {
        // One connection per thread, as separate client processes would have (Hadoop IPC
        // shares one connection per user, address and protocol within a JVM).
        org.apache.hadoop.security.UserGroupInformation ugi =
            org.apache.hadoop.security.UserGroupInformation.createRemoteUser(user);
        try (Caller m = ugi.doAs((java.security.PrivilegedExceptionAction<Caller>)
            () -> caller(target, hdfs, addr))) {
          start.await();
          long t0 = System.nanoTime();
          long interval = rate > 0 ? (long) (1e9 * threads / rate) : 0;
          long next = t0 + (interval * id) / threads;
          int n = 0;
          int i = id;
          while (n < lat.length) {
            long now = System.nanoTime();
            if (now - t0 >= durationNanos) {
              break;
            }
            long scheduled = now;
            if (interval > 0) {
              // Park, never spin: spinning client threads would take the 2 cores from the server.
              for (long wait = next - now; wait > 0; wait = next - System.nanoTime()) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
              }
              scheduled = next;
              next += interval;
            }
            try {
              if (m.call(paths.get(i % paths.size()))) {
                hits.incrementAndGet();
              }
            } catch (IOException e) {
              errors.incrementAndGet();
            }
            lat[n++] = (System.nanoTime() - scheduled) / 1e6;
            i += threads;
          }
          counts[id] = n;
        } catch (Exception e) {
          errors.incrementAndGet();
        }
      }, "bench-client-" + t);
      ts.add(th);
      th.start();
    }
    long wall0 = System.nanoTime();
    start.countDown();
    for (Thread th : ts) {
      th.join();
    }
    double wall = (System.nanoTime() - wall0) / 1e9;
    int total = 0;
    for (int c : counts) {
      total += c;
    }
    double[] all = new double[total];
    int at = 0;
    for (int t = 0; t < threads; t++) {
      System.arraycopy(perThread.get(t), 0, all, at, counts[t]);
      at += counts[t];
    }
    if (phase == null) {
      return null;
    }
    LatencyStats s = new LatencyStats(all);
    double perSecond = total / wall;
    String name = target.name().toLowerCase(Locale.ROOT);
    System.out.printf(Locale.ROOT, "%-9s %-12s %7d %9d %13.0f %9.3f %9.3f %9.3f %9.3f %8d %7d%n", name, phase, threads,
        total, perSecond, s.percentile(50), s.percentile(99), s.percentile(99.9), s.percentile(100), hits.get(),
        errors.get());
    return String.format(Locale.ROOT, "{\"target\":\"%s\",\"phase\":\"%s\",\"threads\":%d,\"target_rate\":%s,"
            + "\"lookups\":%d,"
            + "\"lookups_per_s\":%.1f,\"p50_ms\":%.4f,\"p99_ms\":%.4f,\"p999_ms\":%.4f,\"max_ms\":%.4f,\"hits\":%d,"
            + "\"errors\":%d}", name, phase, threads, rate > 0 ? String.format(Locale.ROOT, "%.0f", rate) : "null",
        total, perSecond, s.percentile(50), s.percentile(99), s.percentile(99.9), s.percentile(100), hits.get(),
        errors.get());
  }
}
