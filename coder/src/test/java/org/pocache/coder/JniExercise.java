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

import java.nio.ByteBuffer;
import java.util.Random;

/**
 * Calls every native entry point with every operand kind, large (k, m) included
 * (more local references than JNI's default 16), and prints OK. TestNativeChecks
 * runs it in a JVM started with -Xcheck:jni.
 */
public final class JniExercise {
  private JniExercise() {
  }

  public static void main(String[] args) {
    Random r = new Random(1);
    for (int[] km : new int[][] {{4, 1}, {6, 3}, {10, 4}, {32, 4}}) {
      CodeParameters p = CodeParameters.of(km[0], km[1]);
      int len = 70_000;
      try (IsalCoder c = new IsalCoder(p); JavaCoder j = new JavaCoder(p)) {
        byte[][] data = CoderTesting.randomPieces(p.k(), len, r);
        ByteBuffer[] direct = new ByteBuffer[p.k()];
        ByteBuffer[] heap = new ByteBuffer[p.k()];
        for (int i = 0; i < p.k(); i++) {
          direct[i] = ByteBuffer.allocateDirect(len).put(data[i]);
          direct[i].flip();
          heap[i] = ByteBuffer.wrap(data[i]);
        }
        ByteBuffer[] mixed = direct.clone();
        mixed[0] = heap[0];
        byte[][] expect = new byte[p.m()][len];
        j.encode(data, 0, expect, 0, len);
        check(c, direct, expect, len);
        check(c, heap, expect, len);
        check(c, mixed, expect, len);
        byte[][] acc = new byte[p.m()][len];
        ByteBuffer[] accDirect = new ByteBuffer[p.m()];
        for (int x = 0; x < p.m(); x++) {
          accDirect[x] = ByteBuffer.allocateDirect(len);
        }
        for (int i = p.k() - 1; i >= 0; i--) {
          c.update(i, data[i], 0, acc, 0, len);
          c.update(i, direct[i], accDirect);
        }
        for (int x = 0; x < p.m(); x++) {
          same(expect[x], acc[x]);
          same(expect[x], CoderTesting.contents(accDirect[x], len));
        }
        ByteBuffer[] pieces = new ByteBuffer[p.k() + p.m()];
        System.arraycopy(mixed, 0, pieces, 0, p.k());
        for (int x = 0; x < p.m(); x++) {
          pieces[p.k() + x] = ByteBuffer.wrap(expect[x]);
        }
        int[] erased = new int[p.m()];
        ByteBuffer[] out = new ByteBuffer[p.m()];
        for (int x = 0; x < p.m(); x++) {
          erased[x] = x;
          pieces[x] = null;
          out[x] = x % 2 == 0 ? ByteBuffer.allocateDirect(len) : ByteBuffer.allocate(len);
        }
        c.decode(pieces, erased, out);
        for (int x = 0; x < p.m(); x++) {
          same(data[x], CoderTesting.contents(out[x], len));
        }
      }
    }
    byte[] v = new byte[100_003];
    r.nextBytes(v);
    byte[][] parts = {java.util.Arrays.copyOf(v, 70), java.util.Arrays.copyOfRange(v, 70, v.length)};
    try {
      byte[] want = java.security.MessageDigest.getInstance("SHA-256").digest(v);
      IsalNative.sha256Accelerated();
      same(want, Sha256.nativeDigest(parts, false));
      same(want, Sha256.nativeDigest(parts, true));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    System.out.println("OK");
  }

  private static void check(IsalCoder c, ByteBuffer[] in, byte[][] expect, int len) {
    ByteBuffer[] out = new ByteBuffer[expect.length];
    for (int x = 0; x < out.length; x++) {
      out[x] = x % 2 == 0 ? ByteBuffer.allocateDirect(len) : ByteBuffer.allocate(len);
    }
    c.encode(in, out);
    for (int x = 0; x < out.length; x++) {
      same(expect[x], CoderTesting.contents(out[x], len));
    }
  }

  private static void same(byte[] a, byte[] b) {
    if (!java.util.Arrays.equals(a, b)) {
      throw new AssertionError("ISA-L result differs from the Java coder's");
    }
  }
}
