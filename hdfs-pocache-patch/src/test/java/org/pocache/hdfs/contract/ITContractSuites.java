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
package org.pocache.hdfs.contract;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileUtil;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.lines.ChildJvms;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * Hadoop's own FileSystem contract suites for HDFS as the referee: on Hadoop 3.1.4 and
 * on 3.4.1, {@link ContractRunner} runs every {@code TestHDFSContract*} class once on
 * stock HDFS and once with POCache on, in child JVMs whose only configuration is the
 * site files on their class path ({@code core-site.xml}: {@code fs.hdfs.impl} =
 * PoCacheFileSystem; {@code hdfs-site.xml}: the NameNode and DataNode plugins, Redis,
 * files of one block cached on write and on first read). Every test that passes on
 * stock HDFS must pass with POCache, and the POCache run must really have run the
 * Manager and the DataNode plugins.
 *
 * <p>What passes on stock HDFS is the list in {@code contract-stock/<version>.txt},
 * written from stock runs, so that a build runs the suites once per line. With
 * {@code -Dpocache.contract.stock=true} the stock run is made as well, beside the
 * POCache run, and a list that no longer matches it fails the test and says how.
 */
public class ITContractSuites {
  private static final File JAR31 = new File(System.getProperty("pocache.dropin.dir", "target"),
      System.getProperty("pocache.dropin.name", "hdfs-pocache-patch-0.1.0-SNAPSHOT-dropin.jar"));
  private static final File JAR33 = new File(System.getProperty("pocache.dropin33",
      "../dropin-hadoop-3.3/target/hdfs-pocache-patch-hadoop-3.3-0.1.0-SNAPSHOT-dropin.jar"));
  private static final File CLIENTS = new File(System.getProperty("pocache.hadoop.clients", "../hadoop-clients"));
  private static final Pattern RESULT = Pattern.compile("^CONTRACT (PASS|FAIL|SKIP) (\\S+)(.*)$", Pattern.MULTILINE);
  private static RedisServerFixture redis;
  private static File logConfig;

  @BeforeClass
  public static void start() throws Exception {
    redis = RedisServerFixture.builder().start();
    logConfig = ChildJvms.log4jConfig("contract-log4j.properties");
  }

