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

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.pocache.hdfs.client.buffer.BufferPool;

/**
 * Subblocks of blocks a {@link SequentialReader}'s caller has not reached yet, read by
 * rebuilds of an earlier block: they serve the caller when it gets there, so a block rebuilt
 * from parity does not cost the other blocks' DataNodes their bytes twice. Pooled arrays of
 * {@code subblock} bytes, each reserved in the FileSystem's read-ahead budget (shared with
 * its fetches ahead). Guarded by the reader's lock: every method is called with it held.
 */
final class KeptSubblocks {
  private final BufferPool buffers;
  private final BlockPrefetch.Budget budget;
  private final int subblock;
  private final Map<Long, byte[]> kept = new HashMap<>();
  /**
   * Subblocks the caller has read already, kept for the rebuilds of a later block of their
   * stripe ({@link KeptBehind}); they serve rebuilds only, and go once the caller leaves
   * the stripe.
   */
  private final Map<Long, byte[]> behind = new HashMap<>();

  KeptSubblocks(BufferPool buffers, BlockPrefetch.Budget budget, int subblock) {
    this.buffers = buffers;
    this.budget = budget;
    this.subblock = subblock;
  }

  boolean holds(long g) {
    return kept.containsKey(g);
  }

  /** Subblock g's bytes, now the caller's (pooled; release them), or null if not kept. */
  byte[] take(long g) {
    byte[] mine = kept.remove(g);
    if (mine != null) {
      budget.release(subblock);
    }
    return mine;
  }

  /** Copies the first {@code n} bytes of subblock g into {@code b}; false if it is not kept. */
  boolean copy(long g, byte[] b, int n) {
    byte[] mine = kept.get(g);
    if (mine == null) {
      mine = behind.get(g);
    }
    if (mine == null) {
      return false;
    }
    System.arraycopy(mine, 0, b, 0, n);
    return true;
  }

  /**
   * Keeps subblock g, whose first {@code n} bytes a rebuild read into {@code b} (a pooled
   * array of at least a subblock), if the budget allows; returns whether it did, and so
   * took {@code b} over (no copy: the rebuild is done with it).
   */
  boolean keep(long g, byte[] b, int n) {
    if (kept.containsKey(g) || b.length < subblock || budget.reserve(subblock, subblock) == 0) {
      return false;
    }
    kept.put(g, b);
    return true;
  }

  /** A pooled array for one subblock, its room reserved in the budget; null if the budget has none. */
  byte[] borrowBehind() {
    return budget.reserve(subblock, subblock) == 0 ? null : buffers.borrow(subblock);
  }

  /** Gives back an array of {@link #borrowBehind} that was not kept. */
  void giveBack(byte[] bytes) {
    buffers.release(bytes);
    budget.release(subblock);
  }

  /** Keeps subblock g, which the caller read, in an array of {@link #borrowBehind} (now this class's). */
  void keepBehind(long g, byte[] bytes) {
    if (kept.containsKey(g) || behind.containsKey(g)) {
      giveBack(bytes);
      return;
    }
    behind.put(g, bytes);
  }

  /**
   * Subblock g, which the caller read, handed over with its room in the budget: its array
   * (pooled; the taker releases it), or null if it is not kept behind. A rebuild that fails
   * after taking it reads it from its DataNode again, as without this class.
   */
  byte[] takeBehind(long g) {
    byte[] mine = behind.remove(g);
    if (mine != null) {
      budget.release(subblock);
    }
    return mine;
  }

  /** Drops the subblocks the caller read before subblock {@code before}. */
  void dropBehindBefore(long before) {
    drop(behind, before);
  }

  /** Drops everything kept. */
  void dropAll() {
    drop(kept, Long.MAX_VALUE);
    drop(behind, Long.MAX_VALUE);
  }

  /** Drops the subblocks before subblock {@code before}. */
  void dropBefore(long before) {
    drop(kept, before);
  }

  private void drop(Map<Long, byte[]> from, long before) {
    if (from.isEmpty()) {
      return;
    }
    Iterator<Map.Entry<Long, byte[]>> it = from.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Long, byte[]> e = it.next();
      if (e.getKey() < before) {
        buffers.release(e.getValue());
        budget.release(subblock);
        it.remove();
      }
    }
  }
}
