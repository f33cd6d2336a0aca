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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.pocache.experiments.BaselineDriver;
import org.pocache.experiments.LatencyStats;
import org.pocache.experiments.ResultTable;
import org.pocache.experiments.UsageException;

/**
 * Experiments 1 and 2: one client reads whole files of k blocks, k = 4, 6, 8, 10, without
 * and with one straggler: contiguous (Vanilla, HR, PR, POCache) and striped (Vanilla,
 * POCache). Each k is one run of the demo's driver, whose rows both experiments use.
 */
final class SingleClientReads {
  private SingleClientReads() {
  }

  static Outcome run(String id, Scale s, File plot, PrintStream out) throws IOException {
    boolean striped = id.equals("exp2");
    int[] ks = s.tiny ? new int[] {4} : new int[] {4, 6, 8, 10};
    String block = s.tiny ? "1m" : "4m";
    int files = s.tiny ? 1 : 2;
    int repeats = s.tiny ? 1 : 5;
    String paper = striped
        ? "files of k blocks (k = 4, 6, 8, 10) of 64 MiB, striped by HDFS's RS policies, one straggler by stress -i 1,"
            + " ten runs"
        : "files of k blocks (k = 4, 6, 8, 10) of 64 MiB, one per DataNode (HR: k + 1 DataNodes, two replicas), one"
            + " straggler by stress -i 1, ten runs";
    String here = String.format(Locale.ROOT, "blocks of %s, %d files x %d reads per row, DataNodes paced at %d MiB/s,"
        + " the straggler at 1/%d", block, files, repeats, s.diskBandwidth >> 20, s.slowdown)
        + (striped ? "; RS-k-m as HDFS ships it (RS-6-3, RS-10-4) or RS-k-2" : "");
    Outcome o = new Outcome(id, striped ? "Single-client reads, striped layout"
        : "Single-client reads, contiguous layout", paper, here);
    List<String> modes = striped ? Arrays.asList("vanilla", "pocache") : Arrays.asList("vanilla", "hr",
        "hr-default", "pr", "pocache");
    String layout = striped ? "striped" : "contiguous";
    List<ResultTable> tables = new ArrayList<>();
    for (int ki = 0; ki < ks.length; ki++) {
      BaselineDriver.Config c;
      try {
        c = BaselineDriver.Config.parse(withHrDefault(!striped, new String[] {"--k", Integer.toString(ks[ki]),
            "--block-size", block, "--files", Integer.toString(files), "--repeats", Integer.toString(repeats),
            "--write-size", "0",
            "--disk-bandwidth", Long.toString(s.diskBandwidth), "--slowdown", Integer.toString(s.slowdown)}));
      } catch (UsageException e) {
        throw new IllegalStateException(e);
      }
      ResultTable t;
      try {
        t = BaselineDriver.run(c, out);
      } catch (IOException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException(id + " at k = " + ks[ki] + ": " + e, e);
      }
      if (!t.bytesVerified()) {
        throw new IOException(id + " at k = " + ks[ki] + ": a read returned wrong bytes");
      }
      tables.add(t);
    }
    summarize(o, striped, ks, modes, (st, mi, ki) -> tables.get(ki).find(modes.get(mi), layout, st == 1).latencies(),
        plot, striped ? "Exp 2" : "Exp 1");
    return o;
  }

  /** The read latencies of mode {@code mi} at k = ks[ki], without (st 0) or with (st 1) the straggler. */
  interface Latencies {
    double[] of(int st, int mi, int ki) throws IOException;
  }

