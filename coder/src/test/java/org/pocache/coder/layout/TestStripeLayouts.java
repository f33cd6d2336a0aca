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
package org.pocache.coder.layout;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.Test;

/**
 * Both layouts against a simulation that deals the file's bytes into blocks the
 * way HDFS writes them (whole blocks in turn; or cells round-robin over k internal
 * blocks, a row at a time), over random small geometries including empty files,
 * files smaller than one block or one subblock, and short last stripes.
 */
public class TestStripeLayouts {

  /** Where the simulation put each file byte: {stripe, dataIndex, offsetInBlock}. */
  private static long[][] simulate(long length, long blockSize, int cellSize, int k, boolean striped) {
    long[][] where = new long[(int) length][];
    long o = 0;
    if (!striped) {
      for (long b = 0; o < length; b++) {
        for (long q = 0; q < blockSize && o < length; q++, o++) {
          where[(int) o] = new long[] {b / k, b % k, q};
        }
      }
    } else {
      for (long g = 0; o < length; g++) {
        for (long row = 0; row < blockSize / cellSize && o < length; row++) {
          for (int i = 0; i < k && o < length; i++) {
            for (int c = 0; c < cellSize && o < length; c++, o++) {
              where[(int) o] = new long[] {g, i, row * cellSize + c};
            }
          }
        }
      }
    }
    return where;
  }

  @Test
  public void randomGeometriesMatchTheSimulation() {
    Random r = new Random(31);
    for (int trial = 0; trial < 300; trial++) {
      boolean striped = r.nextBoolean();
      int k = 1 + r.nextInt(6);
      int cell = 1 + r.nextInt(5);
      int subblock = cell * (1 + r.nextInt(3));
      long block = (long) subblock * (1 + r.nextInt(4));
      long stripe = block * k;
      long length = r.nextInt(4) == 0 ? r.nextInt((int) stripe + 1) : r.nextInt((int) (3 * stripe + 5));
      StripeLayout layout = striped ? new StripedLayout(length, block, cell, subblock, k)
          : new ContiguousLayout(length, block, subblock, k);
      check(layout, simulate(length, block, cell, k, striped), r);
    }
  }

  private static void check(StripeLayout l, long[][] where, Random r) {
    String what = l.toString();
    long length = l.fileLength();
    int s = l.subblockSize();
    // Every byte: locate agrees with the simulation, and fileOffset inverts it.
    for (long o = 0; o < length; o++) {
      long[] w = where[(int) o];
      SubblockAddress a = l.locate(o);
      assertEquals(what + " @" + o, new SubblockAddress(w[0], (int) (w[2] / s), (int) w[1], (int) (w[2] % s)), a);
      assertEquals(what + " " + a, o, l.fileOffset(a.stripe, a.substripe, a.dataIndex, a.offset));
    }
    // Stored lengths count exactly the simulated bytes of each subblock; the rest is virtual.
    Map<String, Integer> count = new HashMap<>();
    for (long[] w : where) {
      count.merge(w[0] + "/" + (w[2] / s) + "/" + w[1], 1, Integer::sum);
    }
    long stored = 0;
    assertEquals(what, length == 0 ? 0 : (length - 1) / l.stripeBytes() + 1, l.stripes());
    for (long st = 0; st < l.stripes(); st++) {
      int substripes = l.substripes(st);
      for (int j = 0; j < l.substripesPerStripe(); j++) {
        int longest = 0;
        for (int i = 0; i < l.k(); i++) {
          int n = l.storedLength(st, j, i);
          assertEquals(what + " subblock " + st + "/" + j + "/" + i, (int) count.getOrDefault(st + "/" + j + "/" + i,
              0), n);
          stored += n;
          longest = Math.max(longest, n);
          for (int off = n; off < s; off++) {
            assertEquals(what + " virtual byte", -1, l.fileOffset(st, j, i, off));
          }
        }
        assertEquals(what, longest, l.parityLength(st, j));
        assertEquals(what + " substripes of " + st, longest > 0, j < substripes);
      }
    }
    assertEquals(what, length, stored);
    // Any range splits into pieces that tile it, each within one subblock.
    for (int t = 0; t < 10 && length > 0; t++) {
      long from = r.nextInt((int) length);
      long len = r.nextInt((int) (length - from) + 1);
      long[] next = {from};
      l.forEachPiece(from, len, (at, fileOffset, n) -> {
        assertEquals(what, next[0], fileOffset);
        assertEquals(what, at, l.locate(fileOffset));
        assertTrue(what, n > 0 && at.offset + n <= s);
        assertEquals(what + " piece end", fileOffset + n - 1,
            l.fileOffset(at.stripe, at.substripe, at.dataIndex, at.offset + n - 1));
        next[0] += n;
      });
      assertEquals(what, from + len, next[0]);
    }
  }

  @Test
  public void paperDefaultsOnAShortFile() {
    // 64 MiB blocks, 1 MiB subblocks, k = 4; a file of 100 MiB: blocks 0 (full) and 1 (36 MiB).
    long mib = 1 << 20;
    ContiguousLayout l = new ContiguousLayout(100 * mib, 64 * mib, (int) mib, 4);
    assertEquals(1, l.stripes());
    assertEquals(64, l.substripes(0));
    assertEquals((int) mib, l.parityLength(0, 63));
    assertEquals(0, l.storedLength(0, 36, 1));   // block 1 ends at 36 MiB
    assertEquals(0, l.storedLength(0, 0, 2));    // blocks 2 and 3 are virtual
    assertEquals(64 * mib + 5, l.fileOffset(0, 0, 1, 5));
    StripedLayout st = new StripedLayout(6 * mib + 10, 64 * mib, (int) mib, (int) mib, 4);
    assertEquals(2, st.substripes(0));            // rows 0 and 1 (row 1 partial)
    // 6 MiB + 10 = row 0 (4 cells) + row 1: cells 0 and 1 full, 10 bytes of cell 2, cell 3 empty.
    assertEquals(2 * mib, st.blockLength(0, 1));
    assertEquals(mib + 10, st.blockLength(0, 2));
    assertEquals(mib, st.blockLength(0, 3));
    assertEquals(6 * mib, st.fileOffset(0, 1, 2, 0));
  }

  @Test
  public void badGeometriesAreNamed() {
    expect("subblock size must be > 0 and divide the block size 100, got 30", () -> new ContiguousLayout(1, 100, 30,
        4));
    expect("file length must be >= 0, got -1", () -> new ContiguousLayout(-1, 100, 10, 4));
    expect("cell size must be > 0 and divide the block size 100, got 30", () -> new StripedLayout(1, 100, 30, 50, 4));
    expect("subblock size 50 must be a multiple of the cell size 20", () -> new StripedLayout(1, 100, 20, 50, 4));
    expect("file offset must be in [0, 10), got 10", () -> new ContiguousLayout(10, 100, 10, 4).locate(10));
    expect("stripe must be in [0, 1), got 1", () -> new ContiguousLayout(10, 100, 10, 4).storedLength(1, 0, 0));
    expect("range [5, 5 + 6) is not within the file of 10 bytes",
        () -> new ContiguousLayout(10, 100, 10, 4).forEachPiece(5, 6, (a, o, n) -> { }));
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
