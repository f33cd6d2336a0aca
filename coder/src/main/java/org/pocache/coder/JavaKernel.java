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
import java.nio.ByteOrder;

/**
 * Matrix times pieces over GF(2^8) in plain Java, over chunks small enough to stay
 * in the L1 cache while every column is folded into the output.
 *
 * <p>Multiplying by a constant c is done eight bytes at a time in 64-bit words
 * (SWAR): c * a = XOR of x^i * a over the set bits i of c, where x * a per byte
 * lane is a shift, a mask and the reduction by the field polynomial 0x11d (0x1d
 * into the lanes whose top bit was set). Those loops are plain long arithmetic,
 * which HotSpot's C2 vectorizes; measured about twice as fast as 256-byte
 * multiplication tables, which need one dependent load per byte and do not
 * vectorize. Lanes are independent, so the words' byte order does not matter as
 * long as a word is written back in the order it was read. Tails shorter than a
 * word use the tables. ByteBuffer operands (direct or read-only) are copied
 * through per-thread scratch chunks with 8-byte transfers.
 */
final class JavaKernel {
  static final int CHUNK = 8 << 10;
  private static final int WORDS = CHUNK / 8;
  private static final int MAX = CodeParameters.MAX_K + CodeParameters.MAX_M;
  private static final int UPDATE_SLOT = MAX - 1;
  private static final long LOW7 = 0x7f7f7f7f7f7f7f7fL;
  private static final long LANE_BIT0 = 0x0101010101010101L;

  /**
   * Per-thread copies of ByteBuffer operands, made on first use of each slot: a
   * thread that only ever codes arrays allocates none of it (a full set is 72 x 8 KiB).
   */
  private static final class Scratch {
    final byte[][] in = new byte[MAX][];
    final byte[][] out = new byte[MAX][];
    final ByteBuffer[] inBig = new ByteBuffer[MAX];
    final ByteBuffer[] inLittle = new ByteBuffer[MAX];
    final ByteBuffer[] outBig = new ByteBuffer[MAX];
    final ByteBuffer[] outLittle = new ByteBuffer[MAX];
    final byte[][] inRef = new byte[MAX][];
    final int[] inRefOff = new int[MAX];
    final byte[][] outRef = new byte[MAX][];
    final int[] outRefOff = new int[MAX];
    /** Input words of the current chunk, one array per column, made on first use. */
    final long[][] inWords = new long[MAX][];
    final long[] outWords = new long[WORDS];
    final long[] power = new long[WORDS];
    /**
     * Little-endian views of the byte arrays last seen in each slot (inputs, then
     * outputs), two per slot, reused while callers pass the same arrays: no
     * allocation in steady state, even when calls alternate between two buffer sets.
     */
    final byte[][] viewOf = new byte[4 * MAX][];
    final ByteBuffer[] view = new ByteBuffer[4 * MAX];
    final boolean[] newerIsSecond = new boolean[2 * MAX];

    ByteBuffer words(int slot, byte[] array) {
      int a = 2 * slot;
      if (viewOf[a] == array) {
        return view[a];
      }
      if (viewOf[a + 1] == array) {
        return view[a + 1];
      }
      int victim = newerIsSecond[slot] ? a : a + 1; // replace the older of the two
      newerIsSecond[slot] = victim == a + 1;
      viewOf[victim] = array;
      view[victim] = ByteBuffer.wrap(array).order(ByteOrder.LITTLE_ENDIAN);
      return view[victim];
    }

    long[] inWords(int c) {
      if (inWords[c] == null) {
        inWords[c] = new long[WORDS];
      }
      return inWords[c];
    }

    /** The scratch chunk for input slot i, viewed in {@code order}. */
    ByteBuffer inView(int i, ByteOrder order) {
      if (in[i] == null) {
        in[i] = new byte[CHUNK];
        inBig[i] = ByteBuffer.wrap(in[i]).order(ByteOrder.BIG_ENDIAN);
        inLittle[i] = ByteBuffer.wrap(in[i]).order(ByteOrder.LITTLE_ENDIAN);
      }
      return order == ByteOrder.BIG_ENDIAN ? inBig[i] : inLittle[i];
    }

