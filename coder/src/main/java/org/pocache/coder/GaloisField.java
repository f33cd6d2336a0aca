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
 * GF(2^8) with the primitive polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d) and
 * generator 2: the field of ISA-L's erasure code and of Hadoop's RS coders, which
 * is what makes our parity byte-identical to theirs.
 */
public final class GaloisField {
  static final int POLY = 0x11d;

  private static final int[] EXP = new int[512];
  private static final int[] LOG = new int[256];
  /** MUL[a][b] = a * b; row a is the 256-byte lookup table of "multiply by a". */
  private static final byte[][] MUL = new byte[256][256];

  static {
    int x = 1;
    for (int i = 0; i < 255; i++) {
      EXP[i] = x;
      LOG[x] = i;
      x <<= 1;
      if ((x & 0x100) != 0) {
        x ^= POLY;
      }
    }
    for (int i = 255; i < EXP.length; i++) {
      EXP[i] = EXP[i - 255];
    }
    for (int a = 0; a < 256; a++) {
      for (int b = 0; b < 256; b++) {
        MUL[a][b] = (byte) slowMul(a, b);
      }
    }
  }

  private GaloisField() {
  }

  private static int slowMul(int a, int b) {
    return a == 0 || b == 0 ? 0 : EXP[LOG[a] + LOG[b]];
  }

  public static int mul(int a, int b) {
    return MUL[a & 0xff][b & 0xff] & 0xff;
  }

  /** The multiplicative inverse; 0 has none. */
  public static int inv(int a) {
    if ((a & 0xff) == 0) {
      throw new ArithmeticException("0 has no inverse in GF(2^8)");
    }
    return EXP[255 - LOG[a & 0xff]];
  }

  /** The 256-byte table of "multiply by c", shared and never to be modified. */
  static byte[] mulTable(int c) {
    return MUL[c & 0xff];
  }
}
