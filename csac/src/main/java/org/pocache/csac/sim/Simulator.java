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

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.pocache.csac.FileRef;
import org.pocache.csac.detect.StragglerDetector;

/**
 * Runs a strategy over a workload: the files are written (write-time admission),
 * then read in order. Every {@code interval} reads each DataNode reports one
 * service-rate sample to the detector (normal DataNodes about 100 MiB/s with 2%
 * jitter; real stragglers at 1/{@code slowdown} of it, unless the detector
 * "misses" that sample; false positives report as slow although they are not),
 * and the strategy gets the detector's straggler list.
 */
public final class Simulator {
  /** A DataNode that is a real straggler from read {@code from} (inclusive) to {@code to} (exclusive). */
  public static final class Straggler {
    final String dataNode;
    final int from;
    final int to;

    public Straggler(String dataNode, int from, int to) {
      this.dataNode = dataNode;
      this.from = from;
      this.to = to;
    }
  }

  /** Detector conditions. */
  public static final class Sensing {
    final int interval;
    final double slowdown;
    final double missProbability;
    final List<String> falsePositives;

    /**
     * @throws IllegalArgumentException naming the bad parameter
     */
    public Sensing(int interval, double slowdown, double missProbability, List<String> falsePositives) {
      if (interval < 1) {
        throw new IllegalArgumentException("detector interval must be >= 1 read, got " + interval);
      }
      if (!(slowdown >= 1)) {
        throw new IllegalArgumentException("straggler slowdown must be >= 1, got " + slowdown);
      }
      if (!(missProbability >= 0 && missProbability <= 1)) {
        throw new IllegalArgumentException("miss probability must be in [0, 1], got " + missProbability);
      }
      this.interval = interval;
      this.slowdown = slowdown;
      this.missProbability = missProbability;
      this.falsePositives = new ArrayList<>(falsePositives);
    }
  }

  /** What a run measured. */
  public static final class Result {
    public final String strategy;
    public final int reads;
    public final int stragglerHits;
    public final int cacheHits;
    public final long cachedWeight;
    public final long evictedWeight;
    public final long prefetchedWeight;

    Result(String strategy, int reads, int stragglerHits, int cacheHits, long cached, long evicted, long prefetched) {
      this.strategy = strategy;
      this.reads = reads;
      this.stragglerHits = stragglerHits;
      this.cacheHits = cacheHits;
      this.cachedWeight = cached;
      this.evictedWeight = evicted;
      this.prefetchedWeight = prefetched;
    }

    public double stragglerHitRatio() {
      return reads == 0 ? 0 : (double) stragglerHits / reads;
    }

    public double hitRatio() {
      return reads == 0 ? 0 : (double) cacheHits / reads;
    }
  }

  private Simulator() {
  }

  public static Result run(Workload w, Strategy s, List<Straggler> stragglers, Sensing sensing,
      StragglerDetector detector, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    for (FileRef f : w.files()) {
      s.onWrite(f);
    }
    int hits = 0;
    int cacheHits = 0;
    long now = 0;
    for (int i = 0; i < w.readCount(); i++) {
      Set<String> actual = actualAt(stragglers, i);
      if (i % sensing.interval == 0) {
        now += 1000;
        for (int d = 0; d < w.dataNodes(); d++) {
          String dn = "dn" + d;
          boolean slow = (actual.contains(dn) && r.nextDouble() >= sensing.missProbability)
              || sensing.falsePositives.contains(dn);
          double rate = 100 * (1 + 0.02 * nextGaussian(r)) / (slow ? sensing.slowdown : 1);
          detector.report(dn, (long) (rate * (1 << 20)), 1000, now);
        }
        s.onStragglers(detector.stragglers(now));
      }
      FileRef f = w.read(i);
      if (s.read(f, actual)) {
        hits++;
      }
      if (s.lastReadHit()) {
        cacheHits++;
      }
    }
    return new Result(s.name(), w.readCount(), hits, cacheHits, s.cachedWeight(), s.evictedWeight(),
        s.prefetchedWeight());
  }

  private static Set<String> actualAt(List<Straggler> stragglers, int read) {
    Set<String> out = null;
    for (Straggler st : stragglers) {
      if (read >= st.from && read < st.to) {
        if (out == null) {
          out = new HashSet<>();
        }
        out.add(st.dataNode);
      }
    }
    return out == null ? Collections.<String>emptySet() : out;
  }

  static int blocksOn(FileRef f, Set<String> nodes) {
    if (nodes.isEmpty()) {
      return 0;
    }
    int n = 0;
    for (String d : f.dataNodes()) {
      if (nodes.contains(d)) {
        n++;
      }
    }
    return n;
  }

  private static double nextGaussian(SplittableRandom r) {
    double u = Math.max(r.nextDouble(), 1e-300);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
  }
}
