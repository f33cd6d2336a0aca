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

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.Test;

/**
 * The drop-in jars (after {@code package}; for Hadoop 3.1 and for 3.3 and later): every class file runs on Java 8
 * (version 52 or lower), Jedis and its dependencies are relocated, Hadoop and
 * SLF4J are not bundled, the entry points are there, and so is the ISA-L JNI
 * library when this build compiled it.
 */
public class ITDropInJar {
  private static final File JAR = new File(System.getProperty("pocache.dropin.dir", "target"),
      System.getProperty("pocache.dropin.name", "hdfs-pocache-patch-0.1.0-SNAPSHOT-dropin.jar"));

  private static final File JAR33 = new File(System.getProperty("pocache.dropin33",
      "../dropin-hadoop-3.3/target/hdfs-pocache-patch-hadoop-3.3-0.1.0-SNAPSHOT-dropin.jar"));

  @Test
  public void classFilesAreJava8AndDependenciesRelocated() throws IOException {
    check(JAR);
  }

  /** The jar for Hadoop 3.3 and later: the same, and its protocol on Hadoop's relocated protobuf 3. */
  @Test
  public void theHadoop33JarIsJava8AndSpeaksThirdpartyProtobuf() throws IOException {
    check(JAR33);
    try (JarFile jar = new JarFile(JAR33);
         InputStream in = jar.getInputStream(
             jar.getJarEntry("org/pocache/manager/proto/PoCacheManagerProtos$DescriptorProto.class"))) {
      String text = new String(readAll(in), "ISO-8859-1");
      assertTrue("DescriptorProto is not built on org.apache.hadoop.thirdparty.protobuf",
          text.contains("org/apache/hadoop/thirdparty/protobuf/GeneratedMessageV3"));
      assertEquals(-1, text.indexOf("com/google/protobuf/"));
    }
  }

  private static void check(File dropin) throws IOException {
    assertTrue("no drop-in jar at " + dropin, dropin.isFile());
    List<String> tooNew = new ArrayList<>();
    List<String> unrelocated = new ArrayList<>();
    int classes = 0;
    boolean jedis = false;
    try (JarFile jar = new JarFile(dropin)) {
      for (Enumeration<JarEntry> it = jar.entries(); it.hasMoreElements(); ) {
        JarEntry e = it.nextElement();
        String n = e.getName();
        if (n.startsWith("redis/") || n.startsWith("org/apache/commons/pool2/") || n.startsWith("org/json/")
            || n.startsWith("com/google/gson/") || n.startsWith("org/apache/hadoop/") || n.startsWith("org/slf4j/")
            || n.startsWith("com/google/protobuf/")) {
          unrelocated.add(n);
        }
        jedis |= n.startsWith("org/pocache/shaded/redis/clients/jedis/");
        if (n.endsWith(".class")) {
          classes++;
          try (InputStream in = jar.getInputStream(e)) {
            DataInputStream d = new DataInputStream(in);
            int magic = d.readInt();
            d.readUnsignedShort();
            int major = d.readUnsignedShort();
            if (magic != 0xCAFEBABE || major > 52) {
              tooNew.add(n + " (" + major + ")");
            }
          }
        }
      }
      assertTrue("class files newer than Java 8: " + head(tooNew), tooNew.isEmpty());
      assertTrue("bundled or not relocated: " + head(unrelocated), unrelocated.isEmpty());
      assertTrue("Jedis is not in the jar", jedis);
      for (String entry : new String[] {"org/pocache/hdfs/client/PoCacheFileSystem.class",
          "org/pocache/hdfs/namenode/PoCacheNameNodePlugin.class",
          "org/pocache/hdfs/datanode/PoCacheDataNodePlugin.class",
          "org/pocache/hdfs/fill/FillWorker.class", "org/pocache/hdfs/tools/PoCacheAdmin.class",
          "pocache-default.xml"}) {
        assertTrue(entry + " missing", jar.getEntry(entry) != null);
      }
      File nativeDir = new File(System.getProperty("pocache.native.built", "../coder/target/classes/native"));
      if (nativeDir.isDirectory()) {
        String arch = System.getProperty("os.arch").equals("amd64") ? "linux-amd64" : "linux-"
            + System.getProperty("os.arch");
        assertTrue("the ISA-L JNI library was built but is not in the jar",
            jar.getEntry("native/" + arch + "/libpocache_isal.so") != null);
      }
      // Relocated code must not name the original packages anywhere (string constants included).
      JarEntry store = jar.getJarEntry("org/pocache/cache/RedisParityStore.class");
      try (InputStream in = jar.getInputStream(store)) {
        String text = new String(readAll(in), "ISO-8859-1");
        assertTrue(text.contains("org/pocache/shaded/redis/clients/jedis/UnifiedJedis"));
        assertEquals(-1, text.indexOf("Lredis/clients/"));
      }
    }
    assertTrue(classes > 1000);
    System.out.println(dropin.getName() + ": " + classes + " classes, " + dropin.length() / 1024 + " KiB, all Java 8");
  }

  private static String head(List<String> l) {
    return l.size() <= 10 ? l.toString() : l.subList(0, 10) + " and " + (l.size() - 10) + " more";
  }

  private static byte[] readAll(InputStream in) throws IOException {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    for (int n; (n = in.read(buf)) > 0; ) {
      b.write(buf, 0, n);
    }
    return b.toByteArray();
  }
}
