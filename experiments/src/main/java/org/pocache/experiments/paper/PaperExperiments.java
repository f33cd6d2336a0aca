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
package org.pocache.experiments.paper;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.pocache.experiments.Options;
import org.pocache.experiments.UsageException;

/**
 * {@code pocache experiment expN}: one of the paper's experiments (§5) on the in-process
 * cluster, with its JSON (every latency, and the headline numbers beside the paper's)
 * and its figure. {@code all} runs every one built here, one after another.
 */
public final class PaperExperiments {
  /** The experiments and what each reproduces. */
  static final Map<String, String> BUILT = new LinkedHashMap<>();

  static {
    BUILT.put("exp1", "single-client reads, contiguous, k = 4..10: Vanilla, HR, PR, POCache");
    BUILT.put("exp2", "single-client reads, striped, k = 4..10: Vanilla, POCache");
    BUILT.put("exp3", "skewed workload, Zipf 0.9: Vanilla, HR, SR, POCache; striped Vanilla, POCache");
    BUILT.put("exp4", "multi-size workload (Facebook mix), Zipf 0.9: Vanilla, POCache per layout");
    BUILT.put("exp5", "4, 8 and 12 concurrent clients, each its own JVM: Vanilla, POCache per layout");
    BUILT.put("exp7", "writes by subblock size: encoding, caching, overhead against stock HDFS");
    BUILT.put("exp8", "one 1 MiB subblock from a normal DataNode, a straggler, Redis");
    BUILT.put("exp9", "whole-file reads with a straggler by subblock size");
    BUILT.put("exp11", "straggler hit ratio against cache size, plain policies and CSAC (simulated)");
    BUILT.put("exp12", "read latency by cache size: LRU, LFU, ARC and CSAC with each, on the Manager");
    BUILT.put("exp13", "parity against data caching, exact and wrong straggler estimates (simulated)");
    BUILT.put("exp14", "read latency of cache strategies: SR, DC1, DC2, OR, POCache by cache size");
    BUILT.put("exp15", "prefetching on a straggler that appears mid-run (simulated)");
    BUILT.put("exp16", "stragglers that come and go at random, several strengths");
    BUILT.put("two-stragglers", "beyond the paper: two stragglers at once, m = 1 against m = 2");
    BUILT.put("intermittent", "beyond the paper: a straggler slow half of the time");
    BUILT.put("cache-bytes", "beyond the paper: Exp 4's sizes, a moving straggler, the same cache bytes for"
        + " CSAC+LFU, CSAC+benefit and SP-Cache");
    BUILT.put("late-binding", "beyond the paper: EC-Cache's late binding, k + 1 of k + 2 pieces against POCache's"
        + " k + 2, with one and two stragglers");
  }

  static final String USAGE = String.join("\n",
      "Usage: pocache experiment <name|all> [--json F] [--plot F.png] [--dir D] [--scale small|tiny]",
      "                          [--disk-bandwidth SIZE] [--slowdown S]",
      "  name                 one of: " + String.join(", ", BUILT.keySet()),
      "  all                  every one of them, one after another",
      "  --json F, --plot F   where to write the result and the figure (default: D/expN.json, D/expN.png)",
      "  --dir D              default docs/results/experiments",
      "  --scale small|tiny   small (default) keeps the paper's ratios between sizes on 2 cores; tiny only",
      "                       checks that an experiment runs",
      "  --disk-bandwidth     every DataNode's read bandwidth (default 64m)",
      "  --slowdown S         the straggler serves at 1/S of it (default 10)");

  private PaperExperiments() {
  }

