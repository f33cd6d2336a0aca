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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Draws {@code experiment alternatives} as one scatter plot: for each data layout and mode,
 * its storage (bytes kept per byte of input: HDFS's replicas or erasure-coded parity, plus
 * POCache's parity in Redis) against its job time, the geometric mean over the jobs of the
 * median job time over stock HDFS's on replication 1 without a straggler. A hollow circle
 * is without a straggler, a dot with a network straggler, a square with a CPU-starved one;
 * one colour per mode.
 *
 * <pre>AlternativesChart out.png alternatives.json</pre>
 */
public final class AlternativesChart {
  private static final String[] MODES = {"stock", "slownode", "speculation", "pocache", "pocache-spec"};
  private static final Color[] COLORS = {new Color(0x7f7f7f), new Color(0xff7f0e), new Color(0x9467bd),
      new Color(0xd62728), new Color(0x1f77b4)};

  private AlternativesChart() {
  }

  private static final class Point {
    final String label;
    final int mode;
    final String straggler;
    final double storage;
    final double time;

    Point(String label, int mode, String straggler, double storage, double time) {
      this.label = label;
      this.mode = mode;
      this.straggler = straggler;
      this.storage = storage;
      this.time = time;
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: AlternativesChart out.png alternatives.json");
      System.exit(2);
    }
    JsonNode doc = new ObjectMapper().readTree(new File(args[1]));
    List<Point> points = points(doc);
    if (points.isEmpty()) {
      System.err.println("AlternativesChart: " + args[1] + " has no rows with a stock run on rep1 to compare with");
      System.exit(1);
    }
    draw(new File(args[0]), points, factors(doc, "net", doc.path("factor").asDouble(10)),
        factors(doc, "cpu", doc.path("cpu_factor").asDouble(10)));
    System.out.println("wrote " + args[0]);
  }

  /**
   * The factors a straggler of kind {@code kind} was slowed by, as "1/200" or "1/200 or 1/1200"
   * (each job's straggler as slow as it took to cost that job); {@code fallback} for a JSON
   * whose cells do not say.
   */
  static String factors(JsonNode doc, String kind, double fallback) {
    java.util.SortedSet<Double> seen = new java.util.TreeSet<>();
    for (JsonNode e : doc.path("summary")) {
      if (e.path("straggler").asText().equals(kind) && e.has("straggler_factor")) {
        seen.add(e.path("straggler_factor").asDouble());
      }
    }
    if (seen.isEmpty()) {
      seen.add(fallback);
    }
    StringBuilder b = new StringBuilder();
    for (double f : seen) {
      b.append(b.length() == 0 ? "" : " or ").append("1/").append(number(f));
    }
    return b.toString();
  }

  static List<Point> points(JsonNode doc) {
    Map<String, Double> base = new LinkedHashMap<>();
    for (JsonNode e : doc.path("summary")) {
      if (e.path("layout").asText().equals("rep1") && e.path("mode").asText().equals("stock")
          && e.path("straggler").asText().equals("none")) {
        base.put(e.path("job").asText(), e.path("ms").path("median").asDouble());
      }
    }
    // layout|mode|straggler -> {sum of log ratios, count, storage}
    Map<String, double[]> acc = new LinkedHashMap<>();
    for (JsonNode e : doc.path("summary")) {
      Double b = base.get(e.path("job").asText());
      if (b == null || b <= 0 || !e.has("storage_per_user_byte")) {
        continue;
      }
      String key = e.path("layout").asText() + "|" + e.path("mode").asText() + "|" + e.path("straggler").asText();
      double[] a = acc.computeIfAbsent(key, k -> new double[3]);
      a[0] += Math.log(e.path("ms").path("median").asDouble() / b);
      a[1]++;
      a[2] = e.path("storage_per_user_byte").asDouble();
    }
    List<Point> points = new ArrayList<>();
    for (Map.Entry<String, double[]> en : acc.entrySet()) {
      String[] k = en.getKey().split("\\|");
      int mode = Arrays.asList(MODES).indexOf(k[1]);
      double[] a = en.getValue();
      points.add(new Point(k[1] + " " + k[0], Math.max(mode, 0), k[2], a[2],
          Math.exp(a[0] / a[1])));
    }
    return points;
  }

  private static void draw(File png, List<Point> points, String factor, String cpuFactor) throws IOException {
    System.setProperty("java.awt.headless", "true");
    int w = 900;
    int h = 560;
    int left = 70;
    int right = 30;
    int top = 50;
    int bottom = 80;
    double minX = 0.8;
    double maxX = 1;
    double maxY = 1.5;
    for (Point p : points) {
      maxX = Math.max(maxX, p.storage);
      maxY = Math.max(maxY, p.time);
    }
    maxX = Math.ceil(maxX * 2 + 0.2) / 2;
    maxY = Math.ceil(maxY * 2 + 0.1) / 2;
    int pw = w - left - right;
    int ph = h - top - bottom;
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, h);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.drawString("Job time against storage, per data layout and mode", left, 22);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    for (double x = 1; x <= maxX + 1e-9; x += 0.5) {
      int px = left + (int) Math.round((x - minX) / (maxX - minX) * pw);
      g.setColor(new Color(0xdddddd));
      g.drawLine(px, top, px, top + ph);
      g.setColor(Color.BLACK);
      g.drawString(String.format(Locale.ROOT, "%.1f", x), px - 8, top + ph + 16);
    }
    for (double y = 0; y <= maxY + 1e-9; y += 0.5) {
      int py = top + ph - (int) Math.round(y / maxY * ph);
      g.setColor(new Color(0xdddddd));
      g.drawLine(left, py, left + pw, py);
      g.setColor(Color.BLACK);
      g.drawString(String.format(Locale.ROOT, "%.1f", y), left - 30, py + 4);
    }
    g.drawString("bytes stored per byte of input (HDFS + POCache's parity in Redis)", left + pw / 2 - 190,
        top + ph + 36);
    g.drawString("job time / stock on replication 1, no straggler (geometric mean over jobs)", left, top - 8);
    g.setStroke(new BasicStroke(1.5f));
    for (Point p : points) {
      int px = left + (int) Math.round((p.storage - minX) / (maxX - minX) * pw);
      int py = top + ph - (int) Math.round(p.time / maxY * ph);
      g.setColor(COLORS[p.mode]);
      if (p.straggler.equals("none")) {
        g.drawOval(px - 5, py - 5, 10, 10);
      } else if (p.straggler.equals("cpu")) {
        g.fillRect(px - 5, py - 5, 10, 10);
      } else {
        g.fillOval(px - 5, py - 5, 10, 10);
      }
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
      g.drawString(p.label, px + 7, py + 4);
    }
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    int lx = left;
    int ly = h - 30;
    for (int i = 0; i < MODES.length; i++) {
      g.setColor(COLORS[i]);
      g.fillOval(lx, ly - 10, 10, 10);
      g.setColor(Color.BLACK);
      g.drawString(MODES[i], lx + 14, ly);
      lx += 110;
    }
    g.drawString("hollow: no straggler; dot: one DataNode's network at " + factor
        + "; square: its CPU at " + cpuFactor + " of a core", left, ly + 14);
    g.dispose();
    ImageIO.write(img, "png", png);
  }

  private static String number(double x) {
    return x == Math.rint(x) ? Long.toString((long) x) : Double.toString(x);
  }
}
