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
package org.pocache.csac.model;

import java.util.SplittableRandom;

/**
 * The probability P that reading a file hits a straggler (POCache paper §2.2),
 * for a file of k data blocks on k storage nodes and c blocks in c cache nodes.
 *
 * <p>Independent stragglers: a storage node is a straggler with probability ps,
 * a cache node with pc. Correlated stragglers: in addition, every rack is slow
 * (all of its nodes stragglers) with probability pr; the k data blocks sit a per
 * rack on r = k / a racks and the c cached blocks a per rack on c / a other racks.
 *
 * <ul>
 *   <li>No caching: the read needs all k storage nodes: P = 1 - (1-pr)^r (1-ps)^k.</li>
 *   <li>Data-only caching (replicas of c data blocks): the read avoids stragglers
 *       if every straggling storage node's block has a normal cached replica. For
 *       independent stragglers this is the paper's formula. For correlated ones
 *       the printed formula is garbled (it chooses i of c cached blocks where racks
 *       are meant, and counts cache racks inconsistently), so it is derived here for
 *       the paper's "best case", where the c cached blocks are the blocks of c/a
 *       whole data racks, each covered rack paired with one cache rack:
 *       P = 1 - (1-pr)^(r - c/a) (1-ps)^(k-c) Q^(c/a), with
 *       Q = pr(1-pr)(1-pc)^a + (1-pr)[pr(1-ps)^a + (1-pr)(1 - ps pc)^a]
 *       (the data rack slow and its cache rack fully normal; or the data rack
 *       normal and, if the cache rack is slow, every data node normal, else per
 *       block the data node or its replica normal). It reproduces the paper's
 *       4.32e-2 for k = 10, a = 2, c = 2, pr = 0.001, ps = pc = 0.005.</li>
 *   <li>Parity-only caching (c parity blocks of an MDS code): the read avoids
 *       stragglers if at most c of the k + c blocks are on stragglers. Computed
 *       exactly by convolving the number of straggling data blocks (a per slow
 *       rack, plus binomial ps in the normal racks) with that of cached blocks.
 *       With pr = 0 it is the paper's independent formula.</li>
 * </ul>
 */
public final class StragglerModel {
  private StragglerModel() {
  }

  /** The parameters of one point. */
  public static final class Params {
    public final int k;
    public final int c;
    public final int a;
    public final double ps;
    public final double pc;
    public final double pr;

    /**
     * @throws IllegalArgumentException naming the bad parameter
     */
    public Params(int k, int c, int a, double ps, double pc, double pr) {
      if (k < 1) {
        throw new IllegalArgumentException("k must be >= 1, got " + k);
      }
      if (c < 0 || c > k) {
        throw new IllegalArgumentException("c must be in [0, k = " + k + "], got " + c);
      }
      if (a < 1 || k % a != 0 || c % a != 0) {
        throw new IllegalArgumentException("a must be >= 1 and divide k = " + k + " and c = " + c + ", got " + a);
      }
      checkProbability("ps", ps);
      checkProbability("pc", pc);
      checkProbability("pr", pr);
      this.k = k;
      this.c = c;
      this.a = a;
      this.ps = ps;
      this.pc = pc;
      this.pr = pr;
    }

    private static void checkProbability(String name, double p) {
      if (!(p >= 0 && p <= 1)) {
        throw new IllegalArgumentException(name + " must be a probability in [0, 1], got " + p);
      }
    }
  }

  /** The three schemes. */
  public enum Scheme {
    NO_CACHING("no-caching"), DATA_ONLY("data-only"), PARITY_ONLY("parity-only");

    public final String label;

    Scheme(String label) {
      this.label = label;
    }
  }

  public static double probability(Scheme s, Params p) {
    switch (s) {
      case NO_CACHING:
        return noCaching(p);
      case DATA_ONLY:
        return dataOnly(p);
      default:
        return parityOnly(p);
    }
  }

  public static double noCaching(Params p) {
    int racks = p.k / p.a;
    return 1 - Math.pow(1 - p.pr, racks) * Math.pow(1 - p.ps, p.k);
  }

  public static double dataOnly(Params p) {
    int racks = p.k / p.a;
    int covered = p.c / p.a;
    double q = p.pr * (1 - p.pr) * Math.pow(1 - p.pc, p.a)
        + (1 - p.pr) * (p.pr * Math.pow(1 - p.ps, p.a) + (1 - p.pr) * Math.pow(1 - p.ps * p.pc, p.a));
    return 1 - Math.pow(1 - p.pr, racks - covered) * Math.pow(1 - p.ps, p.k - p.c) * Math.pow(q, covered);
  }

