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
 * A replicated HDFS file: stripe s is HDFS blocks sk .. sk+k-1, so data subblock
 * (s, j, i) is the file range [(sk+i)B + jS, +S). A short last stripe has fewer
 * (or shorter) blocks; the missing ones are virtual zeros.
 */
public final class ContiguousLayout extends StripeLayout {

  /**
   * @throws IllegalArgumentException naming the bad parameter (negative length,
   *     subblock size not dividing the block size, k < 1)
   */
  public ContiguousLayout(long fileLength, long blockSize, int subblockSize, int k) {
    super(fileLength, blockSize, subblockSize, k);
  }

  @Override
  public long blockLength(long stripe, int dataIndex) {
    long start = (stripe * k + dataIndex) * blockSize;
    return Math.max(0, Math.min(blockSize, fileLength - start));
  }

  @Override
  long offsetInFile(long stripe, int dataIndex, long offsetInBlock) {
    return (stripe * k + dataIndex) * blockSize + offsetInBlock;
  }

  @Override
  public SubblockAddress locate(long fileOffset) {
    checkOffset(fileOffset);
    long block = fileOffset / blockSize;
    long q = fileOffset % blockSize;
    return new SubblockAddress(block / k, (int) (q / subblockSize), (int) (block % k), (int) (q % subblockSize));
  }

  @Override
  long runLength(long fileOffset) {
    // Subblock boundaries are the multiples of S in the file, since S divides B.
    return subblockSize - fileOffset % subblockSize;
  }

  @Override
  public String toString() {
    return "contiguous(length " + fileLength + ", block " + blockSize + ", subblock " + subblockSize + ", k " + k
        + ")";
  }
}
