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

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedStripedBlock;
import org.pocache.hdfs.compat.HadoopCompat;

/**
 * Where data piece i of stripe s is stored: the DataNodes (transfer addresses) of
 * block s*k + i of a replicated file, or of internal block i of block group s of an
 * erasure-coded one. The block list is fetched from the stream once, when first
 * needed; if that fails, pieces have no known location (and so are never judged by
 * where they are).
 */
class PieceLocations {
  /** For streams whose blocks are not known: every piece is nowhere in particular. */
  static final PieceLocations NONE = new PieceLocations(null, 1, false);

  private final DFSInputStream in;
  private final int k;
  private final boolean striped;
  private volatile List<LocatedBlock> blocks;

  PieceLocations(DFSInputStream in, int k, boolean striped) {
    this.in = in;
    this.k = k;
    this.striped = striped;
  }

  List<String> of(long stripe, int dataIndex) {
    List<LocatedBlock> all = blocks;
    if (all == null) {
      if (in == null) {
        return Collections.emptyList();
      }
      try {
        all = in.getAllBlocks();
      } catch (IOException e) {
        all = Collections.emptyList();
      }
      blocks = all;
    }
    long b = striped ? stripe : stripe * k + dataIndex;
    if (b >= all.size()) {
      return Collections.emptyList();
    }
    LocatedBlock block = all.get((int) b);
    DatanodeInfo[] where = HadoopCompat.locations(block);
    List<String> out = new ArrayList<>(1);
    if (striped) {
      if (!(block instanceof LocatedStripedBlock)) {
        return Collections.emptyList();
      }
      byte[] indices = ((LocatedStripedBlock) block).getBlockIndices();
      for (int p = 0; p < indices.length && p < where.length; p++) {
        if (indices[p] == dataIndex) {
          out.add(where[p].getXferAddr());
        }
      }
    } else {
      for (DatanodeInfo dn : where) {
        out.add(dn.getXferAddr());
      }
    }
    return out;
  }
}