  /** The paper's independent data-only formula, term by term (tests compare it with {@link #dataOnly}). */
  public static double dataOnlyIndependentAsPrinted(int k, int c, double ps, double pc) {
    double sum = 0;
    for (int i = 0; i <= c; i++) {
      sum += binom(c, i) * Math.pow(ps, i) * Math.pow(1 - ps, k - i) * Math.pow(1 - pc, i);
    }
    return 1 - sum;
  }

  /** The paper's independent parity-only formula, term by term. */
  public static double parityOnlyIndependentAsPrinted(int k, int c, double ps, double pc) {
    double sum = 0;
    for (int i = 0; i <= c; i++) {
      for (int j = 0; j <= i; j++) {
        sum += binom(k, j) * Math.pow(ps, j) * Math.pow(1 - ps, k - j)
            * binom(c, i - j) * Math.pow(pc, i - j) * Math.pow(1 - pc, c - i + j);
      }
    }
    return 1 - sum;
  }

  public static double parityOnly(Params p) {
    double[] data = stragglingBlocks(p.k, p.a, p.ps, p.pr);
    double[] cache = stragglingBlocks(p.c, p.a, p.pc, p.pr);
    double ok = 0;
    for (int x = 0; x < data.length; x++) {
      for (int y = 0; y < cache.length && x + y <= p.c; y++) {
        ok += data[x] * cache[y];
      }
    }
    return 1 - ok;
  }

  /** Distribution of how many of n blocks (a per rack) are on stragglers. */
  private static double[] stragglingBlocks(int n, int a, double pNode, double pRack) {
    double[] dist = new double[n + 1];
    int racks = n / a;
    for (int slow = 0; slow <= racks; slow++) {
      double pSlow = binom(racks, slow) * Math.pow(pRack, slow) * Math.pow(1 - pRack, racks - slow);
      int normalNodes = n - slow * a;
      for (int j = 0; j <= normalNodes; j++) {
        dist[slow * a + j] += pSlow * binom(normalNodes, j) * Math.pow(pNode, j) * Math.pow(1 - pNode, normalNodes - j);
      }
    }
    return dist;
  }

  static double binom(int n, int r) {
    if (r < 0 || r > n) {
      return 0;
    }
    double b = 1;
    for (int i = 1; i <= r; i++) {
      b = b * (n - r + i) / i;
    }
    return b;
  }

  /** A Monte Carlo estimate and its standard error. */
  public static final class Estimate {
    public final double p;
    public final double stderr;

    Estimate(double p, double stderr) {
      this.p = p;
      this.stderr = stderr;
    }
  }

  /**
   * Simulates the racks and nodes directly (data-only uses the same best-case
   * placement as {@link #dataOnly}) and counts reads that hit a straggler.
   */
  public static Estimate monteCarlo(Scheme s, Params p, long trials, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int racks = p.k / p.a;
    int cacheRacks = p.c / p.a;
    boolean[] dataSlow = new boolean[p.k];
    boolean[] cacheSlow = new boolean[p.c];
    long hits = 0;
    for (long t = 0; t < trials; t++) {
      for (int rack = 0; rack < racks; rack++) {
        boolean rackSlow = p.pr > 0 && r.nextDouble() < p.pr;
        for (int j = 0; j < p.a; j++) {
          dataSlow[rack * p.a + j] = rackSlow || r.nextDouble() < p.ps;
        }
      }
      for (int rack = 0; rack < cacheRacks; rack++) {
        boolean rackSlow = p.pr > 0 && r.nextDouble() < p.pr;
        for (int j = 0; j < p.a; j++) {
          cacheSlow[rack * p.a + j] = rackSlow || r.nextDouble() < p.pc;
        }
      }
      boolean hit = false;
      switch (s) {
        case NO_CACHING:
          for (boolean b : dataSlow) {
            hit |= b;
          }
          break;
        case DATA_ONLY:
          // Blocks 0..c-1 (the first c/a racks) have replicas on cache node i.
          for (int i = 0; i < p.k; i++) {
            hit |= dataSlow[i] && (i >= p.c || cacheSlow[i]);
          }
          break;
        default:
          int slow = 0;
          for (boolean b : dataSlow) {
            slow += b ? 1 : 0;
          }
          for (boolean b : cacheSlow) {
            slow += b ? 1 : 0;
          }
          hit = slow > p.c;
          break;
      }
      hits += hit ? 1 : 0;
    }
    double est = (double) hits / trials;
    return new Estimate(est, Math.sqrt(Math.max(est * (1 - est), 1.0 / trials) / trials));
  }
}