    /** The scratch chunk for output slot r, viewed in {@code order}. */
    ByteBuffer outView(int r, ByteOrder order) {
      if (out[r] == null) {
        out[r] = new byte[CHUNK];
        outBig[r] = ByteBuffer.wrap(out[r]).order(ByteOrder.BIG_ENDIAN);
        outLittle[r] = ByteBuffer.wrap(out[r]).order(ByteOrder.LITTLE_ENDIAN);
      }
      return order == ByteOrder.BIG_ENDIAN ? outBig[r] : outLittle[r];
    }
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private JavaKernel() {
  }

  /** out[r] = sum_c mat[r][c] * in[c] over {@code len} bytes. */
  static void code(CodingMatrix mat, AbstractErasureCoder.Operands ops, int len) {
    int rows = mat.rows();
    int cols = mat.cols();
    Scratch s = SCRATCH.get();
    try {
      for (int start = 0; start < len; start += CHUNK) {
        int n = Math.min(CHUNK, len - start);
        int words = n >>> 3;
        for (int c = 0; c < cols; c++) {
          bindIn(s, c, ops.inBase[c], ops.inOff[c] + start, n);
          load(s.words(c, s.inRef[c]), s.inRefOff[c], s.inWords(c), words);
        }
        for (int r = 0; r < rows; r++) {
          bindOut(s, r, ops.outBase[r], ops.outOff[r] + start);
          codeRow(mat, r, cols, s, words, n);
          flushOut(s, r, ops.outBase[r], ops.outOff[r] + start, n);
        }
      }
    } finally {
      clearRefs(s);
    }
  }

  private static void clearRefs(Scratch s) {
    java.util.Arrays.fill(s.inRef, null);
    java.util.Arrays.fill(s.outRef, null);
  }

  /** out[r] ^= mat[r][column] * in[0] over {@code len} bytes. */
  static void accumulate(CodingMatrix mat, int column, AbstractErasureCoder.Operands ops, int len) {
    int rows = mat.rows();
    Scratch s = SCRATCH.get();
    try {
      for (int start = 0; start < len; start += CHUNK) {
        int n = Math.min(CHUNK, len - start);
        bindIn(s, 0, ops.inBase[0], ops.inOff[0] + start, n);
        for (int r = 0; r < rows; r++) {
          Object base = ops.outBase[r];
          int at = ops.outOff[r] + start;
          bindOut(s, r, base, at);
          if (!(base instanceof byte[])) {
            ByteBuffer b = (ByteBuffer) base;
            copyIn(b, at, s.out[r], s.outView(r, b.order()), n);
          }
          int words = n >>> 3;
          int c = mat.get(r, column);
          if (r == 0) {
            // Its own view slot (inputs of code() use slots below MAX_K), so alternating
            // update and encode calls keep their views.
            load(s.words(UPDATE_SLOT, s.inRef[0]), s.inRefOff[0], s.inWords(0), words);
          }
          ByteBuffer out = s.words(MAX + r, s.outRef[r]);
          load(out, s.outRefOff[r], s.outWords, words);
          mulXorWords(c, s.inWords(0), s.outWords, s.power, words);
          store(s.outWords, out, s.outRefOff[r], words);
          int t = words << 3;
          mulXor(c, s.inRef[0], s.inRefOff[0] + t, s.outRef[r], s.outRefOff[r] + t, n - t);
          flushOut(s, r, base, at, n);
        }
      }
    } finally {
      clearRefs(s);
    }
  }

  private static void codeRow(CodingMatrix mat, int r, int cols, Scratch s, int words, int n) {
    byte[] o = s.outRef[r];
    int oo = s.outRefOff[r];
    long[] acc = s.outWords;
    java.util.Arrays.fill(acc, 0, words, 0L);
    for (int c = 0; c < cols; c++) {
      mulXorWords(mat.get(r, c), s.inWords(c), acc, s.power, words);
    }
    store(acc, s.words(MAX + r, o), oo, words);
    int t = words << 3;
    if (t < n) {
      mulAssign(GaloisField.mulTable(mat.get(r, 0)), s.inRef[0], s.inRefOff[0] + t, o, oo + t, n - t);
      for (int c = 1; c < cols; c++) {
        mulXor(mat.get(r, c), s.inRef[c], s.inRefOff[c] + t, o, oo + t, n - t);
      }
    }
  }

