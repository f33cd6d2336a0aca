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

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * The experiments' figures, drawn with Java2D into PNGs (headless): grouped bars with
 * error bars, as the paper draws latencies, and lines, as it draws hit ratios.
 */
public final class Charts {
  private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
      new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
      new Color(0xbcbd22), new Color(0x17becf)};
  private static final int W = 900;
  private static final int H = 520;
  private static final int LEFT = 80;
  private static final int RIGHT = 190;
  private static final int TOP = 50;
  private static final int BOTTOM = 70;

  private Charts() {
  }

  /**
   * Bars of {@code mean[series][group]}, each with an error bar of {@code err[series][group]}
   * (null: none), grouped by {@code groups} along the x axis.
   */
  public static void bars(File png, String title, String yLabel, List<String> groups, List<String> series,
      double[][] mean, double[][] err) throws IOException {
    double max = 0;
    for (int s = 0; s < series.size(); s++) {
      for (int g = 0; g < groups.size(); g++) {
        double top = mean[s][g] + (err == null ? 0 : err[s][g]);
        if (Double.isFinite(top)) {
          max = Math.max(max, top);
        }
      }
    }
    double yMax = niceCeiling(max);
    BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = frame(img, title, yLabel);
    int pw = W - LEFT - RIGHT;
    int ph = H - TOP - BOTTOM;
    yAxis(g, 0, yMax, false);
    int groupWidth = pw / Math.max(1, groups.size());
    int barWidth = Math.max(3, (int) (groupWidth * 0.8 / Math.max(1, series.size())));
    for (int gi = 0; gi < groups.size(); gi++) {
      int gx = LEFT + gi * groupWidth + (int) (groupWidth * 0.1);
      for (int s = 0; s < series.size(); s++) {
        double v = mean[s][gi];
        if (!Double.isFinite(v)) {
          continue;
        }
        int x = gx + s * barWidth;
        int y = yOf(v, 0, yMax, false);
        g.setColor(COLORS[s % COLORS.length]);
        g.fillRect(x, y, barWidth - 2, TOP + ph - y);
        if (err != null && Double.isFinite(err[s][gi]) && err[s][gi] > 0) {
          g.setColor(Color.BLACK);
          int cx = x + (barWidth - 2) / 2;
          int y1 = yOf(Math.max(0, v - err[s][gi]), 0, yMax, false);
          int y2 = yOf(v + err[s][gi], 0, yMax, false);
          g.drawLine(cx, y1, cx, y2);
          g.drawLine(cx - 3, y1, cx + 3, y1);
          g.drawLine(cx - 3, y2, cx + 3, y2);
        }
      }
      g.setColor(Color.BLACK);
      centered(g, groups.get(gi), LEFT + gi * groupWidth + groupWidth / 2, TOP + ph + 18);
    }
    legend(g, series);
    write(img, png);
  }

  /** One line per name over {@code x}; {@code logX} for sizes that double. */
  public static void lines(File png, String title, String xLabel, String yLabel, double[] x, List<String> names,
      List<double[]> ys, boolean logX) throws IOException {
    double max = 0;
    for (double[] y : ys) {
      for (double v : y) {
        if (Double.isFinite(v)) {
          max = Math.max(max, v);
        }
      }
    }
    double yMax = niceCeiling(max);
    BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = frame(img, title, yLabel);
    yAxis(g, 0, yMax, false);
    double x0 = logX ? Math.log(x[0]) : x[0];
    double x1 = logX ? Math.log(x[x.length - 1]) : x[x.length - 1];
    int pw = W - LEFT - RIGHT;
    int ph = H - TOP - BOTTOM;
    g.setColor(Color.BLACK);
    for (double v : x) {
      int px = xOf(logX ? Math.log(v) : v, x0, x1, pw);
      g.drawLine(px, TOP + ph, px, TOP + ph + 4);
      centered(g, label(v), px, TOP + ph + 18);
    }
    centered(g, xLabel, LEFT + pw / 2, TOP + ph + 42);
    g.setStroke(new BasicStroke(2f));
    for (int s = 0; s < ys.size(); s++) {
      g.setColor(COLORS[s % COLORS.length]);
      double[] y = ys.get(s);
      for (int i = 0; i < x.length; i++) {
        int px = xOf(logX ? Math.log(x[i]) : x[i], x0, x1, pw);
        int py = yOf(y[i], 0, yMax, false);
        g.fillOval(px - 3, py - 3, 7, 7);
        if (i > 0 && Double.isFinite(y[i - 1]) && Double.isFinite(y[i])) {
          g.drawLine(xOf(logX ? Math.log(x[i - 1]) : x[i - 1], x0, x1, pw), yOf(y[i - 1], 0, yMax, false), px, py);
        }
      }
    }
    legend(g, names);
    write(img, png);
  }

  /**
   * The cumulative distribution of each sample (latencies, in any order): y is the
   * fraction of reads at or below x, as the paper draws tails.
   */
  public static void cdf(File png, String title, String xLabel, List<String> names, List<double[]> samples)
      throws IOException {
    double max = 0;
    for (double[] v : samples) {
      for (double x : v) {
        if (Double.isFinite(x)) {
          max = Math.max(max, x);
        }
      }
    }
    double xMax = niceCeiling(max);
    BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = frame(img, title, "fraction of reads");
    yAxis(g, 0, 1, false);
    int pw = W - LEFT - RIGHT;
    int ph = H - TOP - BOTTOM;
    g.setColor(Color.BLACK);
    for (int i = 0; i <= 5; i++) {
      double v = xMax * i / 5;
      int px = xOf(v, 0, xMax, pw);
      g.drawLine(px, TOP + ph, px, TOP + ph + 4);
      centered(g, label(v), px, TOP + ph + 18);
    }
    centered(g, xLabel, LEFT + pw / 2, TOP + ph + 42);
    g.setStroke(new BasicStroke(2f));
    for (int s = 0; s < samples.size(); s++) {
      double[] v = samples.get(s).clone();
      java.util.Arrays.sort(v);
      g.setColor(COLORS[s % COLORS.length]);
      int lastX = xOf(0, 0, xMax, pw);
      int lastY = yOf(0, 0, 1, false);
      for (int i = 0; i < v.length; i++) {
        int px = xOf(v[i], 0, xMax, pw);
        int py = yOf((i + 1) / (double) v.length, 0, 1, false);
        g.drawLine(lastX, lastY, px, lastY);
        g.drawLine(px, lastY, px, py);
        lastX = px;
        lastY = py;
      }
    }
    legend(g, names);
    write(img, png);
  }

  private static Graphics2D frame(BufferedImage img, String title, String yLabel) {
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, W, H);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    centered(g, title, W / 2, 28);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.drawLine(LEFT, TOP, LEFT, H - BOTTOM);
    g.drawLine(LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM);
    Graphics2D r = (Graphics2D) g.create();
    r.rotate(-Math.PI / 2);
    r.drawString(yLabel, -(TOP + (H - TOP - BOTTOM) / 2) - r.getFontMetrics().stringWidth(yLabel) / 2, 18);
    r.dispose();
    return g;
  }

  private static void yAxis(Graphics2D g, double lo, double hi, boolean log) {
    int ticks = 5;
    for (int i = 0; i <= ticks; i++) {
      double v = lo + (hi - lo) * i / ticks;
      int y = yOf(v, lo, hi, log);
      g.setColor(new Color(0xdddddd));
      g.drawLine(LEFT + 1, y, W - RIGHT, y);
      g.setColor(Color.BLACK);
      String s = label(v);
      g.drawString(s, LEFT - 6 - g.getFontMetrics().stringWidth(s), y + 4);
    }
  }

  private static void legend(Graphics2D g, List<String> names) {
    int x = W - RIGHT + 14;
    for (int i = 0; i < names.size(); i++) {
      int y = TOP + 10 + i * 20;
      g.setColor(COLORS[i % COLORS.length]);
      g.fillRect(x, y - 9, 12, 12);
      g.setColor(Color.BLACK);
      g.drawString(names.get(i), x + 18, y + 2);
    }
  }

  private static int yOf(double v, double lo, double hi, boolean log) {
    int ph = H - TOP - BOTTOM;
    double f = hi <= lo ? 0 : (v - lo) / (hi - lo);
    return TOP + ph - (int) Math.round(Math.max(0, Math.min(1, f)) * ph);
  }

  private static int xOf(double v, double x0, double x1, int pw) {
    double f = x1 <= x0 ? 0.5 : (v - x0) / (x1 - x0);
    return LEFT + 20 + (int) Math.round(f * (pw - 40));
  }

  private static void centered(Graphics2D g, String s, int cx, int y) {
    g.drawString(s, cx - g.getFontMetrics().stringWidth(s) / 2, y);
  }

  static double niceCeiling(double v) {
    if (!(v > 0)) {
      return 1;
    }
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
      if (m * p >= v) {
        return m * p;
      }
    }
    return 10 * p;
  }

  static String label(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e9) {
      return Long.toString((long) v);
    }
    return Math.abs(v) >= 10 ? String.format(Locale.ROOT, "%.0f", v)
        : Math.abs(v) >= 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
  }

  private static void write(BufferedImage img, File png) throws IOException {
    File parent = png.getAbsoluteFile().getParentFile();
    if (parent != null) {
      Files.createDirectories(parent.toPath());
    }
    if (!ImageIO.write(img, "png", png)) {
      throw new IOException("no PNG writer in this JVM for " + png);
    }
  }
}
