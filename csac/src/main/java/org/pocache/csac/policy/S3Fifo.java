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
package org.pocache.csac.policy;

/**
 * S3-FIFO (Yang et al., "FIFO queues are all you need for cache eviction", SOSP
 * 2023), weighted: new files enter a small FIFO S (10% of the capacity), files
 * that were read again while in S move to the main FIFO M, and files evicted from
 * S without a second read are remembered in a ghost FIFO G, so that their next
 * admission goes straight to M. M evicts its oldest file unless it was read while
 * in M (a 2-bit counter), in which case the file is reinserted with the counter
 * lowered. One-hit wonders leave quickly; O(1) amortized per operation.
 */
public final class S3Fifo implements EvictionPolicy {
  private static final int MAX_FREQ = 3;

  private final long capacity;
  private final long smallTarget;
  private final WeightedQueue small = new WeightedQueue();
  private final WeightedQueue main = new WeightedQueue();
  private final WeightedQueue ghost = new WeightedQueue();

  /**
   * @throws IllegalArgumentException if capacity <= 0
   */
  public S3Fifo(long capacity) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("S3-FIFO capacity must be > 0, got " + capacity);
    }
    this.capacity = capacity;
    this.smallTarget = Math.max(1, capacity / 10);
  }

  @Override
  public String name() {
    return "s3fifo";
  }

  @Override
  public void onAccess(long fileId, boolean cached) {
    WeightedQueue q = small.contains(fileId) ? small : main;
    int h = q.find(fileId);
    if (h >= 0 && q.counter(h) < MAX_FREQ) {
      q.setCounter(h, q.counter(h) + 1);
    }
  }

  @Override
  public void onInsert(long fileId, long weight) {
    small.remove(fileId);
    main.remove(fileId);
    if (ghost.remove(fileId)) {
      main.pushFront(fileId, weight, 0);
    } else {
      small.pushFront(fileId, weight, 0);
    }
  }

  private boolean evictFromSmall() {
    return !small.isEmpty() && (small.weight() >= smallTarget || main.isEmpty());
  }

  @Override
  public long victim(long protectedId) {
    // Promote and demote until the oldest file of the queue to evict from is cold.
    for (int guard = 0; guard < 4 * (small.size() + main.size()) + 4; guard++) {
      boolean fromSmall = evictFromSmall();
      WeightedQueue q = fromSmall ? small : main;
      int h = q.back();
      if (h < 0) {
        return -1;
      }
      if (q.id(h) == protectedId) {
        int other = q.newer(h);
        if (other < 0) {
          WeightedQueue alt = fromSmall ? main : small;
          return alt.back() < 0 ? -1 : alt.id(alt.back());
        }
        h = other;
      }
      long id = q.id(h);
      if (fromSmall) {
        if (q.counter(h) > 0) {
          long w = q.weightOf(h);
          small.removeHandle(h);
          main.pushFront(id, w, 0);
          continue;
        }
        return id;
      }
      if (q.counter(h) > 0) {
        q.setCounter(h, q.counter(h) - 1);
        q.moveToFront(h);
        continue;
      }
      return id;
    }
    WeightedQueue q = main.back() >= 0 ? main : small;
    return q.back() < 0 ? -1 : q.id(q.back());
  }

  @Override
  public long peekVictim(long protectedId) {
    return (evictFromSmall() ? small : main).oldestExcept(protectedId);
  }

  @Override
  public void onEvict(long fileId) {
    int h = small.find(fileId);
    if (h >= 0) {
      long w = small.weightOf(h);
      small.removeHandle(h);
      ghost.pushFront(fileId, w, 0);
      while (ghost.weight() > capacity - smallTarget && ghost.size() > 1) {
        ghost.popBack();
      }
    } else {
      main.remove(fileId);
    }
  }

  @Override
  public void onRemove(long fileId) {
    small.remove(fileId);
    main.remove(fileId);
    ghost.remove(fileId);
  }
}
