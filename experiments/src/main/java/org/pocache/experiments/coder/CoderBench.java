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
package org.pocache.experiments.coder;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.pocache.coder.CodeParameters;
import org.pocache.coder.IsalCoder;
import org.pocache.experiments.Options;
import org.pocache.experiments.UsageException;

/**
 * {@code pocache bench coder}: single-threaded throughput of encode, incremental
 * update of all k pieces, and decode of one lost data piece, for ISA-L, the Java
 * coder and Hadoop's RSRawEncoder/RSRawDecoder, measured by the JMH benchmarks in
 * {@link CoderBenchmarks} (each in its own forked JVM, so one coder's JIT profile
 * cannot skew another's). GB/s counts data bytes: k subblocks per operation, 10^9
 * bytes per GB. Default: 1 MiB subblocks and short iterations (about a minute);
 * {@code --full} runs 64 KiB to 4 MiB with longer iterations.
 */
public final class CoderBench {
  static final String USAGE = String.join("\n",
      "Usage: pocache bench coder [--json FILE] [--full] [--sizes LIST] [--codes LIST] [--impls LIST]",
      "  --json FILE    also write {\"results\":[{\"impl\",\"op\",\"k\",\"m\",\"subblock_bytes\",\"gbps\"}, ...]}",
      "  --full         all subblock sizes (64k,256k,1m,4m) and longer JMH iterations",
      "  --sizes LIST   subblock sizes, e.g. 64k,1m (default 1m)",
      "  --codes LIST   (k,m) pairs, e.g. 4:1,6:3,10:4 (the default)",
      "  --impls LIST   any of isal,java,hadoop-rs (default: all available)");

  /** One measured cell. */
  static final class Result {
    final String impl;
    final String op;
    final int k;
    final int m;
    final int size;
    final double gbps;

    Result(String impl, String op, int k, int m, int size, double gbps) {
      this.impl = impl;
      this.op = op;
      this.k = k;
      this.m = m;
      this.size = size;
      this.gbps = gbps;
    }
  }

