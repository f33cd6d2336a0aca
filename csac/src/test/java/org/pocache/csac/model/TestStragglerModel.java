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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.junit.Test;
import org.pocache.csac.model.StragglerModel.Params;
import org.pocache.csac.model.StragglerModel.Scheme;

public class TestStragglerModel {

  @Test
  public void paperNumbers() {
    // §2.2.1: k = 4, c = 1, ps = pc = 0.005: parity-only P = 2.48e-4.
    double p = StragglerModel.parityOnly(new Params(4, 1, 1, 0.005, 0.005, 0));
    assertEquals(2.48e-4, p, 0.02 * 2.48e-4);
    // §2.2.2, Fig. 4(b): a = 2, c = 2, pr = 0.001: data-only up to 4.32e-2 for k <= 10.
    assertEquals(4.32e-2, StragglerModel.dataOnly(new Params(10, 2, 2, 0.005, 0.005, 0.001)), 0.005 * 4.32e-2);
    // Fig. 4(a): a = 1, c = 1, pr = 0.001: parity-only stays near 1.91e-3 (at k = 10).
    assertEquals(1.91e-3, StragglerModel.parityOnly(new Params(10, 1, 1, 0.005, 0.005, 0.001)), 0.03 * 1.91e-3);
    // Fig. 4(b): parity-only at most 3.33e-4 for k <= 10.
    for (int k = 2; k <= 10; k += 2) {
      double po = StragglerModel.parityOnly(new Params(k, 2, 2, 0.005, 0.005, 0.001));
      assertTrue("k = " + k + ": " + po, po <= 3.33e-4 * 1.01);
    }
  }

  @Test
  public void independentCaseMatchesThePrintedFormulas() {
    for (int k = 1; k <= 12; k++) {
      for (int c = 0; c <= Math.min(k, 4); c++) {
        for (double ps : new double[] {0, 0.001, 0.005, 0.05}) {
          for (double pc : new double[] {0, 0.005, 0.02}) {
            Params p = new Params(k, c, 1, ps, pc, 0);
            assertEquals(StragglerModel.dataOnlyIndependentAsPrinted(k, c, ps, pc), StragglerModel.dataOnly(p), 1e-12);
            assertEquals(StragglerModel.parityOnlyIndependentAsPrinted(k, c, ps, pc), StragglerModel.parityOnly(p),
                1e-12);
          }
        }
      }
    }
    // c = 0: every scheme is no caching.
    Params none = new Params(6, 0, 1, 0.01, 0.01, 0);
    assertEquals(StragglerModel.noCaching(none), StragglerModel.dataOnly(none), 1e-15);
    assertEquals(StragglerModel.noCaching(none), StragglerModel.parityOnly(none), 1e-15);
  }

  @Test
  public void monteCarloAgreesWithinThreeStandardErrors() {
    // Larger probabilities than the paper's, so a few million trials resolve them.
    int point = 0;
    for (int[] kca : new int[][] {{4, 1, 1}, {6, 2, 1}, {4, 2, 2}, {8, 2, 2}}) {
      for (double pr : new double[] {0, 0.02}) {
        Params p = new Params(kca[0], kca[1], kca[2], 0.03, 0.03, pr);
        for (Scheme s : Scheme.values()) {
          StragglerModel.Estimate e = StragglerModel.monteCarlo(s, p, 400_000, 17 + point++);
          double exact = StragglerModel.probability(s, p);
          assertTrue(s + " k=" + kca[0] + " c=" + kca[1] + " a=" + kca[2] + " pr=" + pr + ": exact " + exact
              + " vs MC " + e.p + " +- " + e.stderr, Math.abs(e.p - exact) <= 3 * e.stderr);
        }
      }
    }
  }

  @Test
  public void badParametersAreNamed() {
    expect("c must be in [0, k = 4], got 5", () -> new Params(4, 5, 1, 0, 0, 0));
    expect("a must be >= 1 and divide k = 4 and c = 1, got 2", () -> new Params(4, 1, 2, 0, 0, 0));
    expect("ps must be a probability in [0, 1], got NaN", () -> new Params(4, 1, 1, Double.NaN, 0, 0));
    expect("pr must be a probability in [0, 1], got -0.1", () -> new Params(4, 1, 1, 0, 0, -0.1));
  }

  private static void expect(String message, Runnable r) {
    try {
      r.run();
      fail("accepted: " + message);
    } catch (IllegalArgumentException e) {
      assertEquals(message, e.getMessage());
    }
  }
}
