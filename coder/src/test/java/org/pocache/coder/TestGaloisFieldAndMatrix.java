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
package org.pocache.coder;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.util.Random;
import org.apache.hadoop.io.erasurecode.rawcoder.util.RSUtil;
import org.junit.Test;

public class TestGaloisFieldAndMatrix {

  @Test
  public void fieldAxioms() {
    for (int a = 1; a < 256; a++) {
      assertEquals("a * inv(a)", 1, GaloisField.mul(a, GaloisField.inv(a)));
      assertEquals(0, GaloisField.mul(a, 0));
      assertEquals(a, GaloisField.mul(a, 1));
    }
    Random r = new Random(7);
    for (int i = 0; i < 10_000; i++) {
      int a = r.nextInt(256);
      int b = r.nextInt(256);
      int c = r.nextInt(256);
      assertEquals(GaloisField.mul(a, b), GaloisField.mul(b, a));
      assertEquals(GaloisField.mul(a, b ^ c), GaloisField.mul(a, b) ^ GaloisField.mul(a, c));
      assertEquals(GaloisField.mul(GaloisField.mul(a, b), c), GaloisField.mul(a, GaloisField.mul(b, c)));
    }
    assertEquals(0x1d, GaloisField.mul(0x80, 2)); // reduction by 0x11d
  }

  @Test
  public void cauchyBlockEqualsHadoopsGenerator() {
    for (int k = CodeParameters.MIN_K; k <= CodeParameters.MAX_K; k++) {
      for (int m = CodeParameters.MIN_M; m <= CodeParameters.MAX_M; m++) {
        byte[] hadoop = new byte[(k + m) * k];
        RSUtil.genCauchyMatrix(hadoop, k + m, k);
        byte[] parity = new byte[m * k];
        System.arraycopy(hadoop, k * k, parity, 0, m * k);
        assertArrayEquals("k=" + k + " m=" + m, parity, CodingMatrix.cauchyParity(k, m).toBytes());
      }
    }
  }

  @Test
  public void everyChoiceOfKPiecesIsInvertible() {
    // Exhaustive for small codes, sampled for the rest: the code is MDS.
    Random r = new Random(9);
    for (int k = CodeParameters.MIN_K; k <= CodeParameters.MAX_K; k++) {
      for (int m = CodeParameters.MIN_M; m <= CodeParameters.MAX_M; m++) {
        CodingMatrix parity = CodingMatrix.cauchyParity(k, m);
        int n = k + m;
        if (n <= 14) {
          for (long mask = 0; mask < (1L << n); mask++) {
            if (Long.bitCount(mask) == k) {
              checkInvertible(parity, mask, n);
            }
          }
        } else {
          for (int t = 0; t < 200; t++) {
            long mask = 0;
            while (Long.bitCount(mask) < k) {
              mask |= 1L << r.nextInt(n);
            }
            checkInvertible(parity, mask, n);
          }
        }
      }
    }
  }

  private static void checkInvertible(CodingMatrix parity, long mask, int n) {
    int k = parity.cols();
    int[] survivors = new int[k];
    int[] erased = new int[n - k];
    int s = 0;
    int e = 0;
    for (int i = 0; i < n; i++) {
      if ((mask & (1L << i)) != 0) {
        survivors[s++] = i;
      } else {
        erased[e++] = i;
      }
    }
    // Throws if singular; rebuilding a survivor from the survivors must give a unit row.
    CodingMatrix d = CodingMatrix.decoding(parity, survivors, new int[] {survivors[0]});
    for (int c = 0; c < k; c++) {
      assertEquals(c == 0 ? 1 : 0, d.get(0, c));
    }
  }
}
