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
package org.pocache.hdfs.client;

import java.nio.ByteBuffer;

/**
 * Copies of the subblocks a caller reads that the rebuilds of a later block of the same
 * stripe will want. A block left to parity is rebuilt subblock by subblock from the same
 * subblock of every other block of its stripe; those ahead of the caller are fetched ahead
 * and kept, but those it has passed were read into its own buffers and are gone, so each
 * rebuild would read them from their DataNodes again (with the straggler's block last in a
 * stripe of k, k - 1 blocks read twice). While the block being read has a later block of
 * its stripe left to parity, this class assembles each of its subblocks, as the caller's
 * reads go by, into a pooled array reserved in the FileSystem's read-ahead budget, and
 * hands it to the {@link SequentialReader}'s kept subblocks, where rebuilds look first.
 * Without room in the budget a subblock is not copied and its rebuild reads it again, as
 * before. Used on the caller's thread only.
 */
final class KeptBehind {
  private final SequentialReader reader;
  private final int subblock;
  private final long blockSize;
  private final long fileLength;
  /** The block whose bytes the caller read last; -1 before any. */
  private long block = -1;
  /** Whether that block's subblocks are wanted by rebuilds. */
  private boolean wanted;
  /** The subblock being assembled, or -1. */
  private long g = -1;
  /** Where that subblock starts and ends in the file; -1 before any. */
  private long from = -1;
  private long to = -1;
  /** Its bytes so far (from its first), or null when it is not being kept. */
  private byte[] bytes;
  private int filled;

  KeptBehind(SequentialReader reader, int subblock, long blockSize, long fileLength) {
    this.reader = reader;
    this.subblock = subblock;
    this.blockSize = blockSize;
    this.fileLength = fileLength;
  }

  /**
   * The caller was handed {@code n} bytes of the file from offset {@code at}: in
   * {@code b} from {@code off}, or else in {@code buf} from position {@code bufAt}.
   */
  void delivered(long at, byte[] b, int off, ByteBuffer buf, int bufAt, int n) {
    if (bytes == null && at >= from && at + n <= to) {
      return; // inside a subblock not kept: most small reads, with nothing to copy
    }
    while (n > 0) {
      long sg = at / subblock;
      int o = (int) (at - sg * subblock);
      int take = (int) Math.min(n, subblock - o);
      if (sg != g) {
        begin(sg, o);
      }
      if (bytes != null) {
        if (o != filled) {
          giveBack(); // a jump inside the subblock: it is not whole here
        } else {
          if (b != null) {
            System.arraycopy(b, off, bytes, o, take);
          } else {
            ByteBuffer src = buf.duplicate();
            src.position(bufAt);
            src.get(bytes, o, take);
          }
          filled += take;
          if (filled == Math.min(subblock, fileLength - sg * subblock)) {
            reader.keepBehind(sg, bytes);
            bytes = null;
          }
        }
      }
      at += take;
      off += take;
      bufAt += take;
      n -= take;
    }
  }

  private void begin(long sg, int o) {
    giveBack();
    g = sg;
    from = sg * subblock;
    to = Math.min(from + subblock, fileLength);
    long blk = sg * subblock / blockSize;
    if (blk != block) {
      block = blk;
      wanted = reader.wantedBehind(blk * blockSize);
    }
    if (wanted && o == 0) {
      bytes = reader.borrowBehind();
      filled = 0;
    }
  }

  private void giveBack() {
    if (bytes != null) {
      reader.giveBackBehind(bytes);
      bytes = null;
    }
  }

  /** The caller's reads end (a close, or a fall-back to HDFS's stream): a subblock half assembled goes back. */
  void close() {
    giveBack();
    g = -1;
    from = -1;
    to = -1;
  }

  /**
   * As {@link #delivered}, but a failure closes this (it is only a saving: the rebuilds then
   * read from the DataNodes) and is returned; null if none.
   */
  Throwable deliveredOrClosed(long at, byte[] b, int off, ByteBuffer buf, int bufAt, int n) {
    try {
      delivered(at, b, off, buf, bufAt, n);
      return null;
    } catch (RuntimeException | LinkageError e) {
      try {
        close();
      } catch (RuntimeException | LinkageError ignored) {
        // what it held is the pool's and the budget's loss, not the read's
      }
      return e;
    }
  }
}
