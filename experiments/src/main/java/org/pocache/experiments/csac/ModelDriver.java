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
package org.pocache.experiments.csac;

import java.io.File;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.pocache.csac.model.StragglerModel;
import org.pocache.csac.model.StragglerModel.Params;
import org.pocache.csac.model.StragglerModel.Scheme;
import org.pocache.experiments.Options;
import org.pocache.experiments.UsageException;

/**
 * {@code pocache model}: the probability that a read hits a straggler under no
 * caching, data-only and parity-only caching (POCache paper §2.2), independent and
 * rack-correlated, with a Monte Carlo cross-check; {@code --figures DIR} also
 * regenerates Fig. 3 and Fig. 4 as CSV and PNG.
 */
public final class ModelDriver {
  static final String USAGE = String.join("\n",
      "Usage: pocache model [--k N] [--c N] [--ps P] [--pc P] [--pr P] [--a N] [--trials N] [--json FILE]"
          + " [--figures DIR]",
      "  --k, --c       data blocks per file and cached blocks (default 4 and 1)",
      "  --ps, --pc     straggler probability of a storage and of a cache node (default 0.005 each)",
      "  --pr, --a      rack slowdown probability and blocks per rack for the correlated rows (default 0.001, 1)",
      "  --trials N     Monte Carlo trials per row, 0 for none (default 1000000)",
      "  --json FILE    write {\"rows\":[{\"scheme\",\"correlated\",\"k\",\"c\",\"P\",...}, ...]}",
      "  --figures DIR  write fig3a..fig3d and fig4a, fig4b as CSV and PNG");

  public static void main(String[] args) throws Exception {
    int k;
    int c;
    int a;
    double ps;
    double pc;
    double pr;
    int trials;
    Options o;
    try {
      o = Options.parse(args, Arrays.asList("k", "c", "ps", "pc", "pr", "a", "trials", "json", "figures"),
          Arrays.asList("help"));
      if (o.has("help")) {
        System.out.println(USAGE);
        return;
      }
      k = o.intValue("k", 4, 1, 64);
      c = o.intValue("c", 1, 0, 64);
      a = o.intValue("a", 1, 1, 64);
      ps = o.doubleValue("ps", 0.005, 0);
      pc = o.doubleValue("pc", 0.005, 0);
      pr = o.doubleValue("pr", 0.001, 0);
      trials = o.intValue("trials", 1_000_000, 0, Integer.MAX_VALUE);
      new Params(k, c, 1, ps, pc, 0);
      new Params(k, c, a, ps, pc, pr);
    } catch (UsageException | IllegalArgumentException e) {
      System.err.println("pocache model: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    StringBuilder json = new StringBuilder("{\"rows\":[\n");
    System.out.printf(Locale.ROOT, "%-12s %-10s %3s %3s %3s %12s %14s%n", "scheme", "correlated", "k", "c", "a", "P",
        "monte carlo");
    boolean first = true;
    for (boolean correlated : new boolean[] {false, true}) {
      Params p = correlated ? new Params(k, c, a, ps, pc, pr) : new Params(k, c, 1, ps, pc, 0);
      for (Scheme s : Scheme.values()) {
        double exact = StragglerModel.probability(s, p);
        String mc = "";
        String mcJson = "";
        if (trials > 0) {
          StragglerModel.Estimate e = StragglerModel.monteCarlo(s, p, trials, 7 + s.ordinal() + (correlated ? 10 : 0));
          mc = String.format(Locale.ROOT, "%.3e+-%.1e", e.p, e.stderr);
          mcJson = String.format(Locale.ROOT, ",\"monte_carlo\":%.6e,\"stderr\":%.3e", e.p, e.stderr);
        }
        System.out.printf(Locale.ROOT, "%-12s %-10s %3d %3d %3d %12.4e %14s%n", s.label, correlated, k, c,
            correlated ? a : 1, exact, mc);
        json.append(first ? "" : ",\n").append(String.format(Locale.ROOT,
            "  {\"scheme\":\"%s\",\"correlated\":%b,\"k\":%d,\"c\":%d,\"a\":%d,\"ps\":%s,\"pc\":%s,"
                + "\"pr\":%s,\"P\":%.6e%s}",
            s.label, correlated, k, c, correlated ? a : 1, ps, pc, correlated ? pr : 0.0, exact, mcJson));
        first = false;
      }
    }
    json.append("\n]}\n");
    if (o.has("json")) {
      write(new File(o.string("json", null)), json.toString());
    }
    if (o.has("figures")) {
      figures(new File(o.string("figures", null)));
    }
  }

  /** Fig. 3 (independent) and Fig. 4 (correlated) of the paper, as CSV and PNG. */
  static void figures(File dir) throws Exception {
    Files.createDirectories(dir.toPath());
    double[] ks = {2, 3, 4, 5, 6, 7, 8, 9, 10};
    figure(dir, "fig3a", "Fig. 3(a): c=1, ps=pc=0.005", "k", ks, x -> new Params((int) x, 1, 1, 0.005, 0.005, 0));
    figure(dir, "fig3b", "Fig. 3(b): k=4, ps=pc=0.005", "c", new double[] {1, 2, 3, 4},
        x -> new Params(4, (int) x, 1, 0.005, 0.005, 0));
    figure(dir, "fig3c", "Fig. 3(c): k=4, c=1, pc=0.005", "ps",
        new double[] {0.001, 0.002, 0.004, 0.006, 0.008, 0.01}, x -> new Params(4, 1, 1, x, 0.005, 0));
    figure(dir, "fig3d", "Fig. 3(d): k=4, c=1, ps=0.005", "pc", new double[] {0, 0.002, 0.004, 0.006, 0.008, 0.01},
        x -> new Params(4, 1, 1, 0.005, x, 0));
    figure(dir, "fig4a", "Fig. 4(a): a=1, c=1, pr=0.001, ps=pc=0.005", "k", ks,
        x -> new Params((int) x, 1, 1, 0.005, 0.005, 0.001));
    figure(dir, "fig4b", "Fig. 4(b): a=2, c=2, pr=0.001, ps=pc=0.005", "k", new double[] {2, 4, 6, 8, 10},
        x -> new Params((int) x, 2, 2, 0.005, 0.005, 0.001));
    System.out.println("wrote fig3a..fig3d and fig4a, fig4b (.csv, .png) to " + dir);
  }

  private interface Point {
    Params at(double x);
  }

  private static void figure(File dir, String name, String title, String xLabel, double[] xs, Point point)
      throws Exception {
    List<double[]> ys = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (Scheme s : Scheme.values()) {
      double[] y = new double[xs.length];
      for (int i = 0; i < xs.length; i++) {
        y[i] = StragglerModel.probability(s, point.at(xs[i]));
      }
      ys.add(y);
      names.add(s.label);
    }
    try (PrintWriter w = new PrintWriter(new File(dir, name + ".csv"), "UTF-8")) {
      w.println(xLabel + ",no-caching,data-only,parity-only");
      for (int i = 0; i < xs.length; i++) {
        w.printf(Locale.ROOT, "%s,%.6e,%.6e,%.6e%n", xs[i], ys.get(0)[i], ys.get(1)[i], ys.get(2)[i]);
      }
    }
    LineChart.write(new File(dir, name + ".png"), title, xLabel, xs, names, ys);
  }

  static void write(File f, String text) throws Exception {
    File parent = f.getAbsoluteFile().getParentFile();
    if (parent != null) {
      Files.createDirectories(parent.toPath());
    }
    Files.write(f.toPath(), text.getBytes(StandardCharsets.UTF_8));
    System.out.println("wrote " + f);
  }
}
