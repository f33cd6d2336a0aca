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
package org.pocache.experiments.cluster;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A steady read and write load on a running cluster for as long as an operation (a
 * rolling restart) takes, with every operation logged and every byte checked
 * ({@code scripts/pocache experiment rolling-restart}).
 *
 * <pre>
 *   RollingLoad prepare --dir D [--files 6] [--mib 64] [--block-mib 16]
 *   RollingLoad run --dir D --mode vanilla|pocache --stop-file F --log F [--readers 1] [--writers 1]
 * </pre>
 *
 * <p>{@code prepare} writes the files the readers read, through the cluster's configured
 * file system; their bytes follow from their names, so a reader knows what each must
 * hold without reading it first. {@code run} starts readers (each read alternating a
 * front-to-back read in 64 KiB calls, as a task reads its split, and one positional read
 * of the whole file) and writers (a two-block file written, read back whole and deleted,
 * over and over), until the stop file appears. The log has one line per operation:
 * {@code op pattern file start_ms end_ms ok|wrong|failed|hung detail}, and before them
 * one {@code loc file host,...} line per file naming the DataNodes its blocks are on.
 */
public final class RollingLoad {
  private static final int WAIT_FOR_WORKERS_S = 120;

  private final FileSystem fs;
  private final PrintWriter log;
  private final Set<Thread> workers = ConcurrentHashMap.newKeySet();
  private final Set<String> running = ConcurrentHashMap.newKeySet();
  private volatile boolean stop;

