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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * The drop-in jar on a classpath of Hadoop's jars only (none of POCache's module
 * jars or classes): {@code checknative} loads ISA-L from inside the jar, and
 * {@code admin -report} talks to a Manager over Hadoop IPC, as an operator would
 * after installing the jar.
 */
public class ITDropInJarRuns {
  private static final File JAR = new File(System.getProperty("pocache.dropin.dir", "target"),
      System.getProperty("pocache.dropin.name", "hdfs-pocache-patch-0.1.0-SNAPSHOT-dropin.jar"));

  @Test
  public void checknativeAndAdminRunFromTheJarAlone() throws Exception {
    String cp = hadoopOnlyClasspath() + File.pathSeparator + JAR.getAbsolutePath();
    if (new File(System.getProperty("pocache.native.built", "../coder/target/classes/native")).isDirectory()) {
      String out = run(cp, "org.pocache.coder.CheckNative", "-a");
      assertTrue(out, out.contains("isal:") && out.contains("true"));
    }
    int port = FreePorts.pick();
    try (RedisServerFixture redis = RedisServerFixture.builder().start();
         MiniHdfs hdfs = MiniHdfs.builder().dataNodes(1)
             .set(PoCacheConfigKeys.ENABLED_KEY, "true")
             .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
             .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + port)
             .set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port())
             .start()) {
      String fs = hdfs.conf().get("fs.defaultFS");
      GenericTestUtils.waitFor(() -> {
        try {
          return run(cp, "org.pocache.hdfs.tools.PoCacheAdmin", "-D", "fs.defaultFS=" + fs, "-D",
              PoCacheConfigKeys.MANAGER_ADDRESS_KEY + "=127.0.0.1:" + port, "-report").contains("healthy");
        } catch (Exception e) {
          return false;
        }
      }, 500, 30_000);
    }
  }

  /** The test JVM's classpath without anything of POCache's own. */
  public static String hadoopOnlyClasspath() {
    List<String> keep = new ArrayList<>();
    String root = new File(System.getProperty("user.dir")).getAbsoluteFile().getParent();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String abs = new File(e).getAbsolutePath();
      if (!abs.contains(File.separator + "org" + File.separator + "pocache" + File.separator)
          && !(root != null && abs.startsWith(root + File.separator))) {
        keep.add(e);
      }
    }
    return String.join(File.pathSeparator, keep);
  }

  private static String run(String cp, String main, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(Arrays.asList(
        new File(System.getProperty("java.home"), "bin/java").getPath(), "-cp", cp, main));
    cmd.addAll(Arrays.asList(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] out = readAll(p.getInputStream());
    assertTrue(main + " did not finish", p.waitFor(60, TimeUnit.SECONDS));
    String text = new String(out, StandardCharsets.UTF_8);
    assertEquals(main + " failed:\n" + text, 0, p.exitValue());
    return text;
  }

  private static byte[] readAll(java.io.InputStream in) throws IOException {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    for (int n; (n = in.read(buf)) > 0; ) {
      b.write(buf, 0, n);
    }
    return b.toByteArray();
  }
}