  public static void main(String[] args) throws Exception {
    List<String> sizes = new ArrayList<>();
    List<String> codes = new ArrayList<>();
    List<String> impls = new ArrayList<>();
    Options o;
    try {
      o = Options.parse(args, Arrays.asList("json", "sizes", "codes", "impls"), Arrays.asList("help", "full"));
      if (o.has("help")) {
        System.out.println(USAGE);
        return;
      }
      String sizeList = o.has("full") ? "64k,256k,1m,4m" : "1m";
      for (String s : o.string("sizes", sizeList).split(",")) {
        long b = Options.parseBytes(s);
        if (b < 1 || b > (64 << 20)) {
          throw new UsageException("--sizes entries must be between 1 and 64m, got " + s);
        }
        sizes.add(Long.toString(b));
      }
      for (String c : o.string("codes", "4:1,6:3,10:4").split(",")) {
        String[] km = c.trim().split(":");
        try {
          CodeParameters.of(Integer.parseInt(km[0]), Integer.parseInt(km[1]));
        } catch (RuntimeException e) {
          throw new UsageException("--codes entries must be k:m with 2 <= k <= 32, 1 <= m <= 4, got '" + c + "'");
        }
        codes.add(c.trim());
      }
      for (String i : o.string("impls", String.join(",", CoderUnderTest.IMPLEMENTATIONS)).split(",")) {
        if (!Arrays.asList(CoderUnderTest.IMPLEMENTATIONS).contains(i.trim())) {
          throw new UsageException("--impls entries must be isal, java or hadoop-rs, got '" + i + "'");
        }
        if (!i.trim().equals("isal") || IsalCoder.isAvailable()) {
          impls.add(i.trim());
        }
      }
    } catch (UsageException | NumberFormatException e) {
      System.err.println("pocache bench coder: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    System.out.println("ISA-L: " + (IsalCoder.isAvailable() ? "loaded from " : "not available, skipped: ")
        + IsalCoder.status());
    boolean full = o.has("full");
    List<Result> results = new ArrayList<>();
    List<String> updaters = new ArrayList<>(impls);
    updaters.remove("hadoop-rs"); // Hadoop's coder has no incremental update
    run("encode|decode", impls, codes, sizes, full, results);
    if (!updaters.isEmpty()) {
      run("update", updaters, codes, sizes, full, results);
    }
    print(results);
    if (o.has("json")) {
      writeJson(new File(o.string("json", null)), results);
    }
  }

  private static void run(String ops, List<String> impls, List<String> codes, List<String> sizes, boolean full,
      List<Result> out) throws Exception {
    ChainedOptionsBuilder b = new OptionsBuilder()
        .include(CoderBenchmarks.class.getName() + "\\.(" + ops + ")$")
        .param("impl", impls.toArray(new String[0]))
        .param("code", codes.toArray(new String[0]))
        .param("subblockBytes", sizes.toArray(new String[0]))
        .forks(1)
        .warmupIterations(full ? 3 : 2)
        .warmupTime(TimeValue.milliseconds(full ? 1000 : 300))
        .measurementIterations(full ? 5 : 3)
        .measurementTime(TimeValue.milliseconds(full ? 1000 : 300))
        .verbosity(VerboseMode.SILENT);
    int cells = impls.size() * codes.size() * sizes.size() * (ops.contains("|") ? 2 : 1);
    System.out.printf(Locale.ROOT, "running %d JMH benchmarks (%s), one forked JVM each...%n", cells, ops);
    Collection<RunResult> rs = new Runner(b.build()).run();
    for (RunResult r : rs) {
      String label = r.getParams().getBenchmark();
      String op = label.substring(label.lastIndexOf('.') + 1);
      String code = r.getParams().getParam("code");
      int size = Integer.parseInt(r.getParams().getParam("subblockBytes"));
      String[] km = code.split(":");
      double opsPerSecond = r.getPrimaryResult().getScore();
      out.add(new Result(r.getParams().getParam("impl"), op, Integer.parseInt(km[0]), Integer.parseInt(km[1]), size,
          opsPerSecond * CoderBenchmarks.bytesPerOp(code, size) / 1e9));
    }
  }

  private static void print(List<Result> rs) {
    rs.sort((a, b) -> a.size != b.size ? Integer.compare(a.size, b.size)
        : a.k != b.k ? Integer.compare(a.k, b.k) : a.op.equals(b.op) ? a.impl.compareTo(b.impl) : a.op.compareTo(b.op));
    System.out.printf(Locale.ROOT, "%n%-10s %-7s %7s %12s %10s%n", "impl", "op", "(k,m)", "subblock", "GB/s");
    for (Result r : rs) {
      System.out.printf(Locale.ROOT, "%-10s %-7s %7s %12d %10.2f%n", r.impl, r.op, "(" + r.k + "," + r.m + ")",
          r.size, r.gbps);
    }
    int mib = 1 << 20;
    System.out.println();
    System.out.println("targets at (4,1), 1 MiB subblocks, one thread (numbers, not assertions):");
    target("ISA-L encode >= 15 GB/s", find(rs, "isal", "encode", mib), 15);
    target("ISA-L decode of one lost data piece >= 10 GB/s", find(rs, "isal", "decode", mib), 10);
    target("ISA-L update of all k pieces >= 0.7x encode",
        find(rs, "isal", "update", mib) / find(rs, "isal", "encode", mib), 0.7);
    target("Java update of all k pieces >= 0.7x encode",
        find(rs, "java", "update", mib) / find(rs, "java", "encode", mib), 0.7);
    target("Java encode >= 1.5x Hadoop RSRawEncoder",
        find(rs, "java", "encode", mib) / find(rs, "hadoop-rs", "encode", mib), 1.5);
  }

  private static double find(List<Result> rs, String impl, String op, int size) {
    for (Result r : rs) {
      if (r.impl.equals(impl) && r.op.equals(op) && r.k == 4 && r.m == 1 && r.size == size) {
        return r.gbps;
      }
    }
    return Double.NaN;
  }

  private static void target(String what, double value, double goal) {
    String verdict = Double.isNaN(value) ? "not measured" : value >= goal ? "met" : "MISSED";
    System.out.printf(Locale.ROOT, "  %-50s %8.2f  %s%n", what, value, verdict);
  }

  static void writeJson(File f, List<Result> rs) throws Exception {
    StringBuilder sb = new StringBuilder("{\"results\":[\n");
    for (int i = 0; i < rs.size(); i++) {
      Result r = rs.get(i);
      sb.append(String.format(Locale.ROOT,
          "  {\"impl\":\"%s\",\"op\":\"%s\",\"k\":%d,\"m\":%d,\"subblock_bytes\":%d,\"gbps\":%.3f}%s%n",
          r.impl, r.op, r.k, r.m, r.size, r.gbps, i + 1 < rs.size() ? "," : ""));
    }
    sb.append("]}\n");
    File parent = f.getAbsoluteFile().getParentFile();
    if (parent != null) {
      Files.createDirectories(parent.toPath());
    }
    Files.write(f.toPath(), sb.toString().getBytes(StandardCharsets.UTF_8));
    System.out.println("wrote " + f);
  }
}
