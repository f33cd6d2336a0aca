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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;
import org.pocache.csac.FileRef;
import org.pocache.csac.detect.ThreeSigma;

/** The simulator, its strategies and the paper's Experiment 11 outcome (seeded, deterministic). */
public class TestSimulator {

  private static Map<String, Experiments.Row> byName(List<Experiments.Row> rows, long size, String sensing) {
    Map<String, Experiments.Row> m = new HashMap<>();
    for (Experiments.Row r : rows) {
      if (r.cacheSize == size && r.sensing.equals(sensing)) {
        m.put(r.strategy, r);
      }
    }
    return m;
  }

  @Test
  public void experiment11StragglerAwarenessPaysOffAtForty() {
    List<Experiments.Row> rows = Experiments.run("exp11", 3, "three-sigma");
    Map<String, Experiments.Row> at40 = byName(rows, 40, "exact");
    double worstCsac = 0;
    for (String c : Arrays.asList("csac+lru", "csac+lfu", "csac+arc", "csac+s3fifo")) {
      double shr = at40.get(c).stragglerHitRatio;
      assertTrue(c + " at T=40: " + shr, shr <= 0.025);
      worstCsac = Math.max(worstCsac, shr);
    }
    for (String p : Arrays.asList("lru", "lfu", "arc")) {
      assertTrue(p + " at T=40: " + at40.get(p).stragglerHitRatio + " vs CSAC " + worstCsac,
          at40.get(p).stragglerHitRatio >= 3 * worstCsac);
    }
    for (Experiments.Row r : byName(rows, 100, "exact").values()) {
      assertEquals(r.strategy + " at T=100", 0, r.stragglerHitRatio, 0);
    }
    // Without a cache everyone is the same.
    Map<String, Experiments.Row> at0 = byName(rows, 0, "exact");
    assertEquals(at0.get("lru").stragglerHitRatio, at0.get("csac+lru").stragglerHitRatio, 0);
  }

  @Test
  public void experiment13SelectiveReplicationIsWorstWithExactEstimates() {
    Map<String, Experiments.Row> at40 = byName(Experiments.run("exp13", 2, "three-sigma"), 40, "exact");
    for (String s : Arrays.asList("csac+lfu", "dc1", "dc2", "agar")) {
      assertTrue(s, at40.get(s).stragglerHitRatio < at40.get("sr").stragglerHitRatio);
    }
  }

  @Test
  public void knapsackMatchesBruteForce() {
    Random r = new Random(8);
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + r.nextInt(10);
      List<FileRef> items = new ArrayList<>();
      List<Double> values = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        items.add(new FileRef(i, 1 + r.nextInt(5), "dn0"));
        values.add((double) r.nextInt(20));
      }
      long cap = r.nextInt(15);
      double best = 0;
      for (int mask = 0; mask < (1 << n); mask++) {
        long w = 0;
        double v = 0;
        for (int i = 0; i < n; i++) {
          if ((mask & (1 << i)) != 0) {
            w += items.get(i).weight();
            v += values.get(i);
          }
        }
        if (w <= cap) {
          best = Math.max(best, v);
        }
      }
      long w = 0;
      double v = 0;
      for (int i : AgarPlanner.knapsack(items, values, cap)) {
        w += items.get(i).weight();
        v += values.get(i);
      }
      assertTrue("trial " + trial, w <= cap);
      assertEquals("trial " + trial, best, v, 1e-9);
    }
  }

  @Test
  public void traceReplay() throws Exception {
    String csv = String.join("\n",
        "# two files, the straggler dn1 holds a block of file 7",
        "file,7,1,dn0;dn1",
        "file,8,1,dn2;dn3",
        "straggler,dn1,0,100",
        "read,7", "read,8", "read,7", "read,7");
    TraceReader.Trace t = TraceReader.read(new StringReader(csv));
    assertEquals(4, t.workload.readCount());
    assertEquals(4, t.workload.dataNodes());
    Simulator.Result none = Simulator.run(t.workload, Strategies.create("lru", 0, t.workload, 0), t.stragglers,
        new Simulator.Sensing(1, 10, 0, Collections.<String>emptyList()), new ThreeSigma(3, 1000, 1000), 1);
    assertEquals(3, none.stragglerHits); // every read of file 7
    Simulator.Result lru = Simulator.run(t.workload, Strategies.create("lru", 1, t.workload, 0), t.stragglers,
        new Simulator.Sensing(1, 10, 0, Collections.<String>emptyList()), new ThreeSigma(3, 1000, 1000), 1);
    // Written: 7 then 8 (a cache of 1 keeps 8). Read 7: miss, straggler hit, cached; read 8
    // evicts 7; read 7: miss, straggler hit, cached; read 7: cache hit.
    assertEquals(2, lru.stragglerHits);
    assertEquals(1, lru.cacheHits);
  }

  /**
   * On the paper's Experiment 4 size mix, weighing the data each parity protects keeps
   * the parity of the many-block files, which a straggler is likelier to touch: fewer
   * straggler hits than CSAC+LFU with the same cache, and far fewer than caching the
   * whole data of the most read files (SP-Cache) in the same space.
   */
  @Test
  public void benefitPerByteBeatsLfuAndWholeDataOnTheSizeMix() {
    String[] names = {"csac+lfu", "csac+benefit", "sp-cache"};
    int[] hits = new int[names.length];
    for (int i = 0; i < names.length; i++) {
      for (long seed = 1; seed <= 3; seed++) {
        Workload w = Experiments.mixWorkload(seed);
        Simulator.Result r = Simulator.run(w, Strategies.create(names[i], 80, w, 0),
            java.util.Collections.singletonList(new Simulator.Straggler("dn0", 0, Integer.MAX_VALUE)),
            new Simulator.Sensing(50, 10, 0, java.util.Collections.<String>emptyList()),
            org.pocache.csac.detect.Detectors.create("detector", "median-mad", 5, 10_000, 10_000, 0.3), seed);
        hits[i] += r.stragglerHits;
      }
    }
    String all = java.util.Arrays.toString(names) + " straggler hits: " + java.util.Arrays.toString(hits);
    assertTrue(all, hits[1] < hits[0]);
    assertTrue(all, hits[1] * 4 < hits[2]);
  }

  @Test
  public void badTracesAndParametersAreNamed() {
    expect("line 2: read of undeclared file 9", "file,1,1,dn0\nread,9");
    expect("line 1: expected file,<id>,<weight>,<dn>;<dn>;...", "file,1,1");
    expect("line 1: unknown record 'write' (file, read, straggler)", "write,1");
    expect("line 1: weight of file 1 must be > 0, got 0", "file,1,0,dn0");
    try {
      Strategies.create("mru", 10, Workload.zipf(10, 2, 1, 4, 10, 0.9, 1), 0);
      fail();
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("unknown strategy 'mru'; known: lru"));
    }
    try {
      Experiments.run("exp99", 1, "three-sigma");
      fail();
    } catch (IllegalArgumentException e) {
      assertEquals("unknown experiment 'exp99'; known: exp11, exp13, exp15, mix", e.getMessage());
    }
  }

  private static void expect(String message, String csv) {
    try {
      TraceReader.read(new StringReader(csv));
      fail("accepted: " + csv);
    } catch (IllegalArgumentException | java.io.IOException e) {
      assertEquals(message, e.getMessage());
    }
  }
}
