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
package org.pocache.manager.server;

import org.pocache.csac.FileRef;
import org.pocache.csac.ParityFootprint;
import org.pocache.manager.PoCacheConfigKeys;

/** Which code a file's parity is made with, or why it cannot have any; and its weight in CSAC. */
final class CodePlanner {
  /** The code a file is cached under, or why it cannot be. */
  static final class Code {
    final boolean cacheable;
    final String why;
    final int k;
    /** The cell size of a striped file; 0 for a contiguous one. */
    final int cell;

    private Code(int k, int cell) {
      this.cacheable = true;
      this.why = null;
      this.k = k;
      this.cell = cell;
    }

    private Code(String why) {
      this.cacheable = false;
      this.why = why;
      this.k = 0;
      this.cell = 0;
    }
  }

  private final int k;
  private final int m;
  private final int subblockBytes;

  CodePlanner(ManagerSettings s) {
    this.k = s.k;
    this.m = s.m;
    this.subblockBytes = s.subblockBytes;
  }

  int m() {
    return m;
  }

  Code codeFor(FileInfo f) {
    if (f.encrypted) {
      return new Code("NOT_CACHEABLE: in an encryption zone (its parity would be made from the plaintext)");
    }
    int fk = f.striped() ? f.ecDataUnits : k;
    if (fk < 2 || fk > 32) {
      return new Code("NOT_CACHEABLE: k = " + fk + " data units is outside 2..32");
    }
    if (!f.striped() && f.blockSize % subblockBytes != 0) {
      return new Code("NOT_CACHEABLE: block size " + f.blockSize + " is not a multiple of "
          + PoCacheConfigKeys.SUBBLOCK_KEY + " = " + subblockBytes);
    }
    if (f.striped() && (f.ecCellSize <= 0 || f.blockSize % f.ecCellSize != 0)) {
      return new Code("NOT_CACHEABLE: cell size " + f.ecCellSize + " does not divide the block size " + f.blockSize);
    }
    return new Code(fk, f.striped() ? f.ecCellSize : 0);
  }

  /** The file as CSAC weighs it: the parity bytes of {@code length} bytes of it, protecting those bytes. */
  FileRef fileRef(FileInfo f, Code code, long length) {
    long w = Math.max(1, ParityFootprint.parityBytes(length, f.blockSize, code.k, m));
    return new FileRef(f.id, w, Math.max(w, length), f.dataNodes.toArray(new String[0]));
  }

  /**
   * The file {@code id} with {@code parityBytes} of parity as CSAC weighs it: the data it
   * protects is the file's length, or the parity's own size while the NameNode has less
   * of the file than that (a write still under way: its commit corrects it).
   */
  static FileRef fileRef(long id, long parityBytes, FileInfo f) {
    return new FileRef(id, parityBytes, Math.max(parityBytes, f.length), f.dataNodes.toArray(new String[0]));
  }

  /**
   * The subblock of a file cached under {@code code}: an erasure-coded file is sliced a
   * row of cells at a time, so its data subblock is one cell, which is one contiguous
   * range of the file (a subblock of several cells is not).
   */
  int subblockBytes(Code code) {
    return code.cell > 0 ? code.cell : subblockBytes;
  }

  /** A FileRef for a file CSAC knows, as it is now; null if it cannot be cached. */
  FileRef refIfCacheable(FileInfo f) {
    Code c = codeFor(f);
    return c.cacheable ? fileRef(f, c, f.length) : null;
  }
}