  /** acc ^= c * in, lane-wise over {@code words} words; {@code power} is scratch. */
  private static void mulXorWords(int c, long[] in, long[] acc, long[] power, int words) {
    if (c == 0) {
      return;
    }
    if (c == 1) {
      for (int x = 0; x < words; x++) {
        acc[x] ^= in[x];
      }
      return;
    }
    int top = 31 - Integer.numberOfLeadingZeros(c);
    if ((c & 1) != 0) {
      for (int x = 0; x < words; x++) {
        acc[x] ^= in[x];
      }
    }
    // power = x * in, then x^2 * in, ...: XOR it in wherever c has a bit.
    timesX(in, power, words);
    for (int bit = 1; ; bit++) {
      if ((c >>> bit & 1) != 0) {
        for (int x = 0; x < words; x++) {
          acc[x] ^= power[x];
        }
      }
      if (bit == top) {
        return;
      }
      timesX(power, power, words);
    }
  }

  /** dst = x * src in every byte lane: shift left, and reduce lanes that overflowed by 0x1d (0x11d). */
  private static void timesX(long[] src, long[] dst, int words) {
    for (int x = 0; x < words; x++) {
      long v = src[x];
      long over = (v >>> 7) & LANE_BIT0;
      // over * 0x1d, without a multiply (0x1d = 0b11101; no carries leave a lane)
      dst[x] = ((v & LOW7) << 1) ^ (over << 4) ^ (over << 3) ^ (over << 2) ^ over;
    }
  }

  private static void load(ByteBuffer bytes, int at, long[] words, int n) {
    for (int x = 0; x < n; x++) {
      words[x] = bytes.getLong(at + (x << 3));
    }
  }

  private static void store(long[] words, ByteBuffer bytes, int at, int n) {
    for (int x = 0; x < n; x++) {
      bytes.putLong(at + (x << 3), words[x]);
    }
  }

  private static void bindIn(Scratch s, int i, Object base, int at, int n) {
    if (base instanceof byte[]) {
      s.inRef[i] = (byte[]) base;
      s.inRefOff[i] = at;
    } else {
      ByteBuffer b = (ByteBuffer) base;
      ByteBuffer view = s.inView(i, b.order());
      copyIn(b, at, s.in[i], view, n);
      s.inRef[i] = s.in[i];
      s.inRefOff[i] = 0;
    }
  }

  private static void bindOut(Scratch s, int r, Object base, int at) {
    if (base instanceof byte[]) {
      s.outRef[r] = (byte[]) base;
      s.outRefOff[r] = at;
    } else {
      s.outView(r, ((ByteBuffer) base).order());
      s.outRef[r] = s.out[r];
      s.outRefOff[r] = 0;
    }
  }

  private static void flushOut(Scratch s, int r, Object base, int at, int n) {
    if (!(base instanceof byte[])) {
      ByteBuffer b = (ByteBuffer) base;
      ByteBuffer view = s.outView(r, b.order());
      int i = 0;
      for (; i + 8 <= n; i += 8) {
        b.putLong(at + i, view.getLong(i));
      }
      for (; i < n; i++) {
        b.put(at + i, s.out[r][i]);
      }
    }
  }

  /** Copies n bytes at absolute index {@code at} of {@code src} into {@code dst} (viewed as {@code view}). */
  private static void copyIn(ByteBuffer src, int at, byte[] dst, ByteBuffer view, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      view.putLong(i, src.getLong(at + i));
    }
    for (; i < n; i++) {
      dst[i] = src.get(at + i);
    }
  }

  private static void mulAssign(byte[] t, byte[] a, int ai, byte[] o, int oi, int n) {
    for (int x = 0; x < n; x++) {
      o[oi + x] = t[a[ai + x] & 0xff];
    }
  }

  private static void mulXor(int coefficient, byte[] a, int ai, byte[] o, int oi, int n) {
    if (coefficient == 0) {
      return;
    }
    if (coefficient == 1) {
      for (int x = 0; x < n; x++) {
        o[oi + x] ^= a[ai + x];
      }
      return;
    }
    byte[] t = GaloisField.mulTable(coefficient);
    for (int x = 0; x < n; x++) {
      o[oi + x] ^= t[a[ai + x] & 0xff];
    }
  }
}
