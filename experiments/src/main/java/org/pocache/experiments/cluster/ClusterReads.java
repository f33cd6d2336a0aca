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

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads files of a running cluster the way its users do, once through stock HDFS
 * ({@code DistributedFileSystem}) and once through POCache, in turns, and prints the
 * median, min and max time of each access pattern per mode and the ratio. Run with
 * the cluster's conf dir and jars on the class path ({@code scripts/pocache
 * experiment reads}); only {@code fs.hdfs.impl} differs between the two modes.
 *
 * <pre>
 *   seq    4 KiB read() calls front to back (hdfs dfs -cat, a record reader)
 *   split  each block in its own stream, front to back (one MapReduce/Spark task per block)
 *   pread  one positional readFully of the whole file
 * </pre>
 */
public final class ClusterReads {
  private ClusterReads() {
  }

  public static void main(String[] args) throws Exception {
    String dir = "/bench";
    int repeats = 5;
    String json = null;
    String label = "";
    List<String> patterns = new ArrayList<>(Arrays.asList("seq", "split", "pread"));
    List<String> modes = Arrays.asList("vanilla", "pocache");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--dir":
          dir = args[++i];
          break;
        case "--repeats":
          repeats = Integer.parseInt(args[++i]);
          break;
        case "--json":
          json = args[++i];
          break;
        case "--label":
          label = args[++i];
          break;
        case "--patterns":
          patterns = Arrays.asList(args[++i].split(","));
          break;
        case "--modes":
          modes = Arrays.asList(args[++i].split(","));
          break;
        default:
          System.err.println("Usage: ClusterReads [--dir /bench] [--repeats N] [--patterns seq,split,pread]"
              + " [--modes vanilla,pocache] [--label L] [--json F]");
          System.exit(2);
      }
    }
    for (String m : modes) {
      if (!m.equals("vanilla") && !m.equals("pocache")) {
        System.err.println("ClusterReads: --modes takes vanilla and/or pocache, got '" + m + "'");
        System.exit(2);
      }
    }
    boolean withVanilla = modes.contains("vanilla");
    boolean withPocache = modes.contains("pocache");
    Configuration base = new Configuration();
    Configuration vanillaConf = new Configuration(base);
    vanillaConf.set("fs.hdfs.impl", "org.apache.hadoop.hdfs.DistributedFileSystem");
    vanillaConf.setBoolean("fs.hdfs.impl.disable.cache", true);
    Configuration pocacheConf = new Configuration(base);
    pocacheConf.set("fs.hdfs.impl", "org.pocache.hdfs.client.PoCacheFileSystem");
    pocacheConf.setBoolean("fs.hdfs.impl.disable.cache", true);
    URI uri = FileSystem.getDefaultUri(base);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("label", label);
    List<Map<String, Object>> rows = new ArrayList<>();
    try (FileSystem vanilla = FileSystem.get(uri, vanillaConf); FileSystem pocache = FileSystem.get(uri, pocacheConf)) {
      FileStatus[] files = vanilla.listStatus(new Path(dir));
      Arrays.sort(files);
      long bytes = 0;
      for (FileStatus f : files) {
        bytes += f.getLen();
      }
      System.out.printf(Locale.ROOT, "%d files, %.1f MiB in %s; %d repeats per pattern and mode, in turns%n",
          files.length, bytes / 1048576.0, dir, repeats);
      for (String pattern : patterns) {
        List<Double> v = new ArrayList<>();
        List<Double> p = new ArrayList<>();
        // Each file's read alone too: the tail (a file with a block on the straggler) hides in the sums.
        List<Double> vFile = new ArrayList<>();
        List<Double> pFile = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
          boolean pocacheFirst = r % 2 == 1;
          for (int turn = 0; turn < 2; turn++) {
            boolean usePocache = (turn == 0) == pocacheFirst;
            if (usePocache ? !withPocache : !withVanilla) {
              continue;
            }
            long[] crcs = new long[files.length];
            long t0 = System.nanoTime();
            for (int x = 0; x < files.length; x++) {
              long f0 = System.nanoTime();
              crcs[x] = read(usePocache ? pocache : vanilla, files[x], pattern);
              (usePocache ? pFile : vFile).add((System.nanoTime() - f0) / 1e6);
            }
            double ms = (System.nanoTime() - t0) / 1e6;
            (usePocache ? p : v).add(ms);
            check(files, crcs, usePocache ? "pocache" : "vanilla", pattern);
          }
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("pattern", pattern);
        row.put("vanilla_ms", v);
        row.put("pocache_ms", p);
        row.put("vanilla_median_ms", median(v));
        row.put("pocache_median_ms", median(p));
        row.put("ratio_median", median(p) / median(v));
        row.put("vanilla_file_ms", vFile);
        row.put("pocache_file_ms", pFile);
        row.put("vanilla_file_mean_ms", mean(vFile));
        row.put("pocache_file_mean_ms", mean(pFile));
        row.put("vanilla_file_p95_ms", percentile(vFile, 0.95));
        row.put("pocache_file_p95_ms", percentile(pFile, 0.95));
        rows.add(row);
        System.out.printf(Locale.ROOT,
            "%-6s vanilla %8.1f ms (min %.1f, max %.1f)  pocache %8.1f ms (min %.1f, max %.1f)"
            + "  pocache/vanilla %.3f%n", pattern, median(v), min(v), max(v), median(p), min(p), max(p),
            median(p) / median(v));
        System.out.printf(Locale.ROOT, "%-6s one file: vanilla mean %.1f ms, p95 %.1f ms; pocache mean %.1f ms,"
            + " p95 %.1f ms%n", pattern, mean(vFile), percentile(vFile, 0.95), mean(pFile), percentile(pFile, 0.95));
      }
      out.put("rows", rows);
      if (pocache instanceof org.pocache.hdfs.client.PoCacheFileSystem) {
        org.pocache.hdfs.client.PoCacheFileSystem pf = (org.pocache.hdfs.client.PoCacheFileSystem) pocache;
        out.put("proactive_opens", pf.proactiveOpens());
        out.put("fallbacks", pf.fallbacks());
        System.out.printf("POCache: %d proactive opens, %d fallbacks%n", pf.proactiveOpens(), pf.fallbacks());
      }
    }
    if (json != null) {
      try (Writer w = new OutputStreamWriter(new FileOutputStream(json), StandardCharsets.UTF_8)) {
        w.write(Json.of(out));
        w.write('\n');
      }
    }
  }

  private static final Map<String, Long> EXPECTED = new LinkedHashMap<>();

  /** Every mode and pattern must read the same bytes as stock HDFS's first read of the file. */
  private static void check(FileStatus[] files, long[] crcs, String mode, String pattern) {
    for (int x = 0; x < files.length; x++) {
      String key = files[x].getPath().toString();
      Long want = EXPECTED.putIfAbsent(key, crcs[x]);
      if (want != null && want != crcs[x]) {
        throw new IllegalStateException(mode + " " + pattern + " read of " + key + " returned other bytes"
            + " than the first read (crc " + Long.toHexString(crcs[x]) + " vs " + Long.toHexString(want) + ")");
      }
    }
  }

  private static long read(FileSystem fs, FileStatus f, String pattern) throws IOException {
    CRC32 crc = new CRC32();
    switch (pattern) {
      case "seq": {
        byte[] b = new byte[4096];
        try (FSDataInputStream in = fs.open(f.getPath())) {
          for (int n; (n = in.read(b, 0, b.length)) > 0; ) {
            crc.update(b, 0, n);
          }
        }
        return crc.getValue();
      }
      case "split": {
        byte[] b = new byte[64 << 10];
        long block = f.getBlockSize();
        for (long start = 0; start < f.getLen(); start += block) {
          long end = Math.min(f.getLen(), start + block);
          try (FSDataInputStream in = fs.open(f.getPath())) {
            in.seek(start);
            for (long at = start; at < end; ) {
              int n = in.read(b, 0, (int) Math.min(b.length, end - at));
              if (n <= 0) {
                throw new IOException("short read of " + f.getPath() + " at " + at);
              }
              crc.update(b, 0, n);
              at += n;
            }
          }
        }
        return crc.getValue();
      }
      case "pread": {
        byte[] b = new byte[(int) f.getLen()];
        try (FSDataInputStream in = fs.open(f.getPath())) {
          in.readFully(0, b);
        }
        crc.update(b, 0, b.length);
        return crc.getValue();
      }
      default:
        throw new IllegalArgumentException("pattern must be seq, split or pread, got '" + pattern + "'");
    }
  }

  static double median(List<Double> xs) {
    double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return a.length == 0 ? Double.NaN : a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1]
        + a[a.length / 2]) / 2;
  }

  static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  /** The value at or above fraction {@code q} of the sorted values (nearest rank). */
  static double percentile(List<Double> xs, double q) {
    double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return a.length == 0 ? Double.NaN : a[Math.max(0, (int) Math.ceil(q * a.length) - 1)];
  }

  static double min(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  static double max(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  /** Just enough JSON for numbers, strings, lists and maps. */
  static final class Json {
    private Json() {
    }

    static String of(Object o) {
      StringBuilder b = new StringBuilder();
      write(b, o);
      return b.toString();
    }

    @SuppressWarnings("unchecked")
    private static void write(StringBuilder b, Object o) {
      if (o instanceof Map) {
        b.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> e : ((Map<String, Object>) o).entrySet()) {
          if (!first) {
            b.append(',');
          }
          first = false;
          write(b, e.getKey());
          b.append(':');
          write(b, e.getValue());
        }
        b.append('}');
      } else if (o instanceof List) {
        b.append('[');
        boolean first = true;
        for (Object x : (List<Object>) o) {
          if (!first) {
            b.append(',');
          }
          first = false;
          write(b, x);
        }
        b.append(']');
      } else if (o instanceof Number) {
        double d = ((Number) o).doubleValue();
        b.append(Double.isFinite(d) ? (o instanceof Double ? String.format(Locale.ROOT, "%.3f", d) : o.toString())
            : "null");
      } else if (o instanceof Boolean) {
        b.append(o);
      } else {
        b.append('"').append(String.valueOf(o).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
      }
    }
  }
}
