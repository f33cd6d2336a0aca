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
 * Block slicing (POCache paper §3.1): how a file's bytes map onto stripes of k
 * data "blocks", each cut into subblocks of S bytes, and back.
 *
 * <p>Stripe s has k data blocks; substripe j of stripe s is subblock j (bytes
 * [jS, (j+1)S) of each block) of its k blocks, plus m parity subblocks. A block
 * is an HDFS block (contiguous layout) or an internal block of a block group
 * (striped layout). Bytes past the end of the file are <em>virtual zeros</em>:
 * they count in the coding but are never stored, read or sent. Within one block
 * the file's bytes come first and the virtual zeros after, so every subblock
 * holds a stored prefix of {@link #storedLength} bytes.
 */
public abstract class StripeLayout {
  protected final long fileLength;
  protected final long blockSize;
  protected final int subblockSize;
  protected final int k;

  StripeLayout(long fileLength, long blockSize, int subblockSize, int k) {
    if (fileLength < 0) {
      throw new IllegalArgumentException("file length must be >= 0, got " + fileLength);
    }
    if (blockSize <= 0) {
      throw new IllegalArgumentException("block size must be > 0, got " + blockSize);
    }
    if (subblockSize <= 0 || blockSize % subblockSize != 0) {
      throw new IllegalArgumentException("subblock size must be > 0 and divide the block size " + blockSize
          + ", got " + subblockSize);
    }
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1, got " + k);
    }
    if (blockSize > Long.MAX_VALUE / k) {
      throw new IllegalArgumentException("block size " + blockSize + " x k " + k + " overflows");
    }
    this.fileLength = fileLength;
    this.blockSize = blockSize;
    this.subblockSize = subblockSize;
    this.k = k;
  }

  public long fileLength() {
    return fileLength;
  }

  public long blockSize() {
    return blockSize;
  }

  public int subblockSize() {
    return subblockSize;
  }

  public int k() {
    return k;
  }

  /** Data bytes a full stripe holds: k blocks. */
  public long stripeBytes() {
    return blockSize * k;
  }

  /** Stripes holding any byte of the file; 0 for an empty file. */
  public long stripes() {
    return fileLength == 0 ? 0 : (fileLength - 1) / stripeBytes() + 1;
  }

  /** Substripes of stripe s with any stored byte (the last stripe may have fewer). */
  public int substripes(long stripe) {
    checkStripe(stripe);
    long longest = blockLength(stripe, 0);
    return (int) ((longest + subblockSize - 1) / subblockSize);
  }

  /** Substripes of a full stripe: B / S. */
  public int substripesPerStripe() {
    return (int) (blockSize / subblockSize);
  }

  /** Stored bytes of data block i of stripe s (0..B); the rest are virtual zeros. */
  public abstract long blockLength(long stripe, int dataIndex);

  /** File offset of byte q of data block i of stripe s (whether or not it is stored). */
  abstract long offsetInFile(long stripe, int dataIndex, long offsetInBlock);

  /** The coordinates of a stored byte. */
  public abstract SubblockAddress locate(long fileOffset);

  /** Bytes from {@code fileOffset} on that are contiguous both in the file and in one subblock. */
  abstract long runLength(long fileOffset);

  /**
   * The file offset of a subblock byte, or -1 if it is a virtual zero.
   */
  public long fileOffset(long stripe, int substripe, int dataIndex, int offset) {
    checkSubblock(stripe, substripe, dataIndex);
    if (offset < 0 || offset >= subblockSize) {
      throw new IllegalArgumentException("offset must be in [0, " + subblockSize + "), got " + offset);
    }
    long q = (long) substripe * subblockSize + offset;
    return q < blockLength(stripe, dataIndex) ? offsetInFile(stripe, dataIndex, q) : -1;
  }

  /** Stored bytes of data subblock (s, j, i): a prefix of it, 0..S. */
  public int storedLength(long stripe, int substripe, int dataIndex) {
    checkSubblock(stripe, substripe, dataIndex);
    long rest = blockLength(stripe, dataIndex) - (long) substripe * subblockSize;
    return (int) Math.max(0, Math.min(subblockSize, rest));
  }

  /**
   * Bytes of parity of substripe (s, j) worth caching: the longest stored data
   * subblock of the substripe (block 0's, in both layouts); parity past it would
   * be the code of virtual zeros, i.e. zeros.
   */
  public int parityLength(long stripe, int substripe) {
    return storedLength(stripe, substripe, 0);
  }

  /** Receives the pieces of a file range, in file order. */
  public interface RangeVisitor {
    void piece(SubblockAddress at, long fileOffset, int length);
  }

  /**
   * Splits [offset, offset + length) of the file into pieces that are each
   * contiguous in the file and within one subblock, in file order.
   */
  public void forEachPiece(long offset, long length, RangeVisitor visitor) {
    if (offset < 0 || length < 0 || offset > fileLength - length) {
      throw new IllegalArgumentException("range [" + offset + ", " + offset + " + " + length
          + ") is not within the file of " + fileLength + " bytes");
    }
    long pos = offset;
    long end = offset + length;
    while (pos < end) {
      int n = (int) Math.min(end - pos, runLength(pos));
      visitor.piece(locate(pos), pos, n);
      pos += n;
    }
  }

  final void checkOffset(long fileOffset) {
    if (fileOffset < 0 || fileOffset >= fileLength) {
      throw new IllegalArgumentException("file offset must be in [0, " + fileLength + "), got " + fileOffset);
    }
  }

  final void checkStripe(long stripe) {
    if (stripe < 0 || stripe >= stripes()) {
      throw new IllegalArgumentException("stripe must be in [0, " + stripes() + "), got " + stripe);
    }
  }

  final void checkSubblock(long stripe, int substripe, int dataIndex) {
    checkStripe(stripe);
    if (substripe < 0 || substripe >= substripesPerStripe()) {
      throw new IllegalArgumentException("substripe must be in [0, " + substripesPerStripe() + "), got "
          + substripe);
    }
    if (dataIndex < 0 || dataIndex >= k) {
      throw new IllegalArgumentException("data index must be in [0, " + k + "), got " + dataIndex);
    }
  }
}
