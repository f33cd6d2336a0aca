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
package org.pocache.testkit.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Finds a redis-server executable: {@code $POCACHE_REDIS_SERVER} (or the system
 * property {@code pocache.redis.server}) if set; else {@code redis-server} on the
 * PATH (Debian's package); else the binary bundled in
 * {@code com.github.codemonstur:embedded-redis}, copied out next to the test data.
 */
public final class RedisBinary {
  /** Environment variable / system property that name an explicit executable. */
  public static final String ENV = "POCACHE_REDIS_SERVER";
  public static final String PROPERTY = "pocache.redis.server";

  /** Where an executable came from; fixtures log it once. */
  public enum Source { CONFIGURED, PATH, EMBEDDED }

  private final File executable;
  private final Source source;

  private RedisBinary(File executable, Source source) {
    this.executable = executable;
    this.source = source;
  }

  public File executable() {
    return executable;
  }

  public Source source() {
    return source;
  }

  @Override
  public String toString() {
    return executable + " (" + source.name().toLowerCase(Locale.ROOT) + ")";
  }

  /**
   * Locates an executable, extracting the embedded one into {@code extractDir} if
   * nothing is installed.
   *
   * @throws IOException naming every place looked at when nothing usable exists
   */
  public static RedisBinary locate(File extractDir) throws IOException {
    String configured = System.getProperty(PROPERTY, System.getenv(ENV));
    if (configured != null && !configured.isEmpty()) {
      File f = new File(configured);
      if (!f.canExecute()) {
        throw new IOException(ENV + "=" + configured + " is not an executable file");
      }
      return new RedisBinary(f, Source.CONFIGURED);
    }
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator)) {
        File f = new File(dir, "redis-server");
        if (f.isFile() && f.canExecute()) {
          return new RedisBinary(f, Source.PATH);
        }
      }
    }
    if (embeddedResourceName() == null) {
      throw new IOException("no redis-server: not on the PATH, " + ENV + " unset, and the embedded-redis"
          + " artifact has no binary for os.name=" + System.getProperty("os.name")
          + " os.arch=" + System.getProperty("os.arch"));
    }
    return embedded(extractDir);
  }

  /** The binary bundled in embedded-redis, extracted into {@code extractDir}, whatever is installed. */
  public static RedisBinary embedded(File extractDir) throws IOException {
    String resource = embeddedResourceName();
    if (resource == null) {
      throw new IOException("the embedded-redis artifact has no binary for os.name="
          + System.getProperty("os.name") + " os.arch=" + System.getProperty("os.arch"));
    }
    return new RedisBinary(extract(resource, extractDir), Source.EMBEDDED);
  }

  /** The resource name of the bundled binary for this platform (embedded-redis 1.4.4), or null. */
  static String embeddedResourceName() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
    boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
    if (os.contains("linux")) {
      if (x64) {
        return "redis-server-6.2.6-v5-linux-amd64";
      }
      if (arm64) {
        return "redis-server-6.2.7-linux-arm64";
      }
      if (arch.equals("x86") || arch.equals("i386")) {
        return "redis-server-6.2.7-linux-386";
      }
    } else if (os.contains("mac")) {
      return x64 ? "redis-server-6.2.6-v5-darwin-amd64" : arm64 ? "redis-server-6.2.6-v5-darwin-arm64" : null;
    }
    return null;
  }

  private static File extract(String resource, File dir) throws IOException {
    Files.createDirectories(dir.toPath());
    File target = new File(dir, resource);
    if (target.isFile() && target.canExecute()) {
      return target;
    }
    try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("embedded-redis resource " + resource + " is not on the classpath");
      }
      // Copy to a temporary name first so concurrent JVMs never run a half-written binary.
      File tmp = File.createTempFile(resource, ".part", dir);
      Files.copy(in, tmp.toPath(), StandardCopyOption.REPLACE_EXISTING);
      if (!tmp.setExecutable(true)) {
        throw new IOException("cannot make " + tmp + " executable");
      }
      Files.move(tmp.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    }
    return target;
  }
}
