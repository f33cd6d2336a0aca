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

/**
 * An erasure-coded (striped) HDFS file: stripe s is block group s, whose k data
 * internal blocks of up to B bytes are filled a row of cells at a time: cell i of
 * row r is the file range [s*kB + r*kC + i*C, +C) and lives in internal block i
 * at offset r*C. Data subblock (s, j, i) is internal block i's range [jS, (j+1)S),
 * i.e. cell i of S/C consecutive rows; with S = C a substripe is one row of cells.
 * The k of a striped file is the data-unit count of its HDFS policy.
 */
public final class StripedLayout extends StripeLayout {
  private final int cellSize;

  /**
   * @param blockSize the internal block size (the file's HDFS block size)
   * @param cellSize the erasure-coding policy's cell size
   * @throws IllegalArgumentException naming the bad parameter (cell size not dividing
   *     the block size or the subblock size, ...)
   */
  public StripedLayout(long fileLength, long blockSize, int cellSize, int subblockSize, int k) {
    super(fileLength, blockSize, subblockSize, k);
    if (cellSize <= 0 || blockSize % cellSize != 0) {
      throw new IllegalArgumentException("cell size must be > 0 and divide the block size " + blockSize
          + ", got " + cellSize);
    }
    if (subblockSize % cellSize != 0) {
      throw new IllegalArgumentException("subblock size " + subblockSize + " must be a multiple of the cell size "
          + cellSize);
    }
    this.cellSize = cellSize;
  }

  public int cellSize() {
    return cellSize;
  }

  @Override
  public long blockLength(long stripe, int dataIndex) {
    long groupBytes = Math.max(0, Math.min(stripeBytes(), fileLength - stripe * stripeBytes()));
    long rowBytes = (long) k * cellSize;
    long fullRows = groupBytes / rowBytes;
    long rest = groupBytes % rowBytes;
    return fullRows * cellSize + Math.max(0, Math.min(cellSize, rest - (long) dataIndex * cellSize));
  }

  @Override
  long offsetInFile(long stripe, int dataIndex, long offsetInBlock) {
    long row = offsetInBlock / cellSize;
    return stripe * stripeBytes() + row * k * cellSize + (long) dataIndex * cellSize + offsetInBlock % cellSize;
  }

  @Override
  public SubblockAddress locate(long fileOffset) {
    checkOffset(fileOffset);
    long stripe = fileOffset / stripeBytes();
    long w = fileOffset % stripeBytes();
    long rowBytes = (long) k * cellSize;
    long row = w / rowBytes;
    int dataIndex = (int) (w % rowBytes / cellSize);
    long q = row * cellSize + w % cellSize;
    return new SubblockAddress(stripe, (int) (q / subblockSize), dataIndex, (int) (q % subblockSize));
  }

  @Override
  long runLength(long fileOffset) {
    // Consecutive file bytes stay in one cell, and a cell lies in one subblock.
    return cellSize - fileOffset % cellSize;
  }

  @Override
  public String toString() {
    return "striped(length " + fileLength + ", internal block " + blockSize + ", cell " + cellSize + ", subblock "
        + subblockSize + ", k " + k + ")";
  }
}
