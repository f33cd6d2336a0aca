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
package org.pocache.csac.sim;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.pocache.csac.FileRef;

/**
 * Replays a trace from CSV. One record per line; blank lines and lines starting
 * with '#' are skipped:
 * <pre>
 * file,&lt;id&gt;,&lt;weight&gt;,&lt;dn&gt;;&lt;dn&gt;;...   a file, its weight (parity blocks) and DataNodes
 * read,&lt;id&gt;                              a read of a declared file
 * straggler,&lt;dn&gt;,&lt;from&gt;,&lt;to&gt;             a real straggler from read index from to to (exclusive)
 * </pre>
 * Errors name the line number and what is wrong.
 */
public final class TraceReader {
  /** A parsed trace. */
  public static final class Trace {
    public final Workload workload;
    public final List<Simulator.Straggler> stragglers;

    Trace(Workload workload, List<Simulator.Straggler> stragglers) {
      this.workload = workload;
      this.stragglers = stragglers;
    }
  }

  private TraceReader() {
  }

  public static Trace read(Reader in) throws IOException {
    List<FileRef> files = new ArrayList<>();
    Map<Long, Integer> index = new HashMap<>();
    List<Integer> reads = new ArrayList<>();
    List<Simulator.Straggler> stragglers = new ArrayList<>();
    TreeSet<String> nodes = new TreeSet<>();
    BufferedReader r = new BufferedReader(in);
    String line;
    int n = 0;
    while ((line = r.readLine()) != null) {
      n++;
      String t = line.trim();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      String[] f = t.split(",", -1);
      try {
        switch (f[0].trim()) {
          case "file": {
            need(f, 4, n, "file,<id>,<weight>,<dn>;<dn>;...");
            long id = Long.parseLong(f[1].trim());
            if (index.containsKey(id)) {
              throw new IllegalArgumentException("line " + n + ": file " + id + " declared twice");
            }
            String[] dns = f[3].trim().split(";");
            for (String d : dns) {
              nodes.add(d.trim());
            }
            index.put(id, files.size());
            files.add(new FileRef(id, Long.parseLong(f[2].trim()), dns));
            break;
          }
          case "read": {
            need(f, 2, n, "read,<id>");
            Integer i = index.get(Long.parseLong(f[1].trim()));
            if (i == null) {
              throw new IllegalArgumentException("line " + n + ": read of undeclared file " + f[1].trim());
            }
            reads.add(i);
            break;
          }
          case "straggler":
            need(f, 4, n, "straggler,<dn>,<from>,<to>");
            stragglers.add(new Simulator.Straggler(f[1].trim(), Integer.parseInt(f[2].trim()),
                Integer.parseInt(f[3].trim())));
            break;
          default:
            throw new IllegalArgumentException("line " + n + ": unknown record '" + f[0] + "' (file, read, straggler)");
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("line " + n + ": not a number in '" + t + "'", e);
      } catch (IllegalArgumentException e) {
        if (e.getMessage() != null && e.getMessage().startsWith("line ")) {
          throw e;
        }
        throw new IllegalArgumentException("line " + n + ": " + e.getMessage(), e);
      }
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("trace declares no files");
    }
    int[] rs = new int[reads.size()];
    for (int i = 0; i < rs.length; i++) {
      rs[i] = reads.get(i);
    }
    // The simulator names DataNodes dn0..dn(D-1) when it feeds the detector.
    int d = 0;
    for (String node : nodes) {
      if (!node.matches("dn\\d+")) {
        throw new IllegalArgumentException("DataNode '" + node + "' must be named dn<number>");
      }
      d = Math.max(d, Integer.parseInt(node.substring(2)) + 1);
    }
    return new Trace(Workload.of(files, rs, d), stragglers);
  }

  private static void need(String[] f, int n, int line, String form) {
    if (f.length != n) {
      throw new IllegalArgumentException("line " + line + ": expected " + form);
    }
  }
}
