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
package org.pocache.hdfs.lines;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.util.ToolRunner;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.hdfs.tools.PoCacheAdmin;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.hdfs.DataNodeThrottle;
import org.pocache.testkit.hdfs.StragglerDatasetFactory;

/**
 * Runs in a JVM of its own on the jars of one Hadoop line (a MiniDFSCluster of that
 * version) with that line's drop-in jar: the NameNode runs the Manager plugin, every
 * DataNode the heartbeat plugin, behind the test harness's throttling dataset. It writes
 * a 4-block file with block i on DataNode i, has the Manager fill its parity, and reads
 * it whole through PoCacheFileSystem three times: healthy; with the DataNode of block 2
 * taking 3 s for every read (a straggler, masked by parity); and with the DataNode of
 * block 1 stopped (replication 1: stock HDFS cannot read the file any more). Given a
 * shaded client of the line ({@code hadoop-client-api} and {@code -runtime}, as Spark
 * bundles them) and the drop-in jar, it also has that client read the file with
 * {@code hdfs dfs -cat} in a JVM of its own while the straggler is slow, and checks that
 * its bytes are exact and that it rebuilt the straggler's block from parity. Prints
 * {@code LINECHECK OK} and the client's counters, or exits 1 naming what went wrong.
 *
 * <p>Only Hadoop APIs that every supported line shares are used here: it is compiled
 * against Hadoop 3.1 and runs on 3.3, 3.4 and 3.5. Usage: {@code LineCheck <redis
 * host:port> <work dir> [<shaded client lib dir> <drop-in jar>]}.
 */
public final class LineCheck {
  private static final int BLOCK = 1 << 20;
  private static final int BLOCKS = 4;

