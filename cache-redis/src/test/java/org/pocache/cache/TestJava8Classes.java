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
package org.pocache.cache;

import static org.junit.Assert.assertTrue;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.Test;

/**
 * The Redis client and everything it pulls in must load on Java 8, where Hadoop
 * 3.1 clusters run: every class file (outside multi-release sections) is major
 * version 52 or lower. Guards a future Jedis upgrade.
 */
public class TestJava8Classes {
  private static final String[] SHIPPED = {"jedis-", "commons-pool2-", "json-", "gson-", "redis-authx-core-",
      "error_prone_annotations-"};

  @Test
  public void jedisAndItsDependenciesAreJava8() throws IOException {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> checked = new ArrayList<>();
    for (String entry : cp.split(File.pathSeparator)) {
      String name = new File(entry).getName();
      boolean shipped = false;
      for (String s : SHIPPED) {
        shipped |= name.startsWith(s) && name.endsWith(".jar");
      }
      if (!shipped) {
        continue;
      }
      try (ZipFile z = new ZipFile(entry)) {
        Enumeration<? extends ZipEntry> e = z.entries();
        while (e.hasMoreElements()) {
          ZipEntry ze = e.nextElement();
          String n = ze.getName();
          if (!n.endsWith(".class") || n.startsWith("META-INF/versions/") || n.endsWith("module-info.class")) {
            continue;
          }
          try (InputStream in = z.getInputStream(ze); DataInputStream d = new DataInputStream(in)) {
            d.readInt(); // magic
            d.readUnsignedShort(); // minor
            int major = d.readUnsignedShort();
            assertTrue(name + "!" + n + " is class file version " + major, major <= 52);
          }
        }
      }
      checked.add(name);
    }
    assertTrue("found the jars to check: " + checked, checked.size() >= 3 && checked.get(0) != null);
    assertTrue(checked.toString(), checked.stream().anyMatch(j -> j.startsWith("jedis-")));
  }
}
