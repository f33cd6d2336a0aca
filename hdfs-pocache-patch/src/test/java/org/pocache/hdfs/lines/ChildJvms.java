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

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * What the tests that run Hadoop clients and clusters of other lines in JVMs of their
 * own share: site files for those JVMs' conf dirs, and reading what they print. JDK only,
 * so it loads in any of those JVMs.
 */
public final class ChildJvms {
  private ChildJvms() {
  }

  /** Writes a Hadoop site file ({@code core-site.xml}, {@code hdfs-site.xml}) with these keys and values. */
  public static void siteFile(File f, String... keysAndValues) throws IOException {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (int i = 0; i < keysAndValues.length; i += 2) {
      xml.append("  <property><name>").append(keysAndValues[i]).append("</name><value>")
          .append(keysAndValues[i + 1]).append("</value></property>\n");
    }
    Files.write(f.toPath(), xml.append("</configuration>\n").toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Everything {@code in} gives until its end. */
  public static byte[] readAll(InputStream in) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] buf = new byte[1 << 16];
    try {
      for (int n; (n = in.read(buf)) > 0; ) {
        b.write(buf, 0, n);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b.toByteArray();
  }

  /**
   * A log4j 1.x configuration for child JVMs (Hadoop 3.1's log4j, later lines' reload4j):
   * WARN and above, POCache's own INFO lines, on standard output, in {@code name} under
   * the temporary directory.
   */
  public static File log4jConfig(String name) throws IOException {
    File f = new File(System.getProperty("java.io.tmpdir"), name);
    Files.write(f.toPath(), java.util.Arrays.asList(
        "log4j.rootLogger=WARN, out",
        "log4j.logger.org.pocache=INFO",
        "log4j.appender.out=org.apache.log4j.ConsoleAppender",
        "log4j.appender.out.target=System.out",
        "log4j.appender.out.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.out.layout.ConversionPattern=%p %c{1}: %m%n"), StandardCharsets.UTF_8);
    return f;
  }

  /** The class path entry (directory or jar) a class was loaded from. */
  public static String where(Class<?> c) throws java.net.URISyntaxException {
    return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getAbsolutePath();
  }
}
