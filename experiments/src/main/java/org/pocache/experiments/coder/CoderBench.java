package org.pocache.experiments.coder;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.pocache.coder.IsalCoder;
import org.pocache.experiments.Options;
import org.pocache.experiments.UsageException;

/**
 * {@code pocache bench coder}: a quick, single-threaded throughput measurement of
 * encode, incremental update (all k pieces) and decode (one lost data piece) for
 * ISA-L, the Java coder and Hadoop's RSRawEncoder/RSRawDecoder. GB/s counts data
 * bytes (k subblocks per operation), 10^9 bytes per GB. For careful numbers use
 * the JMH benchmarks (CoderBenchmarks); this is the one-minute look.
 */
public final class CoderBench {
  static final String USAGE = String.join("\n",
      "Usage: pocache bench coder [--json FILE] [--sizes LIST] [--codes LIST] [--millis MS]",
      "  --json FILE    also write {\"results\":[{\"impl\",\"op\",\"k\",\"m\",\"subblock_bytes\",\"gbps\"}, ...]}",
      "  --sizes LIST   subblock sizes, e.g. 64k,256k,1m,4m (default 1m)",
      "  --codes LIST   (k,m) pairs, e.g. 4:1,6:3,10:4 (default 4:1,6:3,10:4)",
      "  --millis MS    measuring time per cell after warm-up (default 400)");

  private static final class Result {
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
    Options o;
    List<Integer> sizes = new ArrayList<>();
    List<int[]> codes = new ArrayList<>();
    long millis;
    try {
      o = Options.parse(args, Arrays.asList("json", "sizes", "codes", "millis"), Arrays.asList("help"));
      if (o.has("help")) {
        System.out.println(USAGE);
        return;
      }
      for (String s : o.string("sizes", "1m").split(",")) {
        long b = Options.parse(new String[] {"--size", s}, Arrays.asList("size"), Arrays.asList())
            .bytes("size", 0, 1);
        if (b > (64 << 20)) {
          throw new UsageException("--sizes entries must be at most 64m, got " + s);
        }
        sizes.add((int) b);
      }
      for (String c : o.string("codes", "4:1,6:3,10:4").split(",")) {
        String[] km = c.split(":");
        try {
          codes.add(new int[] {Integer.parseInt(km[0].trim()), Integer.parseInt(km[1].trim())});
          org.pocache.coder.CodeParameters.of(codes.get(codes.size() - 1)[0], codes.get(codes.size() - 1)[1]);
        } catch (RuntimeException e) {
          throw new UsageException("--codes entries must be k:m with 2 <= k <= 32 and 1 <= m <= 4, got '" + c + "'");
        }
      }
      millis = o.intValue("millis", 400, 10, 600_000);
    } catch (UsageException e) {
      System.err.println("pocache bench coder: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }

    System.out.println("ISA-L: " + (IsalCoder.isAvailable() ? "loaded from " : "not available: ")
        + IsalCoder.status());
    System.out.printf(Locale.ROOT, "%-10s %-7s %6s %12s %10s%n", "impl", "op", "(k,m)", "subblock", "GB/s");
    List<Result> results = new ArrayList<>();
    for (int size : sizes) {
      for (int[] km : codes) {
        for (String impl : CoderUnderTest.IMPLEMENTATIONS) {
          if (impl.equals("isal") && !IsalCoder.isAvailable()) {
            continue;
          }
          try (CoderUnderTest c = new CoderUnderTest(impl, km[0], km[1], size)) {
            for (String op : CoderUnderTest.OPERATIONS) {
              if (!c.supports(op)) {
                continue;
              }
              double gbps = measure(c, op, millis);
              results.add(new Result(impl, op, km[0], km[1], size, gbps));
              System.out.printf(Locale.ROOT, "%-10s %-7s %6s %12d %10.2f%n", impl, op,
                  "(" + km[0] + "," + km[1] + ")", size, gbps);
            }
          }
        }
      }
    }
    printTargets(results);
    if (o.has("json")) {
      writeJson(new File(o.string("json", null)), results);
    }
  }

  /** Warms up for a quarter of the time, then runs whole operations for {@code millis}. */
  static double measure(CoderUnderTest c, String op, long millis) {
    long warmEnd = System.nanoTime() + millis * 250_000L;
    while (System.nanoTime() < warmEnd) {
      c.run(op);
    }
    c.verify(op);
    long ops = 0;
    long start = System.nanoTime();
    long end = start + millis * 1_000_000L;
    long now;
    do {
      c.run(op);
      ops++;
      now = System.nanoTime();
    } while (now < end);
    return ops * (double) c.bytesPerOp() / (now - start);
  }

  private static double find(List<Result> rs, String impl, String op, int k, int m, int size) {
    for (Result r : rs) {
      if (r.impl.equals(impl) && r.op.equals(op) && r.k == k && r.m == m && r.size == size) {
        return r.gbps;
      }
    }
    return Double.NaN;
  }

  /** The [2/6] targets, for a reader's convenience: numbers, not assertions. */
  private static void printTargets(List<Result> rs) {
    int mib = 1 << 20;
    System.out.println();
    System.out.println("targets at (4,1), 1 MiB subblocks, one thread:");
    target("ISA-L encode >= 15 GB/s", find(rs, "isal", "encode", 4, 1, mib), 15);
    target("ISA-L decode of one lost data piece >= 10 GB/s", find(rs, "isal", "decode", 4, 1, mib), 10);
    target("ISA-L update of all k pieces >= 0.7x encode",
        find(rs, "isal", "update", 4, 1, mib) / find(rs, "isal", "encode", 4, 1, mib), 0.7);
    target("Java update of all k pieces >= 0.7x encode",
        find(rs, "java", "update", 4, 1, mib) / find(rs, "java", "encode", 4, 1, mib), 0.7);
    target("Java encode >= 1.5x Hadoop RSRawEncoder",
        find(rs, "java", "encode", 4, 1, mib) / find(rs, "hadoop-rs", "encode", 4, 1, mib), 1.5);
  }

  private static void target(String what, double value, double goal) {
    String verdict = Double.isNaN(value) ? "not measured" : value >= goal ? "met" : "MISSED";
    System.out.printf(Locale.ROOT, "  %-50s %8.2f  %s%n", what, value, verdict);
  }

  private static void writeJson(File f, List<Result> rs) throws Exception {
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
