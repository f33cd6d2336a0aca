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
package org.pocache.hdfs.namenode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.pocache.cache.ParityKey;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.hdfs.datanode.PoCacheDataNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.CachedFiles;
import org.pocache.manager.protocol.ManagerAddresses;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ManagerReport;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.redis.RedisServerFixture;
import org.pocache.testkit.redis.RespClient;

/**
 * An HA pair of NameNodes, each with the Manager plugin, the DataNodes reporting to
 * both, clients on the logical URI configured as an operator would (site keys only):
 * a failover and a fail-back in the middle of concurrent reads and writes through
 * {@link PoCacheFileSystem}. No operation fails, no byte is wrong; the new active
 * Manager serves the parity cached before the failover (same generation, no refill)
 * within 10 s; Redis ends up holding exactly the parity the active Manager's index
 * lists, once, and the used bytes it reports are those values' bytes.
 */
public class TestHaFailover {
  private static final String NS = "minidfs-ns";
  private static final long BLOCK = 256 << 10;
  private static final long FILE = 4 * BLOCK;
  /** The run, seconds: a failover at a third, a fail-back at two thirds. */
  private static final int SECONDS = Integer.getInteger("pocache.ha.seconds", 60);

  private RedisServerFixture redis;
  private MiniDFSCluster cluster;
  private Configuration clientConf;
  private final List<AutoCloseable> closeLast = new ArrayList<>();

