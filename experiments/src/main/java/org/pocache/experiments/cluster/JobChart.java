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
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Draws the cluster job experiments as one PNG: for each job, POCache's median job time
 * over stock HDFS's, without and with a straggler, with the runs' min-max as error
 * bars (POCache's min and max over stock's median), and the 1.0 and 0.8 lines.
 *
 * <pre>JobChart out.png results.json...</pre>
 * Each JSON is what {@code scripts/pocache experiment mapreduce|spark --json} writes.
 */
public final class JobChart {
  private static final Color NONE = new Color(0x1f77b4);
  private static final Color STRAGGLER = new Color(0xd62728);

  private JobChart() {
  }

  private static final class Bar {
    final String label;
    final double[] none;
    final double[] straggler;

    Bar(String label, double[] none, double[] straggler) {
      this.label = label;
      this.none = none;
      this.straggler = straggler;
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: JobChart out.png results.json... (a job in a later file replaces the earlier)");
      System.exit(2);
    }
    List<Bar> bars = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    for (int i = 1; i < args.length; i++) {
      JsonNode doc = json.readTree(new File(args[i]));
      String kind = doc.path("experiment").asText("?");
      for (JsonNode row : doc.path("rows")) {
        Bar b = new Bar(kind + " " + row.path("job").asText(), ratios(row.path("none")),
            ratios(row.path("straggler")));
        // A job measured again in a later file (a rerun of one job) takes its place.
        bars.removeIf(old -> old.label.equals(b.label));
        bars.add(b);
      }
    }
    draw(new File(args[0]), bars);
    System.out.println("wrote " + args[0]);
  }

  /** {median, min, max} of POCache over stock's median, or null. */
  private static double[] ratios(JsonNode state) {
    JsonNode v = state.path("vanilla_ms");
    JsonNode p = state.path("pocache_ms");
    if (v.isMissingNode() || p.isMissingNode() || v.path("median").asDouble() <= 0) {
      return null;
    }
    double base = v.path("median").asDouble();
    return new double[] {p.path("median").asDouble() / base, p.path("min").asDouble() / base,
        p.path("max").asDouble() / base};
  }

  private static void draw(File png, List<Bar> bars) throws IOException {
    System.setProperty("java.awt.headless", "true");
    int left = 70;
    int top = 50;
    int bottom = 90;
    int group = 90;
    int w = left + 40 + group * Math.max(1, bars.size()) + 20;
    int h = 420;
    int ph = h - top - bottom;
    double maxY = 1.4;
    for (Bar b : bars) {
      for (double[] r : new double[][] {b.none, b.straggler}) {
        if (r != null) {
          maxY = Math.max(maxY, Math.ceil(r[2] * 5) / 5);
        }
      }
    }
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, h);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.drawString("Job time, POCache / stock HDFS (median, min-max of runs)", left, 22);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    int x0 = left;
    int x1 = w - 20;
    for (double y = 0; y <= maxY + 1e-9; y += 0.2) {
      int py = yOf(y, maxY, top, ph);
      g.setColor(new Color(0xdddddd));
      g.drawLine(x0, py, x1, py);
      g.setColor(Color.BLACK);
      g.drawString(String.format(Locale.ROOT, "%.1f", y), left - 30, py + 4);
    }
    g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
    for (double line : new double[] {1.0, 0.8}) {
      int py = yOf(line, maxY, top, ph);
      g.setColor(line == 1.0 ? Color.BLACK : new Color(0x2ca02c));
      g.drawLine(x0, py, x1, py);
    }
    g.setStroke(new BasicStroke(1.2f));
    for (int i = 0; i < bars.size(); i++) {
      Bar b = bars.get(i);
      int gx = left + 20 + i * group;
      bar(g, b.none, gx, NONE, maxY, top, ph);
      bar(g, b.straggler, gx + 32, STRAGGLER, maxY, top, ph);
      g.setColor(Color.BLACK);
      String[] words = b.label.split(" ", 2);
      g.drawString(words[0], gx, top + ph + 18);
      if (words.length > 1) {
        g.drawString(words[1], gx, top + ph + 34);
      }
    }
    int ly = h - 22;
    g.setColor(NONE);
    g.fillRect(left, ly - 10, 12, 12);
    g.setColor(Color.BLACK);
    g.drawString("no straggler", left + 18, ly);
    g.setColor(STRAGGLER);
    g.fillRect(left + 120, ly - 10, 12, 12);
    g.setColor(Color.BLACK);
    g.drawString("one DataNode at 1/10", left + 138, ly);
    g.setColor(new Color(0x2ca02c));
    g.drawString("- - 0.8", left + 300, ly);
    g.dispose();
    ImageIO.write(img, "png", png);
  }

  private static void bar(Graphics2D g, double[] r, int x, Color c, double maxY, int top, int ph) {
    if (r == null) {
      return;
    }
    int base = yOf(0, maxY, top, ph);
    int py = yOf(r[0], maxY, top, ph);
    g.setColor(c);
    g.fillRect(x, py, 26, base - py);
    g.setColor(Color.BLACK);
    int lo = yOf(r[1], maxY, top, ph);
    int hi = yOf(r[2], maxY, top, ph);
    g.drawLine(x + 13, lo, x + 13, hi);
    g.drawLine(x + 8, lo, x + 18, lo);
    g.drawLine(x + 8, hi, x + 18, hi);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
    g.drawString(String.format(Locale.ROOT, "%.2f", r[0]), x, Math.min(py, hi) - 3);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
  }

  private static int yOf(double v, double maxY, int top, int ph) {
    return top + ph - (int) Math.round(v / maxY * ph);
  }
}