  public static void main(String[] args) {
    if (System.getProperty("log4j.configuration") == null) {
      System.setProperty("log4j.configuration", "pocache-demo-log4j.properties");
    }
    try {
      System.exit(run(args, System.out));
    } catch (UsageException e) {
      System.err.println("pocache experiment: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
    } catch (Exception e) {
      System.err.println("pocache experiment failed: " + e);
      e.printStackTrace();
      System.exit(1);
    }
  }

  /** Runs what {@code args} names; 0 when every experiment ran and verified its bytes. */
  static int run(String[] args, PrintStream out) throws Exception {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      out.println(USAGE);
      return 0;
    }
    String name = args[0];
    Options o = Options.parse(Arrays.copyOfRange(args, 1, args.length), Arrays.asList("json", "plot", "dir", "scale",
        "disk-bandwidth", "slowdown"), Arrays.asList("help"));
    String scaleName = o.string("scale", "small");
    if (!scaleName.equals("small") && !scaleName.equals("tiny")) {
      throw new UsageException("--scale must be small or tiny, got '" + scaleName + "'");
    }
    Scale scale = new Scale(scaleName.equals("tiny"), o.bytes("disk-bandwidth", 64L << 20, 1 << 20),
        o.intValue("slowdown", 10, 2, 1000));
    File dir = new File(o.string("dir", "docs/results/experiments"));
    List<String> todo;
    if (name.equals("all")) {
      if (o.has("json") || o.has("plot")) {
        throw new UsageException("--json and --plot name one experiment's files; with all, use --dir");
      }
      todo = new java.util.ArrayList<>(BUILT.keySet());
    } else if (BUILT.containsKey(name)) {
      todo = java.util.Collections.singletonList(name);
    } else {
      throw new UsageException("unknown experiment '" + name + "'; built: " + String.join(", ", BUILT.keySet()));
    }
    long all = System.nanoTime();
    if (todo.size() > 1) {
      // Each in its own JVM: HDFS 3.1's hedged-read pool is static (once Experiment 1 or 3
      // hedges, every later pread in the JVM would), and each starts with a clean heap.
      for (String id : todo) {
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        int rc = inChildJvm(id, rest);
        if (rc != 0) {
          out.printf(Locale.ROOT, "%s failed (exit %d); stopping%n", id, rc);
          return rc;
        }
      }
      out.printf(Locale.ROOT, "all %d experiments took %.0f s%n", todo.size(), (System.nanoTime() - all) / 1e9);
      return 0;
    }
    for (String id : todo) {
      File json = o.has("json") ? new File(o.string("json", null)) : new File(dir, id + ".json");
      File plot = o.has("plot") ? new File(o.string("plot", null)) : new File(dir, id + ".png");
      out.printf(Locale.ROOT, "== %s: %s (%s scale)%n", id, BUILT.get(id), scale.name());
      long start = System.nanoTime();
      Outcome result = one(id, scale, plot, out);
      double seconds = (System.nanoTime() - start) / 1e9;
      result.put("scale", scale.name());
      result.put("seconds", Math.round(seconds * 10) / 10.0);
      result.put("plot", plot.getName());
      result.put("command", "scripts/pocache experiment " + id + (scale.tiny ? " --scale tiny" : ""));
      result.config("disk_bandwidth_bytes_per_s", scale.diskBandwidth);
      result.config("slowdown", scale.slowdown);
      result.write(json);
      out.printf(Locale.ROOT, "%s took %.0f s; wrote %s and %s%n", id, seconds, json, plot);
    }
    return 0;
  }

  /** Runs {@code pocache experiment id rest...} in a JVM like this one; its exit code. */
  private static int inChildJvm(String id, String[] rest) throws IOException, InterruptedException {
    List<String> cmd = new java.util.ArrayList<>();
    cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    cmd.add("-Xmx" + (Runtime.getRuntime().maxMemory() >> 20) + "m");
    for (String key : new String[] {"pocache.test.dir", "log4j.configuration"}) {
      if (System.getProperty(key) != null) {
        cmd.add("-D" + key + "=" + System.getProperty(key));
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(PaperExperiments.class.getName());
    cmd.add(id);
    cmd.addAll(Arrays.asList(rest));
    return new ProcessBuilder(cmd).inheritIO().start().waitFor();
  }

  private static Outcome one(String id, Scale s, File plot, PrintStream out) throws IOException {
    switch (id) {
      case "exp1":
      case "exp2":
        return SingleClientReads.run(id, s, plot, out);
      case "exp7":
        return Microbenchmarks.exp7(s, plot, out);
      case "exp8":
        return Microbenchmarks.exp8(s, plot, out);
      case "exp9":
        return Microbenchmarks.exp9(s, plot, out);
      case "exp3":
        return SkewedReads.exp3(s, plot, out);
      case "exp4":
        return SkewedReads.exp4(s, plot, out);
      case "exp5":
        return MultiClient.exp5(s, plot, out);
      case "exp12":
        return SkewedReads.exp12(s, plot, out);
      case "exp16":
        return SkewedReads.exp16(s, plot, out);
      case "exp14":
        return CacheStrategies.exp14(s, plot, out);
      case "two-stragglers":
        return BeyondPaper.twoStragglers(s, plot, out);
      case "intermittent":
        return BeyondPaper.intermittent(s, plot, out);
      case "cache-bytes":
        return BeyondPaper.cacheBytes(s, plot, out);
      case "late-binding":
        return BeyondPaper.lateBinding(s, plot, out);
      case "exp11":
      case "exp13":
      case "exp15":
        return SimulatedCaching.run(id, s, plot, out);
      default:
        throw new IllegalArgumentException(id);
    }
  }
}
