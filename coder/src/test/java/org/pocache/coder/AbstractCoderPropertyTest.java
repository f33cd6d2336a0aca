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

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.Test;
import org.pocache.coder.CoderTesting.Kind;

/**
 * Properties every coder must have, over random (k, m), sizes, erasure sets and
 * buffer kinds: parity equals Hadoop's RSRawEncoder byte for byte; decode(encode(x))
 * gives x back; incremental update in any order equals one-shot encode. Each
 * failure message carries the seed that reproduces it.
 */
public abstract class AbstractCoderPropertyTest {
  private static final int[] SIZES = {1, 7, 63, 64, 65, 1000, 8191, 8192, 8193, 65536 + 13};

  abstract ErasureCoder newCoder(CodeParameters p);

  private static CodeParameters randomParams(Random r) {
    return CodeParameters.of(CodeParameters.MIN_K + r.nextInt(CodeParameters.MAX_K - CodeParameters.MIN_K + 1),
        CodeParameters.MIN_M + r.nextInt(CodeParameters.MAX_M));
  }

  @Test
  public void parityIsByteIdenticalToHadoopRsRawEncoder() throws Exception {
    Random r = new Random(101);
    for (int trial = 0; trial < 60; trial++) {
      CodeParameters p = trial < 3 ? new CodeParameters[] {CodeParameters.of(4, 1), CodeParameters.of(6, 3),
          CodeParameters.of(10, 4)}[trial] : randomParams(r);
      int len = SIZES[r.nextInt(SIZES.length)];
      byte[][] data = CoderTesting.randomPieces(p.k(), len, r);
      byte[][] want = CoderTesting.hadoopParity(p.k(), p.m(), data);
      try (ErasureCoder c = newCoder(p)) {
        byte[][] got = new byte[p.m()][len];
        c.encode(data, 0, got, 0, len);
        for (int i = 0; i < p.m(); i++) {
          assertArrayEquals("trial " + trial + " " + p + " len " + len + " parity " + i, want[i], got[i]);
        }
      }
    }
  }

  @Test
  public void everyBufferKindGivesTheSameParityAndKeepsPositions() throws Exception {
    Random r = new Random(202);
    for (int trial = 0; trial < 80; trial++) {
      CodeParameters p = randomParams(r);
      int len = SIZES[r.nextInt(SIZES.length)];
      byte[][] data = CoderTesting.randomPieces(p.k(), len, r);
      byte[][] want = CoderTesting.hadoopParity(p.k(), p.m(), data);
      ByteBuffer[] in = new ByteBuffer[p.k()];
      for (int i = 0; i < p.k(); i++) {
        in[i] = CoderTesting.wrap(randomKind(r), data[i], r);
      }
      ByteBuffer[] out = new ByteBuffer[p.m()];
      for (int i = 0; i < p.m(); i++) {
        out[i] = CoderTesting.output(randomKind(r), len, r);
      }
      int[] inPos = positions(in);
      int[] outPos = positions(out);
      try (ErasureCoder c = newCoder(p)) {
        c.encode(in, out);
      }
      assertArrayEquals(inPos, positions(in));
      assertArrayEquals(outPos, positions(out));
      for (int i = 0; i < p.m(); i++) {
        assertArrayEquals("trial " + trial + " " + p + " len " + len, want[i], CoderTesting.contents(out[i], len));
      }
    }
  }

  @Test
  public void decodeRecoversAnyErasureSet() throws Exception {
    Random r = new Random(303);
    for (int trial = 0; trial < 150; trial++) {
      CodeParameters p = randomParams(r);
      int k = p.k();
      int m = p.m();
      int len = SIZES[r.nextInt(SIZES.length)];
      byte[][] all = new byte[k + m][];
      byte[][] data = CoderTesting.randomPieces(k, len, r);
      byte[][] parity = CoderTesting.hadoopParity(k, m, data);
      System.arraycopy(data, 0, all, 0, k);
      System.arraycopy(parity, 0, all, k, m);
      // Lose between 1 and m pieces; ask for some or all of them back, in random order.
      List<Integer> idx = new ArrayList<>();
      for (int i = 0; i < k + m; i++) {
        idx.add(i);
      }
      Collections.shuffle(idx, r);
      int lost = 1 + r.nextInt(m);
      int[] erased = new int[1 + r.nextInt(lost)];
      for (int i = 0; i < erased.length; i++) {
        erased[i] = idx.get(i);
      }
      boolean useBuffers = r.nextBoolean();
      try (ErasureCoder c = newCoder(p)) {
        if (useBuffers) {
          ByteBuffer[] pieces = new ByteBuffer[k + m];
          for (int i = 0; i < k + m; i++) {
            if (!idx.subList(0, lost).contains(i)) {
              pieces[i] = CoderTesting.wrap(randomKind(r), all[i], r);
            }
          }
          ByteBuffer[] out = new ByteBuffer[erased.length];
          for (int i = 0; i < out.length; i++) {
            out[i] = CoderTesting.output(randomKind(r), len, r);
          }
          c.decode(pieces, erased, out);
          for (int i = 0; i < erased.length; i++) {
            assertArrayEquals("trial " + trial + " " + p + " lost " + idx.subList(0, lost) + " piece " + erased[i],
                all[erased[i]], CoderTesting.contents(out[i], len));
          }
        } else {
          int off = r.nextInt(9);
          byte[][] pieces = new byte[k + m][];
          for (int i = 0; i < k + m; i++) {
            if (!idx.subList(0, lost).contains(i)) {
              pieces[i] = new byte[off + len];
              System.arraycopy(all[i], 0, pieces[i], off, len);
            }
          }
          byte[][] out = new byte[erased.length][len + 3];
          c.decode(pieces, off, erased, out, 3, len);
          for (int i = 0; i < erased.length; i++) {
            byte[] got = new byte[len];
            System.arraycopy(out[i], 3, got, 0, len);
            assertArrayEquals("trial " + trial + " " + p + " piece " + erased[i], all[erased[i]], got);
          }
        }
      }
    }
  }

