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
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.TestDirs;

/**
 * A real redis-server process on a free loopback port, for tests and the demo.
 *
 * <pre>
 * try (RedisServerFixture redis = RedisServerFixture.builder().password("s3cret").start()) {
 *   ... redis.host(), redis.port(), redis.password() ...
 *   redis.stop();   // Redis "crashes"
 *   redis.start();  // and comes back on the same port, empty
 * }
 * </pre>
 *
 * The server runs with persistence off, bound to 127.0.0.1, with its directory and
 * log under {@link TestDirs}. {@link #close()} stops the process and waits for it;
 * a JVM shutdown hook kills it if a test never gets that far, so no redis-server
 * outlives the JVM that started it.
 */
public final class RedisServerFixture implements AutoCloseable {
  private static final int START_TIMEOUT_MILLIS = 15_000;
  private static final int PORT_ATTEMPTS = 5;

  /** Options for a fixture; {@link #start()} launches it. */
  public static final class Builder {
    private String password;
    private boolean embedded;
    private File tlsCert;
    private File tlsKey;
    private final List<String> extraArgs = new ArrayList<>();

    private Builder() {
    }

    /** Require AUTH with this password ({@code requirepass}). */
    public Builder password(String pw) {
      this.password = pw;
      return this;
    }

    /** Use the binary bundled in embedded-redis even when redis-server is installed. */
    public Builder embeddedBinary() {
      this.embedded = true;
      return this;
    }

    /**
     * Also serve TLS on {@link RedisServerFixture#tlsPort()} with this PEM certificate and
     * key (the plain port stays open for the fixture's own readiness checks).
     */
    public Builder tls(File certPem, File keyPem) {
      this.tlsCert = certPem;
      this.tlsKey = keyPem;
      return this;
    }

    /** Any other redis.conf directive, e.g. {@code config("maxmemory", "64mb")}. */
    public Builder config(String directive, String... values) {
      extraArgs.add("--" + directive);
      Collections.addAll(extraArgs, values);
      return this;
    }

    public RedisServerFixture start() throws IOException {
      RedisServerFixture f = new RedisServerFixture(password, embedded, extraArgs, tlsCert, tlsKey);
      f.startOnFreePort();
      return f;
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  private final String password;
  private final List<String> extraArgs;
  private final File dir;
  private final RedisBinary binary;
  private final Thread reaper = new Thread(this::kill, "redis-fixture-reaper");
  private final File tlsCert;
  private final File tlsKey;
  private Process process;
  private int port;
  private int tlsPort;

  private RedisServerFixture(String password, boolean embedded, List<String> extraArgs, File tlsCert, File tlsKey)
      throws IOException {
    this.password = password;
    this.tlsCert = tlsCert;
    this.tlsKey = tlsKey;
    this.extraArgs = new ArrayList<>(extraArgs);
    this.dir = TestDirs.fresh("redis");
    File binDir = new File(TestDirs.base(), "redis-bin");
    this.binary = embedded ? RedisBinary.embedded(binDir) : RedisBinary.locate(binDir);
    Runtime.getRuntime().addShutdownHook(reaper);
  }

  public String host() {
    return "127.0.0.1";
  }

  public int port() {
    return port;
  }

  /** The TLS port, or 0 when TLS is off. */
  public int tlsPort() {
    return tlsPort;
  }

  /** The directory holding this server's files (log, cluster config). */
  public File dir() {
    return dir;
  }

  /** The password, or null when AUTH is off. */
  public String password() {
    return password;
  }

  public RedisBinary binary() {
    return binary;
  }

  /** The OS process id of the running server, or -1 when stopped. */
  public synchronized long pid() {
    return process != null && process.isAlive() ? process.pid() : -1;
  }

  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** A new connection to the server, authenticated when a password is set. */
  public RespClient client() throws IOException {
    RespClient c = new RespClient(host(), port, 5_000);
    try {
      if (password != null) {
        c.call("AUTH", password);
      }
      return c;
    } catch (IOException e) {
      c.close();
      throw e;
    }
  }

  /** The server's version string from INFO. */
  public String version() throws IOException {
    try (RespClient c = client()) {
      for (String line : c.callString("INFO", "server").split("\r\n")) {
        if (line.startsWith("redis_version:")) {
          return line.substring("redis_version:".length());
        }
      }
    }
    return "unknown";
  }

  private void startOnFreePort() throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
      port = FreePorts.pick();
      tlsPort = tlsCert != null ? FreePorts.pick() : 0;
      try {
        start();
        return;
      } catch (IOException e) {
        // Most likely another process took the port between probe and bind.
        last = e;
      }
    }
    throw new IOException("redis-server did not start after " + PORT_ATTEMPTS + " ports", last);
  }

  /** (Re)starts the server on its port, with an empty dataset. */
  public synchronized void start() throws IOException {
    if (isRunning()) {
      return;
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(binary.executable().getPath());
    Collections.addAll(cmd, "--port", Integer.toString(port), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "no", "--daemonize", "no",
        "--dir", dir.getPath(), "--logfile", "redis.log");
    if (password != null) {
      Collections.addAll(cmd, "--requirepass", password);
    }
    if (tlsCert != null) {
      Collections.addAll(cmd, "--tls-port", Integer.toString(tlsPort), "--tls-cert-file", tlsCert.getPath(),
          "--tls-key-file", tlsKey.getPath(), "--tls-ca-cert-file", tlsCert.getPath(), "--tls-auth-clients", "no");
    }
    cmd.addAll(extraArgs);
    File log = new File(dir, "redis.log");
    Files.deleteIfExists(log.toPath());
    process = new ProcessBuilder(cmd).directory(dir).redirectErrorStream(true)
        .redirectOutput(new File(dir, "stdout.log")).start();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("redis-server exited with " + process.exitValue() + " on port " + port
            + ": " + tail(log) + tail(new File(dir, "stdout.log")));
      }
      try (RespClient c = client()) {
        if ("PONG".equals(c.call("PING"))) {
          return;
        }
      } catch (IOException notYet) {
        sleepQuietly(20);
      }
    }
    kill();
    throw new IOException("redis-server did not answer PING on port " + port + " within "
        + START_TIMEOUT_MILLIS + " ms: " + tail(log));
  }

  /** Stops the server and waits until the process is gone and the port is free. */
  public synchronized void stop() {
    kill();
  }

  private synchronized void kill() {
    Process p = process;
    if (p == null) {
      return;
    }
    p.destroy();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    process = null;
  }

  @Override
  public void close() {
    kill();
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // The hook is running or about to; nothing to undo.
    }
  }

  /** True if something accepts connections on 127.0.0.1:port. */
  public static boolean isListening(int port) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String tail(File f) {
    try {
      List<String> lines = Files.readAllLines(f.toPath(), StandardCharsets.UTF_8);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } catch (IOException e) {
      return "";
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
