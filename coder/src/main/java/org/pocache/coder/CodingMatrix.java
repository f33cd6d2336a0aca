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

import java.util.Arrays;

/**
 * A rows x cols matrix over GF(2^8), immutable once built. It holds the parity
 * part of the generator (the "encode matrix") and the matrices that rebuild lost
 * pieces from survivors (decode matrices).
 *
 * <p>The generator of a systematic (k, m) code is the identity on top of an m x k
 * Cauchy block with entries 1 / ((k + r) XOR j): ISA-L's gf_gen_cauchy1_matrix and
 * Hadoop's RSUtil.genCauchyMatrix build the same one. Every square submatrix of a
 * Cauchy matrix is invertible, so any k of the k + m rows are (MDS) as long as all
 * the x_i = k + r and y_j = j are distinct field elements, i.e. k + m <= 256.
 */
final class CodingMatrix {
  private final int rows;
  private final int cols;
  private final byte[] a; // row-major

  private CodingMatrix(int rows, int cols, byte[] a) {
    this.rows = rows;
    this.cols = cols;
    this.a = a;
  }

  /** The m x k parity block of the systematic Cauchy generator. */
  static CodingMatrix cauchyParity(int k, int m) {
    byte[] a = new byte[m * k];
    for (int r = 0; r < m; r++) {
      for (int j = 0; j < k; j++) {
        a[r * k + j] = (byte) GaloisField.inv((k + r) ^ j);
      }
    }
    return new CodingMatrix(m, k, a);
  }

  int rows() {
    return rows;
  }

  int cols() {
    return cols;
  }

  int get(int r, int c) {
    return a[r * cols + c] & 0xff;
  }

  /** Column {@code c} alone, as a rows x 1 matrix. */
  CodingMatrix column(int c) {
    byte[] col = new byte[rows];
    for (int r = 0; r < rows; r++) {
      col[r] = a[r * cols + c];
    }
    return new CodingMatrix(rows, 1, col);
  }

  /** Row-major coefficients (a copy). */
  byte[] toBytes() {
    return a.clone();
  }

  /** Row {@code g} of the full (k + m) x k generator: a unit row for data, a parity row otherwise. */
  private static void generatorRow(CodingMatrix parity, int g, byte[] dst, int off) {
    int k = parity.cols;
    Arrays.fill(dst, off, off + k, (byte) 0);
    if (g < k) {
      dst[off + g] = 1;
    } else {
      System.arraycopy(parity.a, (g - k) * k, dst, off, k);
    }
  }

  /**
   * The matrix that rebuilds pieces {@code erased} (indexes into the k + m pieces,
   * data first) from the k pieces {@code survivors}: one row per erased piece, one
   * column per survivor, in the order given.
   */
  static CodingMatrix decoding(CodingMatrix parity, int[] survivors, int[] erased) {
    int k = parity.cols;
    byte[] sub = new byte[k * k];
    for (int r = 0; r < k; r++) {
      generatorRow(parity, survivors[r], sub, r * k);
    }
    byte[] inv = invert(sub, k); // data = inv * survivors
    byte[] out = new byte[erased.length * k];
    byte[] g = new byte[k];
    for (int e = 0; e < erased.length; e++) {
      generatorRow(parity, erased[e], g, 0);
      // piece = g * data = (g * inv) * survivors
      for (int c = 0; c < k; c++) {
        int s = 0;
        for (int t = 0; t < k; t++) {
          s ^= GaloisField.mul(g[t], inv[t * k + c]);
        }
        out[e * k + c] = (byte) s;
      }
    }
    return new CodingMatrix(erased.length, k, out);
  }

  /** Gauss-Jordan inversion of an n x n matrix. */
  static byte[] invert(byte[] m, int n) {
    byte[] w = m.clone();
    byte[] inv = new byte[n * n];
    for (int i = 0; i < n; i++) {
      inv[i * n + i] = 1;
    }
    for (int col = 0; col < n; col++) {
      int pivot = col;
      while (pivot < n && w[pivot * n + col] == 0) {
        pivot++;
      }
      if (pivot == n) {
        throw new IllegalStateException("singular matrix: the chosen pieces do not determine the data");
      }
      if (pivot != col) {
        swapRows(w, n, pivot, col);
        swapRows(inv, n, pivot, col);
      }
      int scale = GaloisField.inv(w[col * n + col]);
      for (int c = 0; c < n; c++) {
        w[col * n + c] = (byte) GaloisField.mul(w[col * n + c], scale);
        inv[col * n + c] = (byte) GaloisField.mul(inv[col * n + c], scale);
      }
      for (int r = 0; r < n; r++) {
        int f = w[r * n + col] & 0xff;
        if (r != col && f != 0) {
          for (int c = 0; c < n; c++) {
            w[r * n + c] ^= (byte) GaloisField.mul(f, w[col * n + c]);
            inv[r * n + c] ^= (byte) GaloisField.mul(f, inv[col * n + c]);
          }
        }
      }
    }
    return inv;
  }

  private static void swapRows(byte[] m, int n, int a, int b) {
    for (int c = 0; c < n; c++) {
      byte t = m[a * n + c];
      m[a * n + c] = m[b * n + c];
      m[b * n + c] = t;
    }
  }
}