  @Test
  public void incrementalUpdateInAnyOrderEqualsEncode() throws Exception {
    Random r = new Random(404);
    for (int trial = 0; trial < 60; trial++) {
      CodeParameters p = randomParams(r);
      int len = SIZES[r.nextInt(SIZES.length)];
      byte[][] data = CoderTesting.randomPieces(p.k(), len, r);
      byte[][] want = CoderTesting.hadoopParity(p.k(), p.m(), data);
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < p.k(); i++) {
        order.add(i);
      }
      Collections.shuffle(order, r);
      try (ErasureCoder c = newCoder(p)) {
        if (r.nextBoolean()) {
          byte[][] acc = new byte[p.m()][len];
          for (int i : order) {
            c.update(i, data[i], 0, acc, 0, len);
          }
          for (int j = 0; j < p.m(); j++) {
            assertArrayEquals("trial " + trial + " " + p + " order " + order, want[j], acc[j]);
          }
        } else {
          ByteBuffer[] acc = new ByteBuffer[p.m()];
          for (int j = 0; j < p.m(); j++) {
            acc[j] = CoderTesting.output(randomKind(r), len, r);
            for (int x = 0; x < len; x++) {
              acc[j].put(acc[j].position() + x, (byte) 0);
            }
          }
          for (int i : order) {
            c.update(i, CoderTesting.wrap(randomKind(r), data[i], r), acc);
          }
          for (int j = 0; j < p.m(); j++) {
            assertArrayEquals("trial " + trial + " " + p + " order " + order, want[j],
                CoderTesting.contents(acc[j], len));
          }
        }
      }
    }
  }

  /**
   * start() sets the accumulators from the first piece whatever they held (random
   * bytes here, and an offset into a larger array), and updates with the rest give
   * encode's parity; a piece never fed counts as zeros.
   */
  @Test
  public void startingFromAnyPieceOverOldBytesEqualsEncode() throws Exception {
    Random r = new Random(405);
    for (int trial = 0; trial < 60; trial++) {
      CodeParameters p = randomParams(r);
      int len = SIZES[r.nextInt(SIZES.length)];
      byte[][] data = CoderTesting.randomPieces(p.k(), len, r);
      int fed = 1 + r.nextInt(p.k()); // the pieces after these never arrive
      for (int i = fed; i < p.k(); i++) {
        data[i] = new byte[len];
      }
      byte[][] want = CoderTesting.hadoopParity(p.k(), p.m(), data);
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < fed; i++) {
        order.add(i);
      }
      Collections.shuffle(order, r);
      int off = r.nextInt(17);
      byte[][] acc = new byte[p.m()][off + len + 5];
      for (byte[] a : acc) {
        r.nextBytes(a);
      }
      try (ErasureCoder c = newCoder(p)) {
        c.start(order.get(0), data[order.get(0)], 0, acc, off, len);
        for (int i : order.subList(1, order.size())) {
          c.update(i, data[i], 0, acc, off, len);
        }
      }
      for (int j = 0; j < p.m(); j++) {
        assertArrayEquals("trial " + trial + " " + p + " order " + order, want[j],
            java.util.Arrays.copyOfRange(acc[j], off, off + len));
      }
    }
  }

  @Test
  public void aPieceThatNeverArrivesCountsAsZeros() {
    // A short last stripe: only pieces 0 and 1 exist; the rest are virtual zeros.
    CodeParameters p = CodeParameters.of(4, 2);
    Random r = new Random(505);
    byte[][] data = CoderTesting.randomPieces(4, 4096, r);
    data[2] = new byte[4096];
    data[3] = new byte[4096];
    try (ErasureCoder c = newCoder(p)) {
      byte[][] full = new byte[2][4096];
      c.encode(data, 0, full, 0, 4096);
      byte[][] acc = new byte[2][4096];
      c.update(1, data[1], 0, acc, 0, 4096);
      c.update(0, data[0], 0, acc, 0, 4096);
      assertArrayEquals(full[0], acc[0]);
      assertArrayEquals(full[1], acc[1]);
    }
  }

  @Test
  public void zeroLengthIsANoOp() {
    try (ErasureCoder c = newCoder(CodeParameters.of(3, 2))) {
      byte[][] parity = {{9}, {9}};
      c.encode(new byte[][] {{}, {}, {}}, 0, parity, 0, 0);
      assertEquals(9, parity[0][0]);
    }
  }

  private static Kind randomKind(Random r) {
    Kind[] kinds = Kind.values();
    return kinds[r.nextInt(kinds.length)];
  }

  private static int[] positions(ByteBuffer[] b) {
    int[] p = new int[b.length * 2];
    for (int i = 0; i < b.length; i++) {
      p[2 * i] = b[i].position();
      p[2 * i + 1] = b[i].limit();
    }
    return p;
  }
}