  private LineCheck() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2 && args.length != 4) {
      System.err.println("Usage: LineCheck <redis host:port> <work dir> [<shaded client lib dir> <drop-in jar>]");
      System.exit(2);
    }
    // Not a port-0 bind released again: MiniDFSCluster's own port-0 binds may take it
    // before the Manager does (a CI run found an HTTP server answering at the Manager's port).
    int managerPort = FreePorts.pick();
    Configuration conf = new HdfsConfiguration();
    conf.set("dfs.pocache.enabled", "true");
    conf.set("dfs.namenode.plugins", "org.pocache.hdfs.namenode.PoCacheNameNodePlugin");
    conf.set("dfs.datanode.plugins", "org.pocache.hdfs.datanode.PoCacheDataNodePlugin");
    conf.set("dfs.pocache.manager.address", "127.0.0.1:" + managerPort);
    conf.set("dfs.pocache.redis.hosts", args[0]);
    // Checks of several lines may share one redis-server at once: each keeps to its own keys.
    conf.set("dfs.pocache.redis.key.prefix", System.getProperty("pocache.linecheck.key.prefix", "pocache:"));
    conf.set("dfs.pocache.subblock.bytes", Integer.toString(256 << 10));
    conf.set("dfs.pocache.manager.tick.ms", "100");
    conf.set("dfs.pocache.datanode.heartbeat.interval.ms", "1000");
    conf.setLong("dfs.blocksize", BLOCK);
    StragglerDatasetFactory.install(conf);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, new File(args[1])).numDataNodes(5).build();
    int status = 1;
    try {
      cluster.waitActive();
      DistributedFileSystem dfs = cluster.getFileSystem();
      Path p = new Path("/linecheck/f");
      byte[] data = new byte[BLOCKS * BLOCK];
      new Random(42).nextBytes(data);
      writePinned(cluster, dfs, p, data);
      Configuration client = new Configuration(conf);
      client.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
      client.setBoolean("fs.hdfs.impl.disable.cache", true);
      client.set("fs.defaultFS", dfs.getUri().toString());
      admin(client, "-prefetch", p.toString());
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (!cached(client, p)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the Manager did not fill the parity of " + p + " within 60 s");
        }
        Thread.sleep(100);
      }
      try (FileSystem fs = FileSystem.newInstance(dfs.getUri(), client)) {
        PoCacheFileSystem pfs = (PoCacheFileSystem) fs;
        readAndCheck(fs, p, data, "healthy");
        long decoded = pfs.decodedSubstripes();
        DataNodeThrottle straggler = StragglerDatasetFactory.throttleOf(cluster.getDataNodes().get(2));
        straggler.setDelayPerRead(3000);
        long started = System.nanoTime();
        readAndCheck(fs, p, data, "with the DataNode of block 2 taking 3 s per read");
        long maskedMillis = (System.nanoTime() - started) / 1_000_000;
        straggler.reset();
        long masked = pfs.decodedSubstripes() - decoded;
        System.out.println("straggler read: " + maskedMillis + " ms, " + masked + " substripes rebuilt");
        if (masked < BLOCK / (256 << 10)) {
          throw new IllegalStateException("the straggler's block was not rebuilt from parity: " + masked
              + " substripes decoded");
        }
        if (args.length == 4) {
          // Longer than for the in-process read: the shaded client is a fresh JVM whose first
          // subblocks, slow on a loaded machine, set the deadline it races a late one by (at
          // least the 1 s cold bar, 3x their mean after), and its first parity fetch connects to
          // Redis. With 3 s, on a machine whose two cores were kept busy, the stalled bytes came
          // first in 3 of 5 runs (the read correct, nothing rebuilt); with 20 s, in none of 5.
          straggler.setDelayPerRead(20_000);
          try {
            // The shaded client rebuilds block 2 only if no other piece's DataNode is listed (m = 1):
            // a healthy DataNode the heartbeats listed for a moment would make it wait, rightly.
            String slow = cluster.getDataNodes().get(2).getDatanodeId().getXferAddr();
            long until = System.nanoTime() + 30_000_000_000L;
            while (!othersUnlisted(client, slow) && System.nanoTime() < until) {
              Thread.sleep(100);
            }
            try {
              shadedCat(new File(args[1]), new File(args[2]), new File(args[3]), client, p, data);
            } catch (IllegalStateException e) {
              throw new IllegalStateException(e.getMessage() + "\n(the Manager's straggler list now: "
                  + stragglers(client) + "; the straggler: " + slow + ")", e);
            }
          } finally {
            straggler.reset();
          }
        }
        cluster.stopDataNode(1);
        readAndCheck(fs, p, data, "with the DataNode of block 1 stopped");
        System.out.println("LINECHECK OK proactiveOpens=" + pfs.proactiveOpens() + " readSubstripes="
            + pfs.readSubstripes() + " decodedSubstripes=" + pfs.decodedSubstripes() + " fallbacks="
            + pfs.fallbacks());
        status = pfs.proactiveOpens() == 3 && pfs.decodedSubstripes() >= 8 && pfs.fallbacks() == 0 ? 0 : 1;
        if (status != 0) {
          System.out.println("LINECHECK FAILED: expected 3 proactive opens, at least 8 substripes rebuilt"
              + " (block 2's, then block 1's) and no fallbacks");
        }
      }
    } catch (Exception | LinkageError e) {
      System.out.println("LINECHECK FAILED: " + e);
      e.printStackTrace(System.out);
    } finally {
      cluster.shutdown();
    }
    System.exit(status);
  }

  /** Block b on DataNode b: one append per block, each with that DataNode as its favored node. */
  private static void writePinned(MiniDFSCluster cluster, DistributedFileSystem dfs, Path p, byte[] data)
      throws IOException {
    for (int b = 0; b < BLOCKS; b++) {
      InetSocketAddress[] favored = {
          InetSocketAddress.createUnresolved("127.0.0.1", cluster.getDataNodes().get(b).getXferPort())};
      try (FSDataOutputStream out = b == 0
          ? dfs.create(p, FsPermission.getFileDefault(), true, 4096, (short) 1, BLOCK, null, favored)
          : dfs.append(p, EnumSet.of(CreateFlag.APPEND, CreateFlag.NEW_BLOCK), 4096, null, favored)) {
        out.write(data, b * BLOCK, BLOCK);
      }
    }
    org.apache.hadoop.fs.BlockLocation[] where = dfs.getFileBlockLocations(p, 0, data.length);
    for (int b = 0; b < BLOCKS; b++) {
      String expected = "127.0.0.1:" + cluster.getDataNodes().get(b).getXferPort();
      if (where[b].getNames().length != 1 || !where[b].getNames()[0].equals(expected)) {
        throw new IllegalStateException("block " + b + " is on " + String.join(",", where[b].getNames())
            + ", not " + expected);
      }
    }
  }

  /** The Manager's straggler list, or null if it could not be had. */
  private static java.util.List<String> stragglers(Configuration client) {
    try (org.pocache.manager.protocol.ManagerClient m = new org.pocache.manager.protocol.ManagerClient(
        org.apache.hadoop.net.NetUtils.createSocketAddr(client.get("dfs.pocache.manager.address")), client, 5000)) {
      return m.getStragglers().dataNodes;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Whether the Manager lists no DataNode but {@code straggler} (or cannot say: nothing to wait for then). */
  private static boolean othersUnlisted(Configuration client, String straggler) {
    java.util.List<String> listed = stragglers(client);
    return listed == null || listed.stream().allMatch(straggler::equals);
  }

  /** {@code hdfs dfs -cat p} by a shaded client in a JVM of its own, configured by site files. */
  private static void shadedCat(File work, File lib, File jar, Configuration client, Path p, byte[] data)
      throws Exception {
    File conf = new File(work, "shaded-client-conf");
    conf.mkdirs();
    ChildJvms.siteFile(new File(conf, "core-site.xml"), "fs.defaultFS", client.get("fs.defaultFS"),
        "fs.hdfs.impl", PoCacheFileSystem.class.getName());
    ChildJvms.siteFile(new File(conf, "hdfs-site.xml"), "dfs.pocache.enabled", "true",
        "dfs.pocache.manager.address", client.get("dfs.pocache.manager.address"),
        "dfs.pocache.redis.hosts", client.get("dfs.pocache.redis.hosts"),
        "dfs.pocache.redis.key.prefix", client.get("dfs.pocache.redis.key.prefix"));
    File err = new File(work, "shaded-client.err");
    Process cat = new ProcessBuilder(new File(System.getProperty("java.home"), "bin/java").getPath(),
        "-cp", conf.getAbsolutePath() + File.pathSeparator + lib.getAbsolutePath() + File.separator + "*"
            + File.pathSeparator + jar.getAbsolutePath(),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.log.org.pocache=info",
        "org.apache.hadoop.fs.FsShell", "-cat", p.toString())
        .redirectError(err).start();
    byte[] got;
    try (java.io.InputStream in = cat.getInputStream()) {
      got = ChildJvms.readAll(in);
    }
    if (!cat.waitFor(120, java.util.concurrent.TimeUnit.SECONDS) || cat.exitValue() != 0) {
      throw new IllegalStateException("the shaded client's -cat failed; its log: " + read(err));
    }
    if (!java.util.Arrays.equals(got, data)) {
      throw new IllegalStateException("the shaded client read " + got.length + " bytes that are not the file's");
    }
    String log = read(err);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "POCache client summary: (\\d+) proactive opens served (\\d+) substripes \\((\\d+) rebuilt").matcher(log);
    if (!m.find() || Integer.parseInt(m.group(1)) != 1 || Integer.parseInt(m.group(3)) < 1) {
      throw new IllegalStateException("the shaded client did not read through POCache around the straggler: " + log);
    }
    System.out.println("shaded client: " + data.length + " bytes exact; " + m.group() + ")");
  }

  private static String read(File f) throws IOException {
    return new String(java.nio.file.Files.readAllBytes(f.toPath()), java.nio.charset.StandardCharsets.UTF_8);
  }

  private static void readAndCheck(FileSystem fs, Path p, byte[] data, String when) throws IOException {
    byte[] got = new byte[data.length];
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, got);
    }
    for (int i = 0; i < data.length; i++) {
      if (got[i] != data[i]) {
        throw new IllegalStateException("wrong byte at " + i + " in the read " + when);
      }
    }
    System.out.println("read " + when + ": " + data.length + " bytes exact");
  }

  private static int admin(Configuration conf, String... args) throws Exception {
    return ToolRunner.run(conf, new PoCacheAdmin(conf, System.out), args);
  }

  private static boolean cached(Configuration conf, Path p) throws Exception {
    java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
    try (java.io.PrintStream out = new java.io.PrintStream(text, true, "UTF-8")) {
      ToolRunner.run(conf, new PoCacheAdmin(conf, out), new String[] {"-ls", p.toString()});
    }
    String listing = text.toString("UTF-8");
    return listing.contains("CACHED") && listing.contains(p.toString());
  }
}
