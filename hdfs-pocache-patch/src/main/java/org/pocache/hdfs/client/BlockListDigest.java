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

import java.util.List;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * A 64-bit digest of a file's blocks: each block's id, generation stamp and length,
 * in order. Parity is bound to the blocks it was computed from: the Manager records
 * the digest of the file's blocks when the parity is committed and serves it in the
 * descriptor; a reader uses the parity only if its stream's blocks have the same
 * digest. An overwrite (new blocks), an append or a truncate (a new generation stamp
 * or length) all change it, so parity never meets data it was not made from, whatever
 * happened between the Manager's lookup and the NameNode's answer to the open.
 *
 * <p>Block ids and generation stamps are assigned by the NameNode, not chosen by
 * clients; the digest guards against races and stale parity, not against forged values.
 */
public final class BlockListDigest {
  private BlockListDigest() {
  }

  /** The digest of {@code blocks} (a file's located blocks, first to last; striped: its block groups). */
  public static long of(List<LocatedBlock> blocks) {
    long h = mix(0x5043414348454231L ^ blocks.size());
    for (LocatedBlock lb : blocks) {
      ExtendedBlock b = lb.getBlock();
      h = mix(h ^ b.getBlockId());
      h = mix(h ^ b.getGenerationStamp());
      h = mix(h ^ b.getNumBytes());
    }
    return h == 0 ? 1 : h; // 0 means "no digest recorded"
  }

  /** Whether two views of a file hold the same blocks (ids, generation stamps, lengths). */
  static boolean sameBlocks(List<LocatedBlock> a, List<LocatedBlock> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int x = 0; x < a.size(); x++) {
      ExtendedBlock p = a.get(x).getBlock();
      ExtendedBlock q = b.get(x).getBlock();
      if (!p.equals(q) || p.getGenerationStamp() != q.getGenerationStamp() || p.getNumBytes() != q.getNumBytes()) {
        return false;
      }
    }
    return true;
  }

  /** A 64-bit finalizer (xor-shift-multiply rounds): every input bit affects every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