  private RollingLoad(FileSystem fs, PrintWriter log) {
    this.fs = fs;
    this.log = log;
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || !(args[0].equals("prepare") || args[0].equals("run"))) {
      usage("the first argument must be prepare or run");
    }
    String dir = null;
    String mode = null;
    String stopFile = null;
    String logFile = null;
    int files = 6;
    int mib = 64;
    int blockMib = 16;
    int readers = 1;
    int writers = 1;
    for (int i = 1; i < args.length; i++) {
      if (i + 1 >= args.length) {
        usage("option " + args[i] + " needs a value");
      }
      String v = args[++i];
      switch (args[i - 1]) {
        case "--dir":
          dir = v;
          break;
        case "--mode":
          mode = v;
          break;
        case "--stop-file":
          stopFile = v;
          break;
        case "--log":
          logFile = v;
          break;
        case "--files":
          files = positive("--files", v);
          break;
        case "--mib":
          mib = positive("--mib", v);
          break;
        case "--block-mib":
          blockMib = positive("--block-mib", v);
          break;
        case "--readers":
          readers = count("--readers", v);
          break;
        case "--writers":
          writers = count("--writers", v);
          break;
        default:
          usage("unknown option " + args[i - 1]);
      }
    }
    if (dir == null) {
      usage("--dir is required");
    }
    Configuration conf = new Configuration();
    if (args[0].equals("prepare")) {
      conf.setLong("dfs.blocksize", (long) blockMib << 20);
      try (FileSystem fs = FileSystem.get(conf)) {
        prepare(fs, new Path(dir), files, (long) mib << 20);
      }
      return;
    }
    if (mode == null || !(mode.equals("vanilla") || mode.equals("pocache"))) {
      usage("--mode must be vanilla or pocache, got '" + mode + "'");
    }
    if (stopFile == null || logFile == null) {
      usage("run needs --stop-file and --log");
    }
    conf.set("fs.hdfs.impl", mode.equals("pocache") ? "org.pocache.hdfs.client.PoCacheFileSystem"
        : "org.apache.hadoop.hdfs.DistributedFileSystem");
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    conf.setLong("dfs.blocksize", (long) blockMib << 20);
    try (FileSystem fs = FileSystem.get(conf);
         PrintWriter log = new PrintWriter(new OutputStreamWriter(new FileOutputStream(logFile),
             StandardCharsets.UTF_8), true)) {
      new RollingLoad(fs, log).run(new Path(dir), mode, Paths.get(stopFile), readers, writers, (long) blockMib << 20);
    }
  }

  private static void prepare(FileSystem fs, Path dir, int files, long bytes) throws IOException {
    fs.mkdirs(dir);
    for (int i = 1; i <= files; i++) {
      Path p = new Path(dir, "f" + i + ".bin");
      if (fs.exists(p) && fs.getFileStatus(p).getLen() == bytes) {
        continue;
      }
      byte[] b = contents(p.getName(), bytes);
      try (FSDataOutputStream out = fs.create(p, true)) {
        out.write(b);
      }
    }
    System.out.printf(Locale.ROOT, "%d files of %d MiB in %s%n", files, bytes >> 20, dir);
  }

  private void run(Path dir, String mode, java.nio.file.Path stopFile, int readers, int writers, long block)
      throws Exception {
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus f : fs.listStatus(dir)) {
      if (f.isFile() && f.getPath().getName().endsWith(".bin")) {
        files.add(f);
      }
    }
    files.sort(null);
    if (files.isEmpty()) {
      throw new IllegalStateException("no files to read under " + dir + " (run RollingLoad prepare first)");
    }
    long[] crcs = new long[files.size()];
    for (int i = 0; i < files.size(); i++) {
      FileStatus f = files.get(i);
      crcs[i] = crc(contents(f.getPath().getName(), f.getLen()));
      Set<String> hosts = new LinkedHashSet<>();
      for (BlockLocation l : fs.getFileBlockLocations(f, 0, f.getLen())) {
        hosts.addAll(Arrays.asList(l.getHosts()));
      }
      log.println("loc\t" + f.getPath().getName() + "\t" + String.join(",", hosts));
    }
    Path writeDir = new Path(dir.getParent(), dir.getName() + "-writes");
    fs.mkdirs(writeDir);
    for (int r = 0; r < readers; r++) {
      int first = r;
      start("reader-" + r, () -> readLoop(files, crcs, first));
    }
    for (int w = 0; w < writers; w++) {
      String prefix = mode + "-" + w + "-";
      start("writer-" + w, () -> writeLoop(writeDir, prefix, 2 * block));
    }
    while (!Files.exists(stopFile)) {
      Thread.sleep(200);
    }
    stop = true;
    long deadline = System.nanoTime() + WAIT_FOR_WORKERS_S * 1_000_000_000L;
    for (Thread t : workers) {
      t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    }
    for (String op : running) {
      log.println(op + "\t" + System.currentTimeMillis() + "\thung\tstill running " + WAIT_FOR_WORKERS_S
          + " s after the load was told to stop");
    }
    if (fs instanceof org.pocache.hdfs.client.PoCacheFileSystem) {
      org.pocache.hdfs.client.PoCacheFileSystem pf = (org.pocache.hdfs.client.PoCacheFileSystem) fs;
      log.println("stats\tproactive_opens=" + pf.proactiveOpens() + "\tfallbacks=" + pf.fallbacks());
    }
    log.flush();
    if (!running.isEmpty()) {
      System.exit(3);
    }
  }

  private void start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    workers.add(t);
    t.start();
  }

  private void readLoop(List<FileStatus> files, long[] crcs, int first) {
    for (int n = first; !stop; n++) {
      FileStatus f = files.get(n % files.size());
      String pattern = (n / files.size()) % 2 == 0 ? "seq" : "pread"; // each file read both ways in turn
      String head = "read\t" + pattern + "\t" + f.getPath().getName() + "\t" + System.currentTimeMillis();
      running.add(head);
      String result;
      try {
        long crc = pattern.equals("seq") ? readSequential(f) : readPositional(f);
        result = crc == crcs[n % files.size()] ? "ok\t" : "wrong\tcrc " + Long.toHexString(crc) + " instead of "
            + Long.toHexString(crcs[n % files.size()]);
      } catch (Exception | LinkageError e) {
        result = "failed\t" + oneLine(e);
      }
      running.remove(head);
      log.println(head + "\t" + System.currentTimeMillis() + "\t" + result);
    }
  }

  private void writeLoop(Path dir, String prefix, long bytes) {
    for (int n = 0; !stop; n++) {
      Path p = new Path(dir, prefix + n + ".bin");
      byte[] want = contents(p.getName(), bytes);
      String head = "write\twhole\t" + p.getName() + "\t" + System.currentTimeMillis();
      running.add(head);
      String result;
      try (FSDataOutputStream out = fs.create(p, true)) {
        out.write(want);
        out.close();
        result = "ok\t";
      } catch (Exception | LinkageError e) {
        result = "failed\t" + oneLine(e);
      }
      running.remove(head);
      log.println(head + "\t" + System.currentTimeMillis() + "\t" + result);
      if (!result.startsWith("ok")) {
        continue;
      }
      head = "readback\tpread\t" + p.getName() + "\t" + System.currentTimeMillis();
      running.add(head);
      try {
        long crc = readPositional(fs.getFileStatus(p));
        result = crc == crc(want) ? "ok\t" : "wrong\tcrc " + Long.toHexString(crc) + " instead of "
            + Long.toHexString(crc(want));
        fs.delete(p, false);
      } catch (Exception | LinkageError e) {
        result = "failed\t" + oneLine(e);
      }
      running.remove(head);
      log.println(head + "\t" + System.currentTimeMillis() + "\t" + result);
    }
  }

  private long readSequential(FileStatus f) throws IOException {
    CRC32 crc = new CRC32();
    byte[] b = new byte[64 << 10];
    long total = 0;
    try (FSDataInputStream in = fs.open(f.getPath())) {
      for (int n; (n = in.read(b, 0, b.length)) > 0; ) {
        crc.update(b, 0, n);
        total += n;
      }
    }
    if (total != f.getLen()) {
      throw new IOException("read " + total + " of " + f.getLen() + " bytes of " + f.getPath());
    }
    return crc.getValue();
  }

  private long readPositional(FileStatus f) throws IOException {
    byte[] b = new byte[(int) f.getLen()];
    try (FSDataInputStream in = fs.open(f.getPath())) {
      in.readFully(0, b);
    }
    return crc(b);
  }

  /** The bytes a file of this name holds: a fixed function of the name. */
  static byte[] contents(String name, long bytes) {
    byte[] b = new byte[Math.toIntExact(bytes)];
    new Random(name.hashCode() * 0x9E3779B97F4A7C15L).nextBytes(b);
    return b;
  }

  private static long crc(byte[] b) {
    CRC32 c = new CRC32();
    c.update(b, 0, b.length);
    return c.getValue();
  }

  private static String oneLine(Throwable e) {
    String m = e.getClass().getSimpleName() + ": " + e.getMessage();
    return m.replaceAll("\\s+", " ");
  }

  private static int positive(String what, String v) {
    int n = count(what, v);
    if (n == 0) {
      usage(what + " must be at least 1");
    }
    return n;
  }

  private static int count(String what, String v) {
    try {
      int n = Integer.parseInt(v);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through to the message
    }
    usage(what + " must be a whole number, got '" + v + "'");
    return 0;
  }

  private static void usage(String why) {
    System.err.println("RollingLoad: " + why);
    System.err.println("usage: RollingLoad prepare --dir D [--files 6] [--mib 64] [--block-mib 16]");
    System.err.println("       RollingLoad run --dir D --mode vanilla|pocache --stop-file F --log F"
        + " [--readers 1] [--writers 1]");
    System.exit(2);
  }
}
