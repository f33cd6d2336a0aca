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
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.hdfs.datanode.PoCacheDataNodePlugin;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * A soak of the write and read paths: T threads write (overwrite) and read files
 * over P paths through one PoCacheFileSystem for S seconds against a cache of C
 * bytes, sizes drawn from 1 to 4 blocks. Each path is written and read under its own
 * lock, so a read knows which bytes it must see; every read is checked. Prints how
 * many writes kept their parity (cached, not abandoned), reads with wrong bytes,
 * and the Manager's evictions, and writes JSON.
 */
public final class Soak {
  static final String USAGE = String.join("\n",
      "Usage: pocache bench soak [options]",
      "T threads write and read files over P paths through POCache for S seconds.",
      "",
      "  --threads T            worker threads (default 8)",
      "  --paths P              distinct paths (default 30)",
      "  --seconds S            how long (default 300)",
      "  --capacity SIZE        dfs.pocache.cache.capacity.bytes (default 1g)",
      "  --block-size SIZE      HDFS block size (default 4m); files have 1 to 4 blocks' worth of bytes",
      "  --json FILE            also write the results as JSON to FILE",
      "  --help                 this text");

  private Soak() {
  }

  public static void main(String[] args) throws Exception {
    if (System.getProperty("log4j.configuration") == null) {
      System.setProperty("log4j.configuration", "pocache-demo-log4j.properties");
    }
    Options o;
    int threads;
    int paths;
    int seconds;
    long capacity;
    long blockSize;
    try {
      o = Options.parse(args, Arrays.asList("threads", "paths", "seconds", "capacity", "block-size", "json"),
          Arrays.asList("help"));
      if (o.has("help")) {
        System.out.println(USAGE);
        return;
      }
      threads = o.intValue("threads", 8, 1, 256);
      paths = o.intValue("paths", 30, 1, 100_000);
      seconds = o.intValue("seconds", 300, 1, 86_400);
      capacity = o.bytes("capacity", 1L << 30, 1 << 20);
      blockSize = o.bytes("block-size", 4L << 20, 1 << 20);
    } catch (UsageException e) {
      System.err.println("pocache bench soak: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    int managerPort = org.pocache.testkit.FreePorts.pick();
    System.out.printf(Locale.ROOT, "soak: %d threads over %d paths for %d s, cache %d MiB, files of 1 to 4 x %d MiB%n",
        threads, paths, seconds, capacity >> 20, blockSize >> 20);
    AtomicLong writes = new AtomicLong();
    AtomicLong reads = new AtomicLong();
    AtomicLong wrong = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long cachedWrites;
    long abandonedWrites;
    long proactiveOpens;
    long fallbacks;
    String report;
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         MiniHdfs hdfs = MiniHdfs.builder().dataNodes(5)
             .set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port())
             .set(PoCacheConfigKeys.ENABLED_KEY, "true")
             .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
             .set("dfs.datanode.plugins", PoCacheDataNodePlugin.class.getName())
             .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + managerPort)
             .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(capacity))
             .set("dfs.blocksize", Long.toString(blockSize))
             .set("dfs.replication", "1")
             .start()) {
      Configuration conf = hdfs.conf();
      conf.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
      long[] seedOf = new long[paths];
      long[] lengthOf = new long[paths];
      ReentrantReadWriteLock[] locks = new ReentrantReadWriteLock[paths];
      for (int i = 0; i < paths; i++) {
        locks[i] = new ReentrantReadWriteLock();
        seedOf[i] = -1;
      }
      try (FileSystem fs = FileSystem.newInstance(hdfs.fs().getUri(), conf)) {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> workers = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
          long threadSeed = t;
          Thread w = new Thread(() -> {
            Random rnd = new Random(threadSeed);
            byte[] chunk = new byte[1 << 20];
            while (System.nanoTime() < end) {
              int i = rnd.nextInt(paths);
              Path p = new Path("/soak/file-" + i);
              try {
                boolean write = seedOf[i] < 0 || rnd.nextBoolean();
                if (write) {
                  locks[i].writeLock().lock();
                  try {
                    long seed = rnd.nextLong() & Long.MAX_VALUE;
                    long length = (1 + rnd.nextInt(4)) * blockSize - rnd.nextInt((int) Math.min(blockSize, 1 << 20));
                    try (FSDataOutputStream out = fs.create(p, true)) {
                      for (long at = 0; at < length; at += chunk.length) {
                        int n = (int) Math.min(chunk.length, length - at);
                        DataPattern.fill(seed, at, chunk, 0, n);
                        out.write(chunk, 0, n);
                      }
                    }
                    seedOf[i] = seed;
                    lengthOf[i] = length;
                    writes.incrementAndGet();
                  } finally {
                    locks[i].writeLock().unlock();
                  }
                } else {
                  locks[i].readLock().lock();
                  try {
                    byte[] buf = new byte[(int) lengthOf[i]];
                    try (FSDataInputStream in = fs.open(p)) {
                      if (rnd.nextBoolean()) {
                        in.readFully(0, buf);
                      } else {
                        in.readFully(buf);
                      }
                    }
                    if (DataPattern.firstMismatch(seedOf[i], 0, buf, 0, buf.length) >= 0) {
                      wrong.incrementAndGet();
                    }
                    reads.incrementAndGet();
                  } finally {
                    locks[i].readLock().unlock();
                  }
                }
              } catch (IOException e) {
                failed.incrementAndGet();
                errors.add(e);
              }
            }
          }, "soak-" + t);
          workers.add(w);
          w.start();
        }
        for (Thread w : workers) {
          w.join();
        }
        if (!errors.isEmpty()) {
          System.out.println("first failure: " + errors.get(0));
        }
        PoCacheFileSystem pf = (PoCacheFileSystem) fs;
        cachedWrites = pf.cachedWrites();
        abandonedWrites = pf.abandonedWrites();
        proactiveOpens = pf.proactiveOpens();
        fallbacks = pf.fallbacks();
      }
      try (org.pocache.manager.protocol.ManagerClient m = new org.pocache.manager.protocol.ManagerClient(
          new java.net.InetSocketAddress("127.0.0.1", managerPort), hdfs.conf(), 10_000)) {
        report = m.getReport().toString().replace('\n', ' ');
      }
    }
    double kept = writes.get() == 0 ? 0 : (cachedWrites - abandonedWrites) / (double) writes.get();
    System.out.printf(Locale.ROOT, "%d writes (%d cached on write, %d abandoned: %.1f%% kept their parity), %d reads"
        + " (%d proactive opens, %d fallbacks), %d wrong, %d failed%n", writes.get(), cachedWrites, abandonedWrites,
        100 * kept, reads.get(), proactiveOpens, fallbacks, wrong.get(), failed.get());
    System.out.println("Manager: " + report);
    if (o.has("json")) {
      File f = new File(o.string("json", null));
      File parent = f.getAbsoluteFile().getParentFile();
      if (parent != null) {
        Files.createDirectories(parent.toPath());
      }
      Files.write(f.toPath(), String.format(Locale.ROOT, "{\"threads\":%d,\"paths\":%d,\"seconds\":%d,"
          + "\"capacity_bytes\":%d,\"block_bytes\":%d,\"writes\":%d,\"cached_writes\":%d,\"abandoned_writes\":%d,"
          + "\"kept_fraction\":%.4f,\"reads\":%d,\"proactive_opens\":%d,\"fallbacks\":%d,\"wrong_reads\":%d,"
          + "\"failed_operations\":%d}%n", threads, paths, seconds, capacity, blockSize, writes.get(), cachedWrites,
          abandonedWrites, kept, reads.get(), proactiveOpens, fallbacks, wrong.get(), failed.get())
          .getBytes(StandardCharsets.UTF_8));
      System.out.println("wrote " + f);
    }
    System.exit(wrong.get() == 0 && failed.get() == 0 ? 0 : 1);
  }
}
