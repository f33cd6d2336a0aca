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

/**
 * A systematic (k, m) code: k data pieces, m parity pieces, over GF(2^8). The
 * supported range keeps a Cauchy generator matrix MDS and k + m within what a
 * GF(2^8) Cauchy construction allows: 2 <= k <= 32 and 1 <= m <= 4.
 */
public final class CodeParameters {
  public static final int MIN_K = 2;
  public static final int MAX_K = 32;
  public static final int MIN_M = 1;
  public static final int MAX_M = 4;

  private final int k;
  private final int m;

  private CodeParameters(int k, int m) {
    this.k = k;
    this.m = m;
  }

  /**
   * @throws IllegalArgumentException naming the bad value if k or m is out of range
   */
  public static CodeParameters of(int k, int m) {
    if (k < MIN_K || k > MAX_K) {
      throw new IllegalArgumentException("k (data pieces) must be in [" + MIN_K + ", " + MAX_K + "], got " + k);
    }
    if (m < MIN_M || m > MAX_M) {
      throw new IllegalArgumentException("m (parity pieces) must be in [" + MIN_M + ", " + MAX_M + "], got " + m);
    }
    return new CodeParameters(k, m);
  }

  public int k() {
    return k;
  }

  public int m() {
    return m;
  }

  /** k + m: pieces per substripe. */
  public int width() {
    return k + m;
  }

  /** Parity overhead m / k, the redundancy the cache pays for (paper §2.2). */
  public double overhead() {
    return (double) m / k;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CodeParameters && ((CodeParameters) o).k == k && ((CodeParameters) o).m == m;
  }

  @Override
  public int hashCode() {
    return k * 31 + m;
  }

  @Override
  public String toString() {
    return "RS(" + k + "," + m + ")";
  }
}