  @AfterClass
  public static void stop() throws Exception {
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  public void hadoop31() throws Exception {
    check("3.1.4", org.pocache.hdfs.ITDropInJarRuns.hadoopOnlyClasspath(), JAR31);
  }

  @Test
  public void hadoop34() throws Exception {
    File lib = new File(CLIENTS, "hadoop-3.4-cluster/target/lib");
    assertTrue("no Hadoop jars in " + lib + " (built by the hadoop-clients modules)", lib.isDirectory());
    check("3.4.1", lib.getAbsolutePath() + File.separator + "*", JAR33);
  }

  private static void check(String version, String hadoopClasspath, File jar) throws Exception {
    assertTrue("no drop-in jar at " + jar, jar.isFile());
    File work = new File(System.getProperty("java.io.tmpdir"), "contract-" + version);
    FileUtil.fullyDelete(work);
    // Hadoop runs these suites with its test hdfs-site.xml: simple authentication and no
    // minimum block size (the suites write 1 KB blocks). Both runs have those two keys.
    String[] hadoopTestKeys = {
        "hadoop.security.authentication", "simple",
        "dfs.namenode.fs-limits.min-block-size", "0"};
    File stockConf = new File(work, "conf-stock");
    assertTrue(stockConf.mkdirs());
    ChildJvms.siteFile(new File(stockConf, "hdfs-site.xml"), hadoopTestKeys);
    File conf = new File(work, "conf-pocache");
    assertTrue(conf.mkdirs());
    ChildJvms.siteFile(new File(conf, "core-site.xml"),
        "fs.hdfs.impl", "org.pocache.hdfs.client.PoCacheFileSystem");
    List<String> keys = new ArrayList<>(Arrays.asList(hadoopTestKeys));
    keys.addAll(Arrays.asList(
        "dfs.pocache.enabled", "true",
        "dfs.namenode.plugins", "org.pocache.hdfs.namenode.PoCacheNameNodePlugin",
        "dfs.datanode.plugins", "org.pocache.hdfs.datanode.PoCacheDataNodePlugin",
        "dfs.pocache.manager.address", "127.0.0.1:" + FreePorts.pick(),
        "dfs.pocache.redis.hosts", redis.host() + ":" + redis.port(),
        "dfs.pocache.redis.key.prefix", "contract-" + version + ":",
        // The suites' files are a few KB: cache them on write and on first read, as an
        // operator who wants short files cached sets it, so their reads go through parity.
        "dfs.pocache.write.min.blocks", "1",
        "dfs.pocache.cache.read.min.blocks", "1"));
    ChildJvms.siteFile(new File(conf, "hdfs-site.xml"), keys.toArray(new String[0]));
    File options = new File(System.getProperty("pocache.contract.options", "contract-options"), version);
    assertTrue("no contract/hdfs.xml of Hadoop " + version + " in " + options + " (unpacked by the build)",
        new File(options, "contract/hdfs.xml").isFile());
    String base = hadoopClasspath + File.pathSeparator + jar.getAbsolutePath() + File.pathSeparator
        + ChildJvms.where(ContractRunner.class) + File.pathSeparator + options.getAbsolutePath();
    // The two runs share nothing (each its own MiniDFSCluster, ports and directories): at once.
    boolean runStock = Boolean.getBoolean("pocache.contract.stock");
    Process stockRun = runStock
        ? start(stockConf.getAbsolutePath() + File.pathSeparator + base, new File(work, "stock")) : null;
    Process pocacheRun;
    try {
      pocacheRun = start(conf.getAbsolutePath() + File.pathSeparator + base, new File(work, "pocache"));
    } catch (IOException | RuntimeException | Error e) {
      if (stockRun != null) {
        stockRun.destroyForcibly();
      }
      throw e;
    }
    String stock = stockRun == null ? null : finish(version + " stock", stockRun, new File(work, "stock"));
    String pocache = finish(version + " POCache", pocacheRun, new File(work, "pocache"));

    Set<String> listed = stockPasses(version);
    Set<String> passedStock = listed;
    if (stock != null) {
      assertTrue("stock run used " + fsOf(stock), fsOf(stock).equals("org.apache.hadoop.hdfs.DistributedFileSystem"));
      passedStock = results(stock, "PASS");
      Set<String> unlisted = new TreeSet<>(passedStock);
      unlisted.removeAll(listed);
      Set<String> gone = new TreeSet<>(listed);
      gone.removeAll(passedStock);
      assertTrue("contract-stock/" + version + ".txt does not match the stock run: passing and not listed " + unlisted
          + ", listed and not passing " + gone, unlisted.isEmpty() && gone.isEmpty());
    }
    assertEquals("POCache run's FileSystem", "org.pocache.hdfs.client.PoCacheFileSystem", fsOf(pocache));
    assertTrue("no Manager started in the POCache run's NameNodes:\n" + tail(pocache),
        pocache.contains("POCache Manager listening"));
    assertTrue("no DataNode plugin started in the POCache run:\n" + tail(pocache),
        pocache.contains("POCache DataNode plugin: service-rate heartbeats"));
    Set<String> passedPocache = results(pocache, "PASS");
    Set<String> lost = new TreeSet<>(passedStock);
    lost.removeAll(passedPocache);
    List<String> why = new ArrayList<>();
    for (Matcher m = RESULT.matcher(pocache); m.find(); ) {
      if (!m.group(1).equals("PASS") && lost.contains(m.group(2))) {
        why.add(m.group(0));
      }
    }
    assertTrue("Hadoop " + version + ": " + lost.size() + " contract tests pass on stock HDFS and not with POCache:\n"
        + String.join("\n", why), lost.isEmpty());
    assertTrue("Hadoop " + version + ": " + passedStock.size() + " contract tests pass on stock HDFS"
        + (stock == null ? " (contract-stock/" + version + ".txt)" : ":\n" + tail(stock)), passedStock.size() > 50);
    System.out.printf("Hadoop %s contract suites: stock %s; POCache %s%n", version,
        stock == null ? passedStock.size() + " passing (listed)" : summary(stock), summary(pocache));
  }

  /** Starts the contract suites in a child JVM; its output goes to {@code dir}/output.txt. */
  private static Process start(String classpath, File dir) throws IOException {
    assertTrue(dir.mkdirs());
    List<String> cmd = new ArrayList<>(Arrays.asList(
        new File(System.getProperty("java.home"), "bin/java").getPath(), "-Xmx1g",
        "-cp", classpath,
        "-Dlog4j.configuration=file:" + logConfig.getAbsolutePath(),
        "-Dtest.build.data=" + dir.getAbsolutePath(), "-Dhadoop.tmp.dir=" + dir.getAbsolutePath(),
        "-Djava.io.tmpdir=" + dir.getAbsolutePath(),
        ContractRunner.class.getName()));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(new File(dir, "output.txt")).start();
  }

  /** Waits for a child JVM {@link #start}ed in {@code dir} and returns its output. */
  private static String finish(String what, Process p, File dir) throws Exception {
    boolean ended = p.waitFor(600, TimeUnit.SECONDS);
    if (!ended) {
      p.destroyForcibly();
    }
    String text = new String(Files.readAllBytes(new File(dir, "output.txt").toPath()), StandardCharsets.UTF_8);
    assertTrue(what + ": the contract suites did not finish:\n" + tail(text), ended);
    assertTrue(what + ": no summary (exit " + p.exitValue() + "):\n" + tail(text), text.contains("CONTRACT SUMMARY"));
    return text;
  }

  /** The tests listed as passing on stock HDFS of {@code version} (test resource contract-stock/<version>.txt). */
  private static Set<String> stockPasses(String version) throws IOException {
    String name = "/contract-stock/" + version + ".txt";
    java.io.InputStream in = ITContractSuites.class.getResourceAsStream(name);
    assertTrue("no " + name + " among the test resources", in != null);
    Set<String> out = new TreeSet<>();
    try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(in,
        StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        line = line.trim();
        if (!line.isEmpty() && !line.startsWith("#")) {
          out.add(line);
        }
      }
    }
    return out;
  }

  private static Set<String> results(String text, String kind) {
    Set<String> out = new TreeSet<>();
    for (Matcher m = RESULT.matcher(text); m.find(); ) {
      if (m.group(1).equals(kind)) {
        out.add(m.group(2));
      }
    }
    return out;
  }

  private static String fsOf(String text) {
    Matcher m = Pattern.compile("^CONTRACT FS (\\S+)", Pattern.MULTILINE).matcher(text);
    return m.find() ? m.group(1) : "(none)";
  }

  private static String summary(String text) {
    Matcher m = Pattern.compile("CONTRACT SUMMARY (.*)").matcher(text);
    return m.find() ? m.group(1) : "(none)";
  }


  private static String tail(String text) {
    String[] lines = text.split("\n");
    return String.join("\n", Arrays.copyOfRange(lines, Math.max(0, lines.length - 60), lines.length));
  }
}
