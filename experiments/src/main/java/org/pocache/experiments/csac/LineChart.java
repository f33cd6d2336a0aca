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

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/** A minimal line chart with a log-scale y axis, drawn with Java2D into a PNG. */
final class LineChart {
  private static final Color[] COLORS = {new Color(0xd62728), new Color(0x1f77b4), new Color(0x2ca02c),
      new Color(0x9467bd)};

  private LineChart() {
  }

  static void write(File png, String title, String xLabel, double[] x, List<String> names, List<double[]> ys)
      throws IOException {
    System.setProperty("java.awt.headless", "true");
    int w = 640;
    int h = 420;
    int left = 80;
    int right = 160;
    int top = 40;
    int bottom = 60;
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, h);
    double minY = Double.MAX_VALUE;
    double maxY = 0;
    for (double[] y : ys) {
      for (double v : y) {
        if (v > 0) {
          minY = Math.min(minY, v);
          maxY = Math.max(maxY, v);
        }
      }
    }
    double lo = Math.floor(Math.log10(minY));
    double hi = Math.ceil(Math.log10(maxY));
    if (hi <= lo) {
      hi = lo + 1;
    }
    double x0 = x[0];
    double x1 = x[x.length - 1] == x0 ? x0 + 1 : x[x.length - 1];
    int pw = w - left - right;
    int ph = h - top - bottom;
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.drawString(title, left, 24);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.drawRect(left, top, pw, ph);
    for (int d = (int) lo; d <= (int) hi; d++) {
      int py = top + (int) Math.round(ph * (hi - d) / (hi - lo));
      g.setColor(new Color(0xdddddd));
      g.drawLine(left + 1, py, left + pw - 1, py);
      g.setColor(Color.BLACK);
      g.drawString("1e" + d, 30, py + 4);
    }
    for (double xv : x) {
      int px = left + (int) Math.round(pw * (xv - x0) / (x1 - x0));
      g.drawLine(px, top + ph, px, top + ph + 4);
      g.drawString(String.format(Locale.ROOT, xv == Math.rint(xv) ? "%.0f" : "%.3g", xv), px - 10, top + ph + 18);
    }
    g.drawString(xLabel, left + pw / 2 - 20, h - 18);
    g.drawString("P (log scale)", 8, top - 8);
    g.setStroke(new BasicStroke(2f));
    for (int s = 0; s < ys.size(); s++) {
      g.setColor(COLORS[s % COLORS.length]);
      double[] y = ys.get(s);
      int prevX = -1;
      int prevY = -1;
      for (int i = 0; i < x.length; i++) {
        if (y[i] <= 0) {
          prevX = -1;
          continue;
        }
        int px = left + (int) Math.round(pw * (x[i] - x0) / (x1 - x0));
        int py = top + (int) Math.round(ph * (hi - Math.log10(y[i])) / (hi - lo));
        g.fillOval(px - 3, py - 3, 6, 6);
        if (prevX >= 0) {
          g.drawLine(prevX, prevY, px, py);
        }
        prevX = px;
        prevY = py;
      }
      g.drawLine(w - right + 15, top + 20 + 20 * s, w - right + 40, top + 20 + 20 * s);
      g.setColor(Color.BLACK);
      g.drawString(names.get(s), w - right + 45, top + 24 + 20 * s);
    }
    g.dispose();
    ImageIO.write(img, "png", png);
  }
}
