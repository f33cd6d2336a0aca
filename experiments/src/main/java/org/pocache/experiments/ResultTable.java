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
package org.pocache.experiments;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The rows of a read-latency experiment: printed as a table, written as JSON. */
public final class ResultTable {
  /** One (mode, layout, straggler) combination and its latencies. */
  public static final class Row {
    public final String mode;
    public final String layout;
    public final boolean straggler;
    public final LatencyStats stats;
    /** Every read's latency, in the order the reads ran. */
    final double[] inOrder;
    /** The reading client's counters over the row (POCache: pieces skipped, substripes decoded). */
    final Map<String, Long> counters;

    Row(String mode, String layout, boolean straggler, double[] inOrder, Map<String, Long> counters) {
      this.mode = mode;
      this.layout = layout;
      this.straggler = straggler;
      this.stats = new LatencyStats(inOrder);
      this.inOrder = inOrder.clone();
      this.counters = new LinkedHashMap<>(counters);
    }

    /** Every read's latency in ms, in the order the reads ran. */
    public double[] latencies() {
      return inOrder.clone();
    }
  }

  private final List<Row> rows = new ArrayList<>();
  private final Map<String, Object> config = new LinkedHashMap<>();
  private boolean bytesVerified = true;
  private final Map<String, String> fields = new LinkedHashMap<>(); // extra top-level JSON fields, pre-encoded
  private final List<long[]> hedged = new ArrayList<>(); // {straggler 0/1, ops, wins, in caller thread}

  public void add(String mode, String layout, boolean straggler, double[] latenciesMillis) {
    add(mode, layout, straggler, latenciesMillis, java.util.Collections.<String, Long>emptyMap());
  }

  /** A row with the reading client's counters over it, written into the row's JSON object. */
  public void add(String mode, String layout, boolean straggler, double[] latenciesMillis,
      Map<String, Long> counters) {
    rows.add(new Row(mode, layout, straggler, latenciesMillis, counters));
  }

  /** Records a run parameter; it goes into the JSON's "config" object. */
  public void config(String key, Object value) {
    config.put(key, value);
  }

  /**
   * Records HDFS's hedged-read counters for an hr row (DFSHedgedReadMetrics):
   * HedgedReadOps, HedgedReadWins (in 3.1.4: hedged reads that finished, whichever
   * replica answered) and HedgedReadOpsInCurThread (reads the exhausted pool pushed
   * back onto the reader's own thread).
   */
  public void hedgedReads(boolean straggler, long ops, long wins, long inCallerThread) {
    hedged.add(new long[] {straggler ? 1 : 0, ops, wins, inCallerThread});
  }

  /** A top-level JSON string field. */
  public void field(String name, String value) {
    fields.put(name, quote(value));
  }

  /** A top-level JSON number field. */
  public void field(String name, long value) {
    fields.put(name, Long.toString(value));
  }

  /** A top-level JSON number field. */
  public void field(String name, double value) {
    fields.put(name, String.format(java.util.Locale.ROOT, "%.4f", value));
  }

