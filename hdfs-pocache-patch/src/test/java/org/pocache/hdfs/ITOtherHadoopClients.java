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
package org.pocache.hdfs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.pocache.hdfs.lines.ChildJvms.readAll;
import static org.pocache.hdfs.lines.ChildJvms.siteFile;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * The drop-in jar on the class path of Hadoop clients of other lines than the one it is
 * built against, each in a JVM of its own reading a cached file with {@code hdfs dfs -cat}
 * ({@code FsShell}) while the DataNode of one of its blocks stalls every read:
 * <ul>
 *   <li>the unshaded Hadoop 3.3.6 client (as the {@code hadoop} CLI and MapReduce tasks of
 *       a 3.3 cluster use it) reads through POCache and rebuilds the stalled block from
 *       parity ({@code LocatedBlock.getLocations()} changed its return type in 3.3);</li>
 *   <li>the shaded 3.3.6 and 3.4.1 clients (as Spark bundles them), which this jar does not
 *       support, read the file as plain HDFS: the exact bytes, exit status 0, a WARN that
 *       names the drop-in jar as the cause.</li>
 * </ul>
 * With the drop-in for Hadoop 3.3 and later ({@code dropin-hadoop-3.3}) instead, the shaded
 * 3.3.6, 3.4.1 and 3.5.0 clients and the unshaded 3.3.6 one all read through POCache and
 * rebuild the stalled block. The clients' jars come from the {@code hadoop-clients}
 * modules ({@code target/lib}).
 */
public class ITOtherHadoopClients {
  private static final File JAR = new File(System.getProperty("pocache.dropin.dir", "target"),
      System.getProperty("pocache.dropin.name", "hdfs-pocache-patch-0.1.0-SNAPSHOT-dropin.jar"));
  private static final File JAR33 = new File(System.getProperty("pocache.dropin33",
      "../dropin-hadoop-3.3/target/hdfs-pocache-patch-hadoop-3.3-0.1.0-SNAPSHOT-dropin.jar"));
  private static final File CLIENTS = new File(System.getProperty("pocache.hadoop.clients", "../hadoop-clients"));
  private static final long BLOCK = 1 << 20;
  private static final int SUBBLOCK = 256 << 10;
  private static final Pattern SUMMARY =
      Pattern.compile("POCache client summary: (\\d+) proactive opens served (\\d+) substripes \\((\\d+) rebuilt");

  private static RedisServerFixture redis;
  private static MiniHdfs hdfs;
  private static ManagerClient manager;
  private static int managerPort;
  private static File logConfig;