  /**
   * Experiment 1's or 2's rows, headline numbers beside the paper's, and figures (one
   * straggler; none) from every mode's latencies at each k; shared by the in-process and
   * the multi-process runs.
   */
  static void summarize(Outcome o, boolean striped, int[] ks, List<String> modes, Latencies latencies, File plot,
      String chart) throws IOException {
    // [straggler 0/1][mode][k]
    double[][][] mean = new double[2][modes.size()][ks.length];
    double[][][] sd = new double[2][modes.size()][ks.length];
    for (int ki = 0; ki < ks.length; ki++) {
      for (int st = 0; st < 2; st++) {
        for (int mi = 0; mi < modes.size(); mi++) {
          double[] ms = latencies.of(st, mi, ki);
          LatencyStats stats = new LatencyStats(ms);
          mean[st][mi][ki] = stats.mean();
          sd[st][mi][ki] = Microbenchmarks.stddev(ms);
          Map<String, Object> row = o.row();
          row.put("k", ks[ki]);
          row.put("mode", modes.get(mi));
          row.put("straggler", st == 1);
          row.put("mean_ms", mean[st][mi][ki]);
          row.put("stddev_ms", sd[st][mi][ki]);
          row.put("p95_ms", stats.percentile(95));
          row.put("latencies_ms", ms);
        }
      }
    }
    int van = modes.indexOf("vanilla");
    int poc = modes.indexOf("pocache");
    double[] cut = range(mean[1][poc], mean[1][van]);
    if (striped) {
      o.headline("POCache below Vanilla with a straggler (lowest over k)", "73.0-87.9%", 73.0, 87.9, cut[0], "%")
          .headline("POCache below Vanilla with a straggler (highest over k)", "73.0-87.9%", 73.0, 87.9, cut[1], "%");
      double[] slow = new double[ks.length];
      for (int ki = 0; ki < ks.length; ki++) {
        slow[ki] = mean[1][van][ki] / mean[0][van][ki];
      }
      o.headline("Vanilla with / without a straggler (mean over k)", "about 5x", 5, 5, avg(slow), "x");
    } else {
      int hr = modes.indexOf("hr");
      double[] cutHr = range(mean[1][poc], mean[1][hr]);
      o.headline("POCache below Vanilla with a straggler (lowest over k)", "81.7-85.2%", 81.7, 85.2, cut[0], "%")
          .headline("POCache below Vanilla with a straggler (highest over k)", "81.7-85.2%", 81.7, 85.2, cut[1], "%")
          .headline("POCache below HR with a straggler (lowest over k)", "40.4-77.5%", 40.4, 77.5, cutHr[0], "%")
          .headline("POCache below HR with a straggler (highest over k)", "40.4-77.5%", 40.4, 77.5, cutHr[1], "%");
      double[] hrOverVanilla = new double[ks.length];
      for (int ki = 0; ki < ks.length; ki++) {
        hrOverVanilla[ki] = mean[0][hr][ki] / mean[0][van][ki];
      }
      o.headline("HR / Vanilla without a straggler (mean over k)", "above 1", 1, Double.NaN, avg(hrOverVanilla),
          "x");
      int hrd = modes.indexOf("hr-default");
      double[] cutHrd = range(mean[1][poc], mean[1][hrd]);
      o.headline("POCache below HR at HDFS's default threshold, with a straggler (lowest over k)", "40.4-77.5%"
          + " (the paper's HR: threshold 0)", 40.4, 77.5, cutHrd[0], "%");
    }
    double[] withOverWithout = new double[ks.length];
    for (int ki = 0; ki < ks.length; ki++) {
      withOverWithout[ki] = mean[1][poc][ki] / mean[0][poc][ki];
    }
    o.headline("POCache with / without a straggler (mean over k; not in the paper)", "-", Double.NaN, Double.NaN,
        avg(withOverWithout), "x");
    List<String> groups = new ArrayList<>();
    for (int k : ks) {
      groups.add("k = " + k);
    }
    Charts.bars(plot, chart + ": one straggler (mean, error bar: sd)", "read latency (ms)", groups, modes, mean[1],
        sd[1]);
    Charts.bars(sibling(plot, "-no-straggler"), chart + ": no straggler (mean, error bar: sd)", "read latency (ms)",
        groups, modes, mean[0], sd[0]);
    o.config("k", ks);
  }

  private static String[] withHrDefault(boolean add, String[] args) {
    if (!add) {
      return args;
    }
    String[] more = Arrays.copyOf(args, args.length + 1);
    more[args.length] = "--hr-default";
    return more;
  }

  /** Reductions 100 (1 - ours / base) per k: {lowest, highest}. */
  static double[] range(double[] ours, double[] base) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < ours.length; i++) {
      double cut = 100 * (1 - ours[i] / base[i]);
      lo = Math.min(lo, cut);
      hi = Math.max(hi, cut);
    }
    return new double[] {lo, hi};
  }

  static double avg(double[] v) {
    double s = 0;
    for (double d : v) {
      s += d;
    }
    return s / v.length;
  }

  static File sibling(File png, String suffix) {
    String name = png.getName();
    int dot = name.lastIndexOf('.');
    return new File(png.getAbsoluteFile().getParentFile(),
        (dot < 0 ? name : name.substring(0, dot)) + suffix + (dot < 0 ? "" : name.substring(dot)));
  }
}
