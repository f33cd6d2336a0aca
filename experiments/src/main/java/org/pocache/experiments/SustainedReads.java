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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.hdfs.datanode.PoCacheDataNodePlugin;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * Sustained concurrent reads behind a very slow straggler: R reader threads read
 * whole cached files (positional reads, as Spark's Parquet reader and HBase do)
 * through one PoCacheFileSystem for S seconds with every DataNode healthy, then S
 * seconds with DataNode 0 (which holds block 0 of every file) at 1/slowdown of the
 * others' bandwidth. Reads abandoned to such a straggler hold read-pool threads
 * until it answers; this measures whether they starve the reads that follow: the
 * straggler phase's p99 and maximum against the healthy phase's p99, and the peak
 * number of read-pool threads and Redis clients. Every read's bytes are checked.
 */
public final class SustainedReads {
  static final String USAGE = String.join("\n",
      "Usage: pocache bench readers [options]",
      "R threads read whole cached files through POCache for S seconds without a straggler,",
      "then S seconds with one DataNode at 1/slowdown speed; prints latency per phase.",
      "",
      "  --readers R            reader threads (default 8)",
      "  --seconds S            length of each phase (default 60)",
      "  --slowdown X           the straggler serves at disk-bandwidth / X (default 100)",
      "  --files F              cached files, each k blocks (default 8)",
      "  --k N                  data blocks per file (default 4)",
      "  --block-size SIZE      HDFS block size (default 4m)",
      "  --disk-bandwidth SIZE  read bandwidth of every DataNode per second (default 64m)",
      "  --json FILE            also write the results as JSON to FILE",
      "  --help                 this text");

  private SustainedReads() {
  }

  public static void main(String[] args) throws Exception {
    if (System.getProperty("log4j.configuration") == null) {
      System.setProperty("log4j.configuration", "pocache-demo-log4j.properties");
    }
    Options o;
    int readers;
    int seconds;
    double slowdown;
    int files;
    int k;
    long blockSize;
    long bandwidth;
    try {
      o = Options.parse(args, Arrays.asList("readers", "seconds", "slowdown", "files", "k", "block-size",
          "disk-bandwidth", "json"), Arrays.asList("help"));
      if (o.has("help")) {
        System.out.println(USAGE);
        return;
      }
      readers = o.intValue("readers", 8, 1, 256);
      seconds = o.intValue("seconds", 60, 1, 3600);
      slowdown = o.doubleValue("slowdown", 100, 1);
      files = o.intValue("files", 8, 1, 1000);
      k = o.intValue("k", 4, 2, 16);
      blockSize = o.bytes("block-size", 4L << 20, 1 << 20);
      bandwidth = o.bytes("disk-bandwidth", 64L << 20, 1 << 20);
    } catch (UsageException e) {
      System.err.println("pocache bench readers: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    int managerPort = org.pocache.testkit.FreePorts.pick();
    long fileLength = k * blockSize;
    long stragglerBandwidth = Math.max(1, (long) (bandwidth / slowdown));
    System.out.printf(Locale.ROOT, "sustained reads: %d readers, %d files of %d x %s, %d DataNodes at %s/s;"
        + " %d s healthy, then %d s with DataNode 0 at %.2f MiB/s (1/%s)%n", readers, files, k,
        BaselineDriver.size(blockSize), k + 1, BaselineDriver.size(bandwidth), seconds, seconds,
        stragglerBandwidth / (double) (1 << 20), slowdown);
    System.out.println("Keys changed from the defaults: " + (Integer.toString(k).equals(
        PoCacheConfigKeys.CODE_K_DEFAULT) ? "{}" : "{" + PoCacheConfigKeys.CODE_K_KEY + "=" + k + "}"));
    List<String> rows = new ArrayList<>();
    boolean allCorrect;
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         MiniHdfs hdfs = MiniHdfs.builder().dataNodes(k + 1)
             .set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port())
             .set(PoCacheConfigKeys.ENABLED_KEY, "true")
             .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
             .set("dfs.datanode.plugins", PoCacheDataNodePlugin.class.getName())
             .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + managerPort)
             .set(PoCacheConfigKeys.CODE_K_KEY, Integer.toString(k))
             .start()) {
      List<Path> paths = new ArrayList<>();
      for (int f = 0; f < files; f++) {
        Path p = new Path("/bench/readers/file-" + f);
        hdfs.writePinnedFile(p, blockSize, k, f);
        paths.add(p);
      }
      try (ManagerClient manager = new ManagerClient(new java.net.InetSocketAddress("127.0.0.1", managerPort),
          hdfs.conf(), 10_000)) {
        BaselineDriver.awaitParity(manager, paths);
      }
      hdfs.setAllBandwidth(bandwidth);
      Configuration conf = hdfs.conf();
      conf.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
      try (FileSystem fs = FileSystem.newInstance(hdfs.fs().getUri(), conf)) {
        Phase healthy = Phase.run("no straggler", fs, paths, fileLength, readers, seconds, redis);
        hdfs.throttle(0).setBandwidth(stragglerBandwidth);
        Phase slow = Phase.run("straggler 1/" + trim(slowdown), fs, paths, fileLength, readers, seconds, redis);
        hdfs.setAllBandwidth(bandwidth);
        allCorrect = healthy.wrong.get() == 0 && slow.wrong.get() == 0;
        double baseP99 = healthy.stats().percentile(99);
        for (Phase ph : Arrays.asList(healthy, slow)) {
          LatencyStats st = ph.stats();
          System.out.printf(Locale.ROOT, "%-16s %5d reads  p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms"
              + "  (p99 %.2fx, max %.2fx the healthy p99)  busy read threads <= %d, queued <= %d, redis clients <= %d,"
              + " wrong bytes %d%n",
              ph.name, st.count(), st.percentile(50), st.percentile(99), st.percentile(100),
              st.percentile(99) / baseP99, st.percentile(100) / baseP99, ph.peakThreads.get(), ph.peakQueued.get(),
              ph.peakRedisClients.get(), ph.wrong.get());
          rows.add(String.format(Locale.ROOT, "{\"phase\":\"%s\",\"reads\":%d,\"p50_ms\":%.2f,\"p99_ms\":%.2f,"
              + "\"max_ms\":%.2f,\"p99_over_healthy_p99\":%.3f,\"max_over_healthy_p99\":%.3f,"
              + "\"peak_busy_read_threads\":%d,\"peak_queued_read_tasks\":%d,\"peak_redis_clients\":%d,"
              + "\"wrong_reads\":%d}", ph.name, st.count(), st.percentile(50), st.percentile(99),
              st.percentile(100), st.percentile(99) / baseP99, st.percentile(100) / baseP99, ph.peakThreads.get(),
              ph.peakQueued.get(), ph.peakRedisClients.get(), ph.wrong.get()));
        }
        PoCacheFileSystem p = (PoCacheFileSystem) fs;
        System.out.printf("POCache: %d proactive opens, %d pieces left to parity, %d substripes rebuilt, %d"
            + " fallbacks%n", p.proactiveOpens(), p.skippedPieces(), p.decodedSubstripes(), p.fallbacks());
      }
    }
    if (o.has("json")) {
      File f = new File(o.string("json", null));
      File parent = f.getAbsoluteFile().getParentFile();
      if (parent != null) {
        Files.createDirectories(parent.toPath());
      }
      Files.write(f.toPath(), ("{\"config\":{\"readers\":" + readers + ",\"seconds\":" + seconds + ",\"slowdown\":"
          + slowdown + ",\"files\":" + files + ",\"k\":" + k + ",\"block_bytes\":" + blockSize
          + ",\"disk_bandwidth_bytes_per_s\":" + bandwidth + "},\"results\":[\n  " + String.join(",\n  ", rows)
          + "\n]}\n").getBytes(StandardCharsets.UTF_8));
      System.out.println("wrote " + f);
    }
    System.exit(allCorrect ? 0 : 1);
  }

  private static String trim(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  /** One phase: readers reading whole files until the time is up, and what was seen meanwhile. */
  private static final class Phase {
    final String name;
    final List<Double> millis = new ArrayList<>();
    final AtomicLong wrong = new AtomicLong();
    final AtomicInteger peakThreads = new AtomicInteger();
    final AtomicInteger peakQueued = new AtomicInteger();
    final AtomicInteger peakRedisClients = new AtomicInteger();

    private Phase(String name) {
      this.name = name;
    }

    LatencyStats stats() {
      double[] a = new double[millis.size()];
      for (int i = 0; i < a.length; i++) {
        a[i] = millis.get(i);
      }
      return new LatencyStats(a);
    }

    static Phase run(String name, FileSystem fs, List<Path> paths, long fileLength, int readers, int seconds,
        RedisServerFixture redis) throws Exception {
      Phase ph = new Phase(name);
      long end = System.nanoTime() + seconds * 1_000_000_000L;
      List<Thread> threads = new ArrayList<>();
      List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int r = 0; r < readers; r++) {
        Thread t = new Thread(() -> {
          byte[] buf = new byte[(int) fileLength];
          try {
            while (System.nanoTime() < end) {
              int f = ThreadLocalRandom.current().nextInt(paths.size());
              long t0 = System.nanoTime();
              try (FSDataInputStream in = fs.open(paths.get(f))) {
                in.readFully(0, buf);
              }
              double ms = (System.nanoTime() - t0) / 1e6;
              if (DataPattern.firstMismatch(f, 0, buf, 0, buf.length) >= 0) {
                ph.wrong.incrementAndGet();
              }
              synchronized (ph.millis) {
                ph.millis.add(ms);
              }
            }
          } catch (Throwable e) {
            errors.add(e);
          }
        }, "bench-reader-" + r);
        threads.add(t);
        t.start();
      }
      try (org.pocache.testkit.redis.RespClient rc = redis.client()) {
        while (System.nanoTime() < end) {
          ph.peakThreads.accumulateAndGet(((PoCacheFileSystem) fs).readThreadsBusy(), Math::max);
          ph.peakQueued.accumulateAndGet(((PoCacheFileSystem) fs).readTasksQueued(), Math::max);
          String info = rc.callString("INFO", "clients");
          java.util.regex.Matcher m = java.util.regex.Pattern.compile("connected_clients:(\\d+)").matcher(info);
          if (m.find()) {
            ph.peakRedisClients.accumulateAndGet(Integer.parseInt(m.group(1)), Math::max);
          }
          Thread.sleep(250);
        }
      }
      for (Thread t : threads) {
        t.join();
      }
      if (!errors.isEmpty()) {
        throw new IOException(name + ": a read failed", errors.get(0));
      }
      return ph;
    }
  }
}
