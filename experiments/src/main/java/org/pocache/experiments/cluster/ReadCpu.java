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
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The client CPU a read costs: one JVM, one file system (stock HDFS or POCache, chosen
 * by {@code --mode}; the cluster's site files decide everything else), every access
 * pattern over every file of the given directories, and the process CPU time (user +
 * system, all threads: the caller's, the read pool's, the Manager client's) the JVM
 * spent per GiB read. Each pattern is read at least {@code --warmup} rounds (default 2) to
 * warm up (JIT, connections, buffer pools), and on until the JIT compiler threads took
 * under 5% of a round's CPU (at most 10 rounds); then {@code --rounds} rounds are
 * measured, each reading the files as many times as it takes to read {@code --min-mib}
 * (default 512 MiB). The JVM's own CPU between rounds (GC, timers) counts, as it does for
 * any reading process; what the JIT threads still spent in a measured round is reported
 * beside it ({@code jit_s_per_gib}), and so is the CPU they spent over the whole JVM
 * ({@code jit_s_total}): compiling the read path is paid once per JVM, not per byte. Run
 * by {@code scripts/pocache bench read-cpu}, which alternates stock and POCache JVMs and
 * takes medians over runs.
 *
 * <pre>
 *   seq4k seq64k seq1m   read(byte[]) calls of 4 KiB, 64 KiB, 1 MiB front to back
 *   seq100               read(byte[]) calls of 100 bytes front to back (TeraSort's record reader)
 *   bytebuffer           read(ByteBuffer) into a 64 KiB heap buffer front to back
 *   pread                one positional readFully of the whole file
 *   pread4m              positional readFully calls of 4 MiB, front to back
 *   write                (with --write-mib) files written in 64 KiB calls, then deleted
 *   write-stripe         (with --write-stripe-mib) the same, files of one full stripe (k blocks)
 * </pre>
 *
 * Bytes are summed, not hashed: the benchmark itself should cost next to nothing;
 * correctness is what the read experiments and tests check.
 */
public final class ReadCpu {
  private static final java.lang.management.OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

  private ReadCpu() {
  }

  public static void main(String[] args) throws Exception {
    String mode = null;
    List<String> dirs = new ArrayList<>();
    List<String> patterns = Arrays.asList("seq4k", "seq64k", "seq1m", "bytebuffer", "pread", "pread4m");
    int rounds = 3;
    long minBytes = 512L << 20;
    int warmup = 2;
    int writeMib = 0; // per file, 4 files a round
    int stripeMib = 0; // the same with files of one full stripe
    String writeDir = "/ex/cpu/writes";
    String json = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--mode":
          mode = value(args, ++i);
          break;
        case "--dir":
          dirs.add(value(args, ++i));
          break;
        case "--patterns":
          patterns = Arrays.asList(value(args, ++i).split(","));
          break;
        case "--rounds":
          rounds = (int) number(args, ++i);
          break;
        case "--warmup":
          warmup = (int) number(args, ++i);
          break;
        case "--min-mib":
          minBytes = number(args, ++i) << 20;
          break;
        case "--write-mib":
          writeMib = (int) number(args, ++i);
          break;
        case "--write-stripe-mib":
          stripeMib = (int) number(args, ++i);
          break;
        case "--write-dir":
          writeDir = value(args, ++i);
          break;
        case "--json":
          json = value(args, ++i);
          break;
        default:
          usage("unknown option '" + args[i] + "'");
      }
    }
    if (!"stock".equals(mode) && !"pocache".equals(mode)) {
      usage("--mode must be stock or pocache, got '" + mode + "'");
    }
    if (rounds < 1) {
      usage("--rounds must be at least 1, got " + rounds);
    }
    if (minBytes < 1) {
      usage("--min-mib must be at least 1, got " + (minBytes >> 20));
    }
    for (String p : patterns) {
      if (!Arrays.asList("seq100", "seq4k", "seq64k", "seq1m", "bytebuffer", "pread", "pread4m").contains(p)) {
        usage("unknown pattern '" + p + "'");
      }
    }
    if (!(OS instanceof com.sun.management.OperatingSystemMXBean)) {
      throw new IllegalStateException("this JVM does not report its process CPU time"
          + " (com.sun.management.OperatingSystemMXBean)");
    }
    Configuration conf = new Configuration();
    conf.set("fs.hdfs.impl", "stock".equals(mode) ? "org.apache.hadoop.hdfs.DistributedFileSystem"
        : "org.pocache.hdfs.client.PoCacheFileSystem");
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    URI uri = FileSystem.getDefaultUri(conf);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("mode", mode);
    out.put("rounds", rounds);
    List<Map<String, Object>> rows = new ArrayList<>();
    try (FileSystem fs = FileSystem.get(uri, conf)) {
      for (String dir : dirs) {
        FileStatus[] files = fs.listStatus(new Path(dir));
        Arrays.sort(files);
        long bytes = 0;
        for (FileStatus f : files) {
          bytes += f.getLen();
        }
        if (bytes == 0) {
          throw new IllegalStateException(dir + " holds no data to read");
        }
        // A measured round reads the files as often as it takes to read minBytes: the
        // process CPU clock ticks in 10 ms steps, and a round should last seconds.
        int passes = (int) Math.max(1, (minBytes + bytes - 1) / bytes);
        for (String pattern : patterns) {
          // Warm-up rounds: the JIT compiles a read path over the first GiB or so (POCache's,
          // being longer, later than HDFS's); measured before that, CPU per GiB is the compiler's.
          // And on until the compiler is done with it: a round whose JIT threads took under
          // 2% of its CPU, or MAX_WARMUP rounds. Measured with the compiler still at work,
          // the longer path pays for its compiling (and for running its not yet compiled code).
          int warmed = 0;
          while (warmed < MAX_WARMUP) {
            long c0 = cpuNanos();
            long j0 = jitNanos();
            for (int p = 0; p < passes; p++) {
              readAll(fs, files, pattern);
            }
            warmed++;
            double share = (jitNanos() - j0) / (double) Math.max(1, cpuNanos() - c0);
            if (warmed >= warmup && share < QUIET_JIT) {
              break;
            }
          }
          List<Double> cpu = new ArrayList<>();
          List<Double> jit = new ArrayList<>();
          List<Double> wall = new ArrayList<>();
          long[] before = counters(fs);
          for (int r = 0; r < rounds; r++) {
            long c0 = cpuNanos();
            long j0 = jitNanos();
            long t0 = System.nanoTime();
            long n = 0;
            for (int p = 0; p < passes; p++) {
              n += readAll(fs, files, pattern);
            }
            long t1 = System.nanoTime();
            long c1 = cpuNanos();
            long j1 = jitNanos();
            if (n != bytes * passes) {
              throw new IllegalStateException(mode + " " + pattern + " read " + n + " bytes of " + dir
                  + ", expected " + bytes * passes);
            }
            cpu.add((c1 - c0) / 1e9 / (n / 1073741824.0));
            jit.add((j1 - j0) / 1e9 / (n / 1073741824.0));
            wall.add((t1 - t0) / 1e6 / passes);
          }
          Map<String, Object> row = row(dir, pattern, bytes, cpu, jit, wall);
          row.put("warmup_rounds", warmed);
          if (before != null) {
            long[] after = counters(fs);
            Map<String, Object> c = new LinkedHashMap<>();
            for (int x = 0; x < COUNTERS.length; x++) {
              c.put(COUNTERS[x], after[x] - before[x]);
            }
            row.put("pocache_counters", c);
            System.out.println("    " + c);
          }
          rows.add(row);
        }
      }
      if (writeMib > 0) {
        writeRows(fs, writeDir, writeMib, rounds, rows, "write");
      }
      if (stripeMib > 0) {
        writeRows(fs, writeDir, stripeMib, rounds, rows, "write-stripe");
      }
      if (fs instanceof org.pocache.hdfs.client.PoCacheFileSystem) {
        org.pocache.hdfs.client.PoCacheFileSystem pf = (org.pocache.hdfs.client.PoCacheFileSystem) fs;
        out.put("proactive_opens", pf.proactiveOpens());
        out.put("fallbacks", pf.fallbacks());
      }
    }
    out.put("jit_s_total", jitNanos() / 1e9);
    out.put("rows", rows);
    if (json != null) {
      try (Writer w = new OutputStreamWriter(new FileOutputStream(json), StandardCharsets.UTF_8)) {
        w.write(ClusterReads.Json.of(out));
        w.write('\n');
      }
    }
  }

  private static Map<String, Object> row(String dir, String pattern, long bytes, List<Double> cpu, List<Double> jit,
      List<Double> wall) {
    List<Double> steady = new ArrayList<>();
    for (int r = 0; r < cpu.size(); r++) {
      steady.add(cpu.get(r) - jit.get(r));
    }
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("dir", dir);
    row.put("pattern", pattern);
    row.put("bytes", bytes);
    row.put("cpu_s_per_gib", cpu);
    row.put("jit_s_per_gib", jit);
    row.put("cpu_s_per_gib_without_jit", steady);
    row.put("wall_ms", wall);
    row.put("cpu_s_per_gib_median", ClusterReads.median(cpu));
    row.put("jit_s_per_gib_median", ClusterReads.median(jit));
    row.put("cpu_s_per_gib_without_jit_median", ClusterReads.median(steady));
    row.put("wall_ms_median", ClusterReads.median(wall));
    System.out.printf(Locale.ROOT, "%-26s %-10s %7.3f s CPU per GiB (%5.3f of it the JIT's)  %8.1f ms%n", dir, pattern,
        ClusterReads.median(cpu), ClusterReads.median(jit), ClusterReads.median(wall));
    return row;
  }

  /** Four files of writeMib MiB each per round, 64 KiB write calls; deleted after the round. */
  private static void writeRows(FileSystem fs, String dir, int writeMib, int rounds, List<Map<String, Object>> rows,
      String pattern) throws IOException {
    byte[] data = new byte[64 << 10];
    new Random(7).nextBytes(data);
    long perFile = (long) writeMib << 20;
    int files = 4;
    List<Double> cpu = new ArrayList<>();
    List<Double> jit = new ArrayList<>();
    List<Double> wall = new ArrayList<>();
    for (int r = -1; r < rounds; r++) { // round -1 warms up
      Path d = new Path(dir + "/" + ProcessHandle.current().pid() + "-" + r);
      long c0 = cpuNanos();
      long j0 = jitNanos();
      long t0 = System.nanoTime();
      for (int f = 0; f < files; f++) {
        try (FSDataOutputStream o = fs.create(new Path(d, "f" + f), true)) {
          for (long at = 0; at < perFile; at += data.length) {
            data[0] = (byte) (at >>> 16); // no two calls write the same bytes
            o.write(data, 0, data.length);
          }
        }
      }
      long t1 = System.nanoTime();
      long c1 = cpuNanos();
      long j1 = jitNanos();
      fs.delete(d, true);
      if (r >= 0) {
        cpu.add((c1 - c0) / 1e9 / (files * perFile / 1073741824.0));
        jit.add((j1 - j0) / 1e9 / (files * perFile / 1073741824.0));
        wall.add((t1 - t0) / 1e6);
      }
    }
    rows.add(row(dir, pattern, files * perFile, cpu, jit, wall));
  }

  private static final String[] COUNTERS = {"read_substripes", "decoded_substripes", "parity_gets", "skipped_pieces",
      "positional_reads", "fallbacks", "reader_fills"};

  /** POCache's read counters (measured rounds only), or null for stock HDFS. */
  private static long[] counters(FileSystem fs) {
    if (!(fs instanceof org.pocache.hdfs.client.PoCacheFileSystem)) {
      return null;
    }
    org.pocache.hdfs.client.PoCacheFileSystem p = (org.pocache.hdfs.client.PoCacheFileSystem) fs;
    return new long[] {p.readSubstripes(), p.decodedSubstripes(), p.parityGets(), p.skippedPieces(),
        p.positionalReads(), p.fallbacks(), p.readerFills()};
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) OS).getProcessCpuTime();
  }

  /** Warm-up rounds at most, however busy the compiler still is. */
  private static final int MAX_WARMUP = 10;
  /** A warm-up round whose JIT threads took under this share of its CPU ends the warm-up. */
  private static final double QUIET_JIT = 0.05;

  /** Clock ticks per second of /proc's per-thread times (USER_HZ, 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  /**
   * The CPU time (user + system) the JVM's JIT compiler threads have spent so far, from
   * /proc/self/task (threads named "C1 CompilerThre..." and "C2 CompilerThre..."); 0 where
   * there is no /proc. A part of {@link #cpuNanos}: compiling the read path is paid once
   * per JVM, not per byte, and a longer path (POCache's) is compiled later into a run.
   */
  /**
   * The last reading per compiler thread id: the JVM ends idle compiler threads and starts
   * new ones, and an ended thread's time still counts.
   */
  private static final Map<String, Long> COMPILER_TICKS = new java.util.HashMap<>();

  private static long jitNanos() {
    java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
    if (tasks == null) {
      return 0;
    }
    for (java.io.File t : tasks) {
      try {
        String comm = new String(java.nio.file.Files.readAllBytes(new java.io.File(t, "comm").toPath()),
            StandardCharsets.US_ASCII);
        if (!comm.startsWith("C1 CompilerThre") && !comm.startsWith("C2 CompilerThre")) {
          continue;
        }
        String stat = new String(java.nio.file.Files.readAllBytes(new java.io.File(t, "stat").toPath()),
            StandardCharsets.US_ASCII);
        // Fields after the name in parentheses: state is the 3rd, utime the 14th, stime the 15th.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        COMPILER_TICKS.put(t.getName(), Long.parseLong(f[11]) + Long.parseLong(f[12]));
      } catch (IOException | RuntimeException e) {
        // The thread ended between listing and reading: its last reading stands.
      }
    }
    long ticks = 0;
    for (long v : COMPILER_TICKS.values()) {
      ticks += v;
    }
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }

  /** The whole-file pattern's array, kept across reads of files of one length. */
  private static byte[] whole;

  private static long readAll(FileSystem fs, FileStatus[] files, String pattern) throws IOException {
    long n = 0;
    for (FileStatus f : files) {
      n += read(fs, f, pattern);
    }
    return n;
  }

  private static long read(FileSystem fs, FileStatus f, String pattern) throws IOException {
    long n = 0;
    try (FSDataInputStream in = fs.open(f.getPath())) {
      switch (pattern) {
        case "seq100":
        case "seq4k":
        case "seq64k":
        case "seq1m": {
          byte[] b = new byte["seq100".equals(pattern) ? 100 : "seq4k".equals(pattern) ? 4096
              : "seq64k".equals(pattern) ? 65536 : 1 << 20];
          for (int k; (k = in.read(b, 0, b.length)) > 0; ) {
            n += k;
          }
          return n;
        }
        case "bytebuffer": {
          ByteBuffer b = ByteBuffer.allocate(64 << 10);
          for (int k; (k = in.read(b)) > 0; b.clear()) {
            n += k;
          }
          return n;
        }
        case "pread": {
          byte[] b = whole;
          if (b == null || b.length != f.getLen()) {
            b = new byte[(int) f.getLen()];
            whole = b; // the benchmark's own array is not the client's cost
          }
          in.readFully(0, b);
          return b.length;
        }
        case "pread4m": {
          byte[] b = new byte[4 << 20];
          for (long at = 0; at < f.getLen(); at += b.length) {
            int len = (int) Math.min(b.length, f.getLen() - at);
            in.readFully(at, b, 0, len);
            n += len;
          }
          return n;
        }
        default:
          throw new IllegalArgumentException(pattern);
      }
    }
  }

  /** The value after option {@code args[i - 1]}; a usage error if there is none. */
  private static String value(String[] args, int i) {
    if (i >= args.length) {
      usage(args[i - 1] + " needs a value");
    }
    return args[i];
  }

  /** The whole number (at least 0) after option {@code args[i - 1]}; a usage error otherwise. */
  private static long number(String[] args, int i) {
    String v = value(args, i);
    try {
      long n = Long.parseLong(v);
      if (n >= 0 && n <= Integer.MAX_VALUE) {
        return n;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    usage(args[i - 1] + " takes a whole number, got '" + v + "'");
    return 0;
  }

  private static void usage(String why) {
    System.err.println("ReadCpu: " + why);
    System.err.println("Usage: ReadCpu --mode stock|pocache --dir D [--dir D2] [--patterns seq4k,seq64k,seq1m,"
        + "bytebuffer,pread,pread4m] [--rounds N] [--warmup W] [--min-mib M] [--write-mib M] [--write-stripe-mib M]"
        + " [--write-dir D]"
        + " [--json F]");
    System.exit(2);
  }
}
