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
 * Least frequently used with dynamic aging (LFU-DA; Arlitt et al., "Evaluating
 * content management techniques for Web proxy caches", 2000): a cached file's key
 * is L + its hit count, where L is the key of the last evicted file, and the file
 * with the smallest key (ties: least recently used) goes first. The aging term lets
 * files that were popular once make way for newly popular ones, which plain LFU
 * never does. O(log n) per operation.
 */
public final class Lfu implements EvictionPolicy {
  private final IndexedHeap heap = new IndexedHeap();
  private double age; // L
  private long tick;

  @Override
  public String name() {
    return "lfu";
  }

  @Override
  public void onAccess(long fileId, boolean cached) {
    long c = heap.aux(fileId, -1); // the hit count lives in the heap entry
    if (c >= 0) {
      heap.put(fileId, age + c + 1, ++tick);
      heap.setAux(fileId, c + 1);
    }
  }

  @Override
  public void onInsert(long fileId, long weight) {
    heap.put(fileId, age + 1, ++tick);
    heap.setAux(fileId, 1);
  }

  @Override
  public long victim(long protectedId) {
    return heap.min(protectedId);
  }

  @Override
  public void onEvict(long fileId) {
    double k = heap.key(fileId);
    if (!Double.isNaN(k)) {
      age = k;
    }
    onRemove(fileId);
  }

  @Override
  public void onRemove(long fileId) {
    heap.remove(fileId);
  }
}
