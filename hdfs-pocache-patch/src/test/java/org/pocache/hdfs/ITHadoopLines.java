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

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.lines.ChildJvms;
import org.pocache.hdfs.lines.LineCheck;
import org.pocache.testkit.hdfs.StragglerDatasetFactory;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * Each supported Hadoop line runs its own drop-in jar's plugins: {@link LineCheck} in a
 * JVM on that line's HDFS jars (a MiniDFSCluster of Hadoop 3.3.6, 3.4.1 and 3.5.0 from the
 * {@code hadoop-clients} modules, with the drop-in for Hadoop 3.3 and later; and of
 * 3.1.4 with the Hadoop 3.1 drop-in) caches a file and reads it through POCache healthy,
 * with a straggler DataNode (parity masks it), and with a DataNode stopped (its block
 * rebuilt from parity); for 3.3 and later the line's shaded client (as Spark bundles it)
 * also reads it around the straggler in a JVM of its own.
 */
public class ITHadoopLines {
  private static final File JAR31 = new File(System.getProperty("pocache.dropin.dir", "target"),
      System.getProperty("pocache.dropin.name", "hdfs-pocache-patch-0.1.0-SNAPSHOT-dropin.jar"));
  private static final File JAR33 = new File(System.getProperty("pocache.dropin33",
      "../dropin-hadoop-3.3/target/hdfs-pocache-patch-hadoop-3.3-0.1.0-SNAPSHOT-dropin.jar"));
  private static final File CLIENTS = new File(System.getProperty("pocache.hadoop.clients", "../hadoop-clients"));
  private static final Pattern PLUGIN_STARTED = Pattern.compile("POCache DataNode plugin: service-rate heartbeats");

  private static RedisServerFixture redis;
  private static File logConfig;

  /** Each line's check in a child JVM, two at a time (each its own MiniDFSCluster and Redis prefix). */
  private static ExecutorService checks;
  private static final Map<String, Future<?>> RUNS = new ConcurrentHashMap<>();

  @BeforeClass
  public static void start() throws Exception {
    redis = RedisServerFixture.builder().start();
    logConfig = ChildJvms.log4jConfig("hadoop-lines-log4j.properties");
    checks = Executors.newFixedThreadPool(2);
    RUNS.put("3.1.4", checks.submit(() -> check("3.1.4", ITDropInJarRuns.hadoopOnlyClasspath(), JAR31, null)));
    RUNS.put("3.3.6", checks.submit(() -> check("3.3.6", lib("hadoop-3.3-cluster"), JAR33,
        libDir("hadoop-3.3-shaded"))));
    RUNS.put("3.4.1", checks.submit(() -> check("3.4.1", lib("hadoop-3.4-cluster"), JAR33,
        libDir("hadoop-3.4-shaded"))));
    RUNS.put("3.5.0", checks.submit(() -> check("3.5.0", lib("hadoop-3.5-cluster"), JAR33,
        libDir("hadoop-3.5-shaded"))));
  }

  @AfterClass
  public static void stop() throws Exception {
    if (checks != null) {
      checks.shutdownNow();
      checks.awaitTermination(60, TimeUnit.SECONDS);
    }
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  public void hadoop31() throws Exception {
    outcome("3.1.4");
  }

  @Test
  public void hadoop33() throws Exception {
    outcome("3.3.6");
  }

  @Test
  public void hadoop34() throws Exception {
    outcome("3.4.1");
  }

  @Test
  public void hadoop35() throws Exception {
    outcome("3.5.0");
  }

  /** Waits for a line's check and fails as it failed. */
  private static void outcome(String version) throws Exception {
    try {
      RUNS.get(version).get(600, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof Exception) {
        throw (Exception) c;
      }
      if (c instanceof Error) {
        throw (Error) c;
      }
      throw e;
    }
  }

  private static String lib(String module) {
    return libDir(module).getAbsolutePath() + File.separator + "*";
  }

  private static File libDir(String module) {
    File lib = new File(CLIENTS, module + "/target/lib");
    assertTrue("no Hadoop jars in " + lib + " (built by the hadoop-clients modules)", lib.isDirectory());
    return lib;
  }

  /** @param shaded the line's shaded client (its jars), to read through POCache as well; null: none */
  private static Void check(String version, String hadoopClasspath, File jar, File shaded) throws Exception {
    assertTrue("no drop-in jar at " + jar, jar.isFile());
    File work = new File(System.getProperty("java.io.tmpdir"), "line-" + version);
    String testClasses = ChildJvms.where(LineCheck.class) + File.pathSeparator
        + ChildJvms.where(StragglerDatasetFactory.class);
    List<String> cmd = new ArrayList<>(Arrays.asList(
        new File(System.getProperty("java.home"), "bin/java").getPath(), "-Xmx1g",
        "-cp", hadoopClasspath + File.pathSeparator + jar.getAbsolutePath() + File.pathSeparator + testClasses,
        "-Dlog4j.configuration=file:" + logConfig.getAbsolutePath(),
        "-Dtest.build.data=" + work.getAbsolutePath(), "-Dhadoop.tmp.dir=" + work.getAbsolutePath(),
        "-Dpocache.linecheck.key.prefix=line-" + version + ":",
        LineCheck.class.getName(), redis.host() + ":" + redis.port(), work.getAbsolutePath()));
    if (shaded != null) {
      cmd.add(shaded.getAbsolutePath());
      cmd.add(jar.getAbsolutePath());
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] out = ChildJvms.readAll(p.getInputStream());
    assertTrue("Hadoop " + version + " line check did not finish", p.waitFor(300, TimeUnit.SECONDS));
    String text = new String(out, StandardCharsets.UTF_8);
    Matcher ok = Pattern.compile("LINECHECK OK .*").matcher(text);
    assertTrue("Hadoop " + version + " with " + jar.getName() + ":\n" + tail(text), ok.find());
    assertEquals("exit status of the Hadoop " + version + " line check:\n" + tail(text), 0, p.exitValue());
    int plugins = 0;
    for (Matcher m = PLUGIN_STARTED.matcher(text); m.find(); ) {
      plugins++;
    }
    assertEquals("DataNode plugins started on Hadoop " + version + ":\n" + tail(text), 5, plugins);
    Matcher straggler = Pattern.compile("straggler read: .*").matcher(text);
    Matcher shadedRead = Pattern.compile("shaded client: .*").matcher(text);
    if (shaded != null) {
      assertTrue("the shaded " + version + " client did not read:\n" + tail(text), shadedRead.find(0));
    }
    System.out.println("Hadoop " + version + ", " + jar.getName() + ": " + ok.group()
        + (straggler.find() ? "; " + straggler.group() : "") + (shaded != null ? "; " + shadedRead.group() : ""));
    return null;
  }


  /** The check's own lines (what it measured, why it failed), then the output's last 60 lines. */
  private static String tail(String text) {
    String[] lines = text.split("\n");
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (l.startsWith("LINECHECK FAILED")) {
        // Its exception's message may run over many lines (a child JVM's log): keep them.
        for (int j = i; j < Math.min(lines.length, i + 80); j++) {
          b.append(lines[j]).append('\n');
        }
      } else if (l.startsWith("LINECHECK") || l.startsWith("straggler read:") || l.startsWith("shaded client:")) {
        b.append(l).append('\n');
      }
    }
    b.append("...\n");
    return b + String.join("\n", Arrays.copyOfRange(lines, Math.max(0, lines.length - 60), lines.length));
  }
}