  @Before
  public void start() throws Exception {
    redis = RedisServerFixture.builder().start();
    Configuration conf = new Configuration();
    conf.setBoolean(PoCacheConfigKeys.ENABLED_KEY, true);
    conf.set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName());
    conf.set("dfs.datanode.plugins", PoCacheDataNodePlugin.class.getName());
    conf.set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port());
    conf.set(PoCacheConfigKeys.MANAGER_TICK_KEY, "100");
    conf.set(PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY, "500");
    conf.set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(64 << 10));
    conf.set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(64L << 20));
    conf.set(PoCacheConfigKeys.PARITY_SECRET_KEY, "1:" + java.util.Base64.getEncoder().encodeToString(
        "an HA pair's shared secret, 32+ bytes".getBytes(StandardCharsets.US_ASCII)));
    conf.set("dfs.namenode.fs-limits.min-block-size", "0");
    conf.setLong("dfs.blocksize", BLOCK);
    conf.setInt("dfs.replication", 1);
    // One host, two NameNodes: each Manager on its own port, as hdfs-site.xml would say.
    conf.set(ManagerAddresses.keyFor(NS, "nn1"), "127.0.0.1:" + FreePorts.pick());
    conf.set(ManagerAddresses.keyFor(NS, "nn2"), "127.0.0.1:" + FreePorts.pick());
    conf.setInt("dfs.ha.tail-edits.period", 1);
    File base = new File(System.getProperty("test.build.data", "target/test-data"), "ha-" + System.nanoTime());
    cluster = new MiniDFSCluster.Builder(conf, base).nnTopology(MiniDFSNNTopology.simpleHATopology())
        .numDataNodes(5).build();
    cluster.waitActive();
    cluster.transitionToActive(0);
    clientConf = new Configuration(conf);
    HATestUtil.setFailoverConfigurations(cluster, clientConf, NS);
    clientConf.set("fs.defaultFS", "hdfs://" + NS);
    clientConf.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
    clientConf.setBoolean("fs.hdfs.impl.disable.cache", true);
  }

  @After
  public void stop() throws Exception {
    try {
      for (AutoCloseable c : closeLast) {
        c.close();
      }
      if (cluster != null) {
        cluster.shutdown();
      }
    } finally {
      if (redis != null) {
        redis.close();
      }
    }
  }

  @Test
  public void failoverAndFailBackUnderLoad() throws Exception {
    ManagerClient pair = ManagerClient.forDefaultFileSystem(clientConf, 5000);
    closeLast.add(pair);
    assertEquals(2, pair.addresses().size());
    PoCacheFileSystem fs = (PoCacheFileSystem) FileSystem.get(clientConf);
    closeLast.add(fs);
    GenericTestUtils.waitFor(() -> {
      try {
        return pair.getReport().isRedisHealthy();
      } catch (IOException e) {
        return false;
      }
    }, 50, 30_000);

    // Parity cached before the failover, by the write path.
    List<Path> before = new ArrayList<>();
    Map<Path, Long> generations = new ConcurrentHashMap<>();
    for (int i = 0; i < 4; i++) {
      Path p = new Path("/ha/before-" + i);
      write(fs, p, i);
      before.add(p);
    }
    for (Path p : before) {
      awaitParity(pair, p);
      generations.put(p, pair.getDescriptor(p.toUri().getPath()).getParity().getGeneration());
    }
    long fillsBefore = fs.readerFills();

    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong ops = new AtomicLong();
    AtomicLong wrongBytes = new AtomicLong();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicInteger written = new AtomicInteger();
    List<Thread> load = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      final int reader = r;
      load.add(new Thread(() -> {
        byte[] buf = new byte[(int) FILE];
        for (int n = 0; running.get(); n++) {
          int i = (n + reader) % before.size();
          try {
            read(fs, before.get(i), i, buf, wrongBytes);
            ops.incrementAndGet();
          } catch (Throwable t) {
            failures.add(t);
          }
        }
      }, "ha-reader-" + r));
    }
    load.add(new Thread(() -> {
      byte[] buf = new byte[(int) FILE];
      for (int n = 0; running.get(); n++) {
        Path p = new Path("/ha/during-" + n);
        try {
          write(fs, p, 100 + n);
          read(fs, p, 100 + n, buf, wrongBytes);
          written.incrementAndGet();
          ops.incrementAndGet();
        } catch (Throwable t) {
          failures.add(t);
        }
      }
    }, "ha-writer"));
    for (Thread t : load) {
      t.start();
    }

    long third = SECONDS * 1000L / 3;
    Thread.sleep(third);
    cluster.transitionToStandby(0);
    cluster.transitionToActive(1);
    long failoverAt = System.nanoTime();
    double resumeSeconds = awaitProactiveRead(fs, pair, before.get(0), failoverAt);
    for (Path p : before) {
      ParityDescriptor d = pair.getDescriptor(p.toUri().getPath()).getParity();
      assertTrue(p + " has no parity on the new active Manager", d != null);
      assertEquals(p + ": parity cached before the failover, used as it is", (long) generations.get(p),
          d.getGeneration());
    }
    Thread.sleep(Math.max(0, third - (System.nanoTime() - failoverAt) / 1_000_000));
    cluster.transitionToStandby(1);
    cluster.transitionToActive(0);
    long failBackAt = System.nanoTime();
    double resumeBackSeconds = awaitProactiveRead(fs, pair, before.get(1), failBackAt);
    Thread.sleep(Math.max(0, third - (System.nanoTime() - failBackAt) / 1_000_000));
    running.set(false);
    for (Thread t : load) {
      t.join(60_000);
    }
    System.out.printf("HA failover under load: %d operations (%d files written), %d failed, %d wrong bytes;"
        + " proactive reads again %.2f s after the failover, %.2f s after the fail-back; client failovers %d%n",
        ops.get(), written.get(), failures.size(), wrongBytes.get(), resumeSeconds, resumeBackSeconds,
        pair.failovers());
    if (!failures.isEmpty()) {
      throw new AssertionError(failures.size() + " operations failed; the first", failures.get(0));
    }
    assertEquals(0, wrongBytes.get());
    assertTrue("no operation ran", ops.get() > 0);
    assertTrue("proactive reads resumed " + resumeSeconds + " s after the failover", resumeSeconds <= 10);
    assertTrue("proactive reads resumed " + resumeBackSeconds + " s after the fail-back", resumeBackSeconds <= 10);
    for (Path p : before) {
      assertEquals(p + ": the parity of the first active is still the one served", (long) generations.get(p),
          pair.getDescriptor(p.toUri().getPath()).getParity().getGeneration());
    }
    // (Files written across a failover lose their parity on write, so readers fill those.)
    System.out.printf("reader fills during the run: %d%n", fs.readerFills() - fillsBefore);
    ManagerReport report = pair.getReport();
    assertTrue("the active Manager counted hits: " + report.getHits(), report.getHits() > 0);
    // Redis holds each cached file's parity once: exactly the keys of the index's entries,
    // and the used bytes the active Manager reports are theirs.
    try {
      GenericTestUtils.waitFor(() -> {
        try {
          return redisMatchesIndex(pair, false);
        } catch (IOException e) {
          return false;
        }
      }, 100, 20_000);
    } catch (java.util.concurrent.TimeoutException e) {
      // The assertions below say what differs.
    }
    redisMatchesIndex(pair, true);
  }

  /** Whether the parity keys in Redis are exactly those of the cached files' generations. */
  private boolean redisMatchesIndex(ManagerClient pair, boolean print) throws IOException {
    CachedFiles cached = pair.listCached("/", 100_000);
    Set<String> want = new TreeSet<>();
    long bytes = 0;
    for (ParityDescriptor d : cached.getDescriptors()) {
      bytes += d.getParityBytes();
      for (int s = 0; s < d.getStripes(); s++) {
        for (int j = 0; j < d.getSubstripesPerStripe(); j++) {
          for (int r = 0; r < d.getM(); r++) {
            want.add(ParityKey.of(d.getKeyPrefix(), d.getFileId(), d.getGeneration(), s, j, r).toString());
          }
        }
      }
    }
    Set<String> have = new TreeSet<>();
    try (RespClient c = redis.client()) {
      for (Object k : (List<?>) c.call("KEYS", "pocache:*{*")) {
        have.add(new String((byte[]) k, StandardCharsets.UTF_8));
      }
    }
    long used = pair.getReport().getUsedBytes();
    if (print) {
      System.out.printf("Redis: %d parity values for %d cached files (%d expected); the Manager reports %d bytes"
          + " used, its entries hold %d%n", have.size(), cached.getDescriptors().size(), want.size(), used, bytes);
      Set<String> extra = new TreeSet<>(have);
      extra.removeAll(want);
      Set<String> missing = new TreeSet<>(want);
      missing.removeAll(have);
      assertTrue("in Redis, not in the index: " + extra + "; in the index, not in Redis: " + missing,
          extra.isEmpty() && missing.isEmpty());
      assertEquals(bytes, used);
    }
    return want.equals(have) && bytes == used;
  }

  /**
   * Seconds from {@code since} until the active Manager serves {@code p}'s parity again and
   * a read of it through {@code fs} is proactive (reads parity with its data). A client may
   * still hold a descriptor from before the failover, so a proactive read alone does not say
   * that the new active Manager serves.
   */
  private static double awaitProactiveRead(PoCacheFileSystem fs, ManagerClient pair, Path p, long since)
      throws Exception {
    byte[] buf = new byte[(int) FILE];
    while (System.nanoTime() - since < 30_000_000_000L) {
      boolean served;
      try {
        served = pair.getDescriptor(p.toUri().getPath()).hasParity();
      } catch (IOException e) {
        served = false;
      }
      if (served) {
        long was = fs.proactiveOpens();
        try (FSDataInputStream in = fs.open(p)) {
          in.readFully(0, buf);
        }
        if (fs.proactiveOpens() > was) {
          return (System.nanoTime() - since) / 1e9;
        }
      }
      Thread.sleep(50);
    }
    return Double.POSITIVE_INFINITY;
  }

  private static void awaitParity(ManagerClient m, Path p) throws Exception {
    GenericTestUtils.waitFor(() -> {
      try {
        return m.getDescriptor(p.toUri().getPath()).hasParity();
      } catch (IOException e) {
        return false;
      }
    }, 50, 20_000);
  }

  private static void write(FileSystem fs, Path p, long seed) throws IOException {
    byte[] buf = new byte[64 << 10];
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, BLOCK)) {
      for (long pos = 0; pos < FILE; pos += buf.length) {
        DataPattern.fill(seed, pos, buf, 0, buf.length);
        out.write(buf);
      }
    }
  }

  private static void read(FileSystem fs, Path p, long seed, byte[] buf, AtomicLong wrong) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, buf);
    }
    long at = DataPattern.firstMismatch(seed, 0, buf, 0, buf.length);
    if (at >= 0) {
      long n = 0;
      byte[] want = new byte[buf.length];
      DataPattern.fill(seed, 0, want, 0, want.length);
      for (int i = 0; i < buf.length; i++) {
        n += buf[i] != want[i] ? 1 : 0;
      }
      wrong.addAndGet(n);
    }
  }
}