  /** A top-level JSON array-of-strings field. */
  public void field(String name, List<String> values) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(quote(values.get(i)));
    }
    fields.put(name, sb.append(']').toString());
  }

  /** A top-level JSON array-of-numbers field (milliseconds and the like, one decimal). */
  public void field(String name, double[] values) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(String.format(java.util.Locale.ROOT, "%.1f", values[i]));
    }
    fields.put(name, sb.append(']').toString());
  }

  /** Marks that some read returned wrong bytes. */
  public void markVerificationFailed() {
    bytesVerified = false;
  }

  public boolean bytesVerified() {
    return bytesVerified;
  }

  public List<Row> rows() {
    return rows;
  }

  /** Puts the rows without a straggler first, keeping the order within each group. */
  public void sortByStraggler() {
    rows.sort((a, b) -> Boolean.compare(a.straggler, b.straggler));
  }

  /** The row for this combination, or null. */
  public Row find(String mode, String layout, boolean straggler) {
    for (Row r : rows) {
      if (r.mode.equals(mode) && r.layout.equals(layout) && r.straggler == straggler) {
        return r;
      }
    }
    return null;
  }

  public void print(PrintStream out) {
    out.printf(Locale.ROOT, "%-9s %-11s %-9s %6s %10s %10s %10s %10s%n",
        "mode", "layout", "straggler", "reads", "mean_ms", "p50_ms", "p95_ms", "p99_ms");
    for (Row r : rows) {
      out.printf(Locale.ROOT, "%-9s %-11s %-9s %6d %10.1f %10.1f %10.1f %10.1f%n", r.mode, r.layout,
          r.straggler ? "yes" : "no", r.stats.count(), r.stats.mean(), r.stats.percentile(50),
          r.stats.percentile(95), r.stats.percentile(99));
    }
    out.println();
    for (Row slow : rows) {
      Row base = slow.straggler ? find(slow.mode, slow.layout, false) : null;
      if (base != null) {
        out.printf(Locale.ROOT, "straggler slowdown (mean): %-8s %-11s %5.2fx%n", slow.mode, slow.layout,
            slow.stats.mean() / base.stats.mean());
      }
    }
    for (long[] h : hedged) {
      out.printf(Locale.ROOT, "hr (straggler %s): HDFS counters HedgedReadOps %d, HedgedReadWins %d,"
          + " HedgedReadOpsInCurThread %d (hedges the exhausted pool ran in the reader's thread)%n",
          h[0] == 1 ? "yes" : "no", h[1], h[2], h[3]);
    }
    out.println("bytes verified: " + (bytesVerified ? "yes, every read" : "NO - some read returned wrong bytes"));
  }

  public String toJson() {
    StringBuilder sb = new StringBuilder("{\n  \"rows\": [\n");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      sb.append(String.format(Locale.ROOT,
          "    {\"mode\": %s, \"layout\": %s, \"straggler\": %b, \"reads\": %d, \"mean_ms\": %.3f,"
              + " \"p50_ms\": %.3f, \"p95_ms\": %.3f, \"p99_ms\": %.3f, \"latencies_ms\": [",
          quote(r.mode), quote(r.layout), r.straggler, r.stats.count(), r.stats.mean(),
          r.stats.percentile(50), r.stats.percentile(95), r.stats.percentile(99)));
      for (int x = 0; x < r.inOrder.length; x++) {
        sb.append(x == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", r.inOrder[x]));
      }
      sb.append("]");
      for (Map.Entry<String, Long> e : r.counters.entrySet()) {
        sb.append(", ").append(quote(e.getKey())).append(": ").append(e.getValue());
      }
      sb.append("}");
      sb.append(i + 1 < rows.size() ? ",\n" : "\n");
    }
    sb.append("  ],\n  \"bytes_verified\": ").append(bytesVerified).append(",\n  \"hr_metrics\": [");
    for (int h = 0; h < hedged.size(); h++) {
      long[] v = hedged.get(h);
      sb.append(h == 0 ? "" : ", ").append(String.format(Locale.ROOT,
          "{\"straggler\": %b, \"hedged_read_ops\": %d, \"hedged_read_wins\": %d,"
              + " \"hedged_read_ops_in_cur_thread\": %d}",
          v[0] == 1, v[1], v[2], v[3]));
    }
    sb.append("],\n");
    for (Map.Entry<String, String> f : fields.entrySet()) {
      sb.append("  ").append(quote(f.getKey())).append(": ").append(f.getValue()).append(",\n");
    }
    sb.append("  \"config\": {");
    int i = 0;
    for (Map.Entry<String, Object> e : config.entrySet()) {
      sb.append(i++ == 0 ? "" : ", ").append(quote(e.getKey())).append(": ");
      Object v = e.getValue();
      sb.append(v instanceof Number || v instanceof Boolean ? v.toString() : quote(String.valueOf(v)));
    }
    return sb.append("}\n}\n").toString();
  }

  public void writeJson(File f) throws IOException {
    File parent = f.getAbsoluteFile().getParentFile();
    if (parent != null) {
      Files.createDirectories(parent.toPath());
    }
    Files.write(f.toPath(), toJson().getBytes(StandardCharsets.UTF_8));
  }

  static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