  @BeforeClass
  public static void start() throws Exception {
    managerPort = FreePorts.pick();
    redis = RedisServerFixture.builder().start();
    hdfs = MiniHdfs.builder().dataNodes(4)
        .set(PoCacheConfigKeys.ENABLED_KEY, "true")
        .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
        .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + managerPort)
        .set(PoCacheConfigKeys.MANAGER_TICK_KEY, "100")
        .set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port())
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(SUBBLOCK))
        .start();
    manager = new ManagerClient(new InetSocketAddress("127.0.0.1", managerPort), hdfs.conf(), 5000);
    GenericTestUtils.waitFor(() -> {
      try {
        return manager.getReport().isRedisHealthy();
      } catch (Exception e) {
        return false;
      }
    }, 50, 10_000);
    logConfig = new File(System.getProperty("java.io.tmpdir"), "other-clients-log4j.properties");
    Files.write(logConfig.toPath(), Arrays.asList(
        "log4j.rootLogger=WARN, err",
        "log4j.logger.org.pocache=INFO",
        "log4j.appender.err=org.apache.log4j.ConsoleAppender",
        "log4j.appender.err.target=System.err",
        "log4j.appender.err.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.err.layout.ConversionPattern=%p %c{1}: %m%n"), StandardCharsets.UTF_8);
  }

  @AfterClass
  public static void stop() throws Exception {
    if (manager != null) {
      manager.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  public void hadoop33ReadsThroughPoCacheAndMasksAStalledDataNode() throws Exception {
    Path p = cachedFile("/other/h33", 33);
    Result r = catWithStall("hadoop-3.3", JAR, p);
    assertFileBytes("bytes read by the 3.3.6 client", 33, r.out);
    Matcher m = SUMMARY.matcher(r.err);
    assertTrue("no POCache client summary from the 3.3.6 client:\n" + r.err, m.find());
    assertEquals("proactive opens:\n" + r.err, 1, Integer.parseInt(m.group(1)));
    assertTrue("nothing rebuilt from parity around the stalled DataNode:\n" + r.err, Integer.parseInt(m.group(3)) >= 1);
  }

  @Test
  public void hadoop33JarServesTheUnshaded33Client() throws Exception {
    assertMasked("hadoop-3.3", 41);
  }

  @Test
  public void hadoop33JarServesTheShaded33Client() throws Exception {
    assertMasked("hadoop-3.3-shaded", 42);
  }

  @Test
  public void hadoop33JarServesTheShaded34Client() throws Exception {
    assertMasked("hadoop-3.4-shaded", 43);
  }

  @Test
  public void hadoop33JarServesTheShaded35Client() throws Exception {
    assertMasked("hadoop-3.5-shaded", 44);
  }

  /** Client {@code line} with the Hadoop 3.3 drop-in reads through POCache and rebuilds the stalled block. */
  private static void assertMasked(String line, long seed) throws Exception {
    assertTrue("no Hadoop 3.3 drop-in jar at " + JAR33, JAR33.isFile());
    Path p = cachedFile("/other/j33-" + line, seed);
    Result r = catWithStall(line, JAR33, p);
    assertFileBytes("bytes read by the " + line + " client with the 3.3 jar", seed, r.out);
    Matcher m = SUMMARY.matcher(r.err);
    assertTrue("no POCache client summary from the " + line + " client:\n" + r.err, m.find());
    System.out.println(line + " client, Hadoop 3.3 jar: " + m.group(0) + ")");
    assertEquals("proactive opens:\n" + r.err, 1, Integer.parseInt(m.group(1)));
    assertTrue("nothing rebuilt from parity around the stalled DataNode:\n" + r.err,
        Integer.parseInt(m.group(3)) >= 1);
  }

  @Test
  public void shadedHadoop33ClientReadsAsPlainHdfs() throws Exception {
    Path p = cachedFile("/other/h33s", 34);
    Result r = catWithStall("hadoop-3.3-shaded", JAR, p);
    assertFileBytes("bytes read by the shaded 3.3.6 client", 34, r.out);
    assertTrue("no WARN naming the drop-in jar:\n" + r.err,
        r.err.contains("WARN") && r.err.contains("drop-in jar built for this Hadoop line"));
  }

  @Test
  public void shadedHadoop34ClientReadsAsPlainHdfs() throws Exception {
    Path p = cachedFile("/other/h34s", 35);
    Result r = catWithStall("hadoop-3.4-shaded", JAR, p);
    assertFileBytes("bytes read by the shaded 3.4.1 client", 35, r.out);
    assertTrue("no WARN saying POCache is off:\n" + r.err,
        r.err.contains("WARN") && r.err.contains("POCache is off for this FileSystem"));
  }

  private static void assertFileBytes(String what, long seed, byte[] out) {
    assertEquals(what + ": length", 4 * BLOCK, out.length);
    assertEquals(what + ": first wrong byte", -1, DataPattern.firstMismatch(seed, 0, out, 0, out.length));
  }

  /** A 4-block file, block i on DataNode i, with its parity filled by the Manager. */
  private static Path cachedFile(String path, long seed) throws Exception {
    Path p = new Path(path);
    hdfs.writePinnedFile(p, BLOCK, 4, seed);
    manager.prefetch(path);
    GenericTestUtils.waitFor(() -> {
      try {
        return manager.getDescriptor(path).hasParity();
      } catch (Exception e) {
        return false;
      }
    }, 50, 20_000);
    return p;
  }

  /** {@code hdfs dfs -cat p} by client {@code line} while DataNode 2 takes 3 s for every read. */
  private static Result catWithStall(String line, File jar, Path p) throws Exception {
    File lib = new File(CLIENTS, line + "/target/lib");
    assertTrue("no client jars in " + lib + " (built by the hadoop-clients modules)", lib.isDirectory());
    String fsUri = hdfs.conf().get("fs.defaultFS");
    // Configured as an operator does: site files in a conf dir on the class path.
    File conf = new File(System.getProperty("java.io.tmpdir"), "other-clients-conf");
    conf.mkdirs();
    siteFile(new File(conf, "core-site.xml"), "fs.defaultFS", fsUri,
        "fs.hdfs.impl", "org.pocache.hdfs.client.PoCacheFileSystem");
    siteFile(new File(conf, "hdfs-site.xml"), PoCacheConfigKeys.ENABLED_KEY, "true",
        PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + managerPort,
        PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port());
    List<String> cmd = new ArrayList<>(Arrays.asList(
        new File(System.getProperty("java.home"), "bin/java").getPath(),
        "-cp", conf.getAbsolutePath() + File.pathSeparator + lib.getAbsolutePath() + File.separator + "*"
            + File.pathSeparator + jar.getAbsolutePath(),
        "-Dlog4j.configuration=file:" + logConfig.getAbsolutePath(),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.log.org.pocache=info",
        "-Dorg.slf4j.simpleLogger.logFile=System.err",
        "org.apache.hadoop.fs.FsShell", "-cat", fsUri + p));
    hdfs.throttle(2).setDelayPerRead(3000);
    try {
      Process proc = new ProcessBuilder(cmd).start();
      CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(proc.getErrorStream()));
      byte[] out = readAll(proc.getInputStream());
      assertTrue(line + " client did not finish", proc.waitFor(120, TimeUnit.SECONDS));
      String errText = new String(err.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
      assertEquals(line + " client failed:\n" + errText, 0, proc.exitValue());
      return new Result(out, errText);
    } finally {
      hdfs.throttle(2).reset();
    }
  }

  private static final class Result {
    final byte[] out;
    final String err;

    Result(byte[] out, String err) {
      this.out = out;
      this.err = err;
    }
  }
}
