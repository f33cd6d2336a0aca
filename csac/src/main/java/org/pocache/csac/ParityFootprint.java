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
package org.pocache.csac;

/**
 * How much cache a file's parity takes: the weight n_f of a file in CSAC
 * (POCache paper, Algorithm 1). A file of L bytes in blocks of B bytes has
 * ceil(L / B) data blocks, grouped k at a time into stripes; each stripe has m
 * parity blocks. A short file, or a short last stripe, is padded with virtual
 * zero blocks to a full stripe, so even a one-byte file needs m parity blocks.
 */
public final class ParityFootprint {
  private ParityFootprint() {
  }

  /** Stripes of a file of {@code length} bytes: at least one, even for an empty file. */
  public static long stripes(long length, long blockSize, int k) {
    check(length, blockSize, k, 1);
    long blocks = length == 0 ? 0 : (length - 1) / blockSize + 1;
    long stripes = blocks == 0 ? 0 : (blocks - 1) / k + 1;
    return Math.max(1, stripes);
  }

  /** n_f: parity blocks a file needs in the cache. */
  public static long parityBlocks(long length, long blockSize, int k, int m) {
    check(length, blockSize, k, m);
    return stripes(length, blockSize, k) * m;
  }

  /**
   * Parity bytes a file needs in the cache. A parity block is as long as the
   * longest data block of its stripe, so a stripe shorter than one block needs
   * only that much; otherwise a full block.
   */
  public static long parityBytes(long length, long blockSize, int k, int m) {
    check(length, blockSize, k, m);
    long stripeBytes = blockSize * (long) k;
    long fullStripes = length / stripeBytes;
    long tail = length - fullStripes * stripeBytes;
    long tailParity = Math.min(tail, blockSize);
    return (fullStripes * blockSize + tailParity) * m;
  }

  private static void check(long length, long blockSize, int k, int m) {
    if (length < 0) {
      throw new IllegalArgumentException("file length must be >= 0, got " + length);
    }
    if (blockSize <= 0) {
      throw new IllegalArgumentException("block size must be > 0, got " + blockSize);
    }
    if (k < 1 || m < 1) {
      throw new IllegalArgumentException("k and m must be >= 1, got k=" + k + " m=" + m);
    }
  }
}
