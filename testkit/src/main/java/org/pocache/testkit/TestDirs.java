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
package org.pocache.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where fixtures keep their files. Everything goes under one base directory,
 * {@code pocache.test.dir} (set by surefire to the module's {@code target/test-data}),
 * or {@code target/test-data} relative to the working directory when unset, so a
 * test run leaves nothing outside {@code target/}.
 */
public final class TestDirs {
  /** System property naming the base directory for fixture data. */
  public static final String BASE_DIR_PROPERTY = "pocache.test.dir";

  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private TestDirs() {
  }

  /** The base directory, created if missing. */
  public static File base() throws IOException {
    String configured = System.getProperty(BASE_DIR_PROPERTY);
    File dir = new File(configured != null && !configured.isEmpty()
        ? configured : "target/test-data").getAbsoluteFile();
    Files.createDirectories(dir.toPath());
    return dir;
  }

  /**
   * A new, empty directory under the base whose name starts with {@code prefix};
   * unique within this JVM and across JVMs (the process id is part of the name).
   */
  public static File fresh(String prefix) throws IOException {
    long pid = ProcessHandle.current().pid();
    File dir = new File(base(), prefix + "-" + pid + "-" + SEQUENCE.incrementAndGet());
    deleteRecursively(dir);
    Files.createDirectories(dir.toPath());
    return dir;
  }

  /** Deletes a file or directory tree; missing is fine. */
  public static void deleteRecursively(File f) throws IOException {
    if (!f.exists()) {
      return;
    }
    File[] children = f.isDirectory() ? f.listFiles() : null;
    if (children != null) {
      for (File c : children) {
        deleteRecursively(c);
      }
    }
    Files.deleteIfExists(f.toPath());
  }
}
