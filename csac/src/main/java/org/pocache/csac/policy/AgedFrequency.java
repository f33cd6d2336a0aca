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
 * Frequency with dynamic aging, the core of {@link Lfu} and {@link BenefitPerByte}: a
 * cached file's key is L + its read count x what one read of it is worth
 * ({@link #perRead}), L being the key of the last evicted file; the smallest key goes
 * first (ties: least recently used). Read counts are kept for files out of the cache
 * too ({@link AccessCounts}). O(log n) per operation.
 */
abstract class AgedFrequency implements EvictionPolicy {
  private final IndexedHeap heap = new IndexedHeap();
  private final AccessCounts counts;
  private double age; // L
  private long tick;

  AgedFrequency(int historyFiles) {
    this.counts = new AccessCounts(historyFiles);
  }

  /** What one read of cached file {@code fileId} is worth. */
  abstract double perRead(long fileId);

  /** {@code fileId} left the cache: forget what {@link #perRead} keeps for it. */
  void forget(long fileId) {
  }

  @Override
  public final void onAccess(long fileId, boolean cached) {
    long c = counts.record(fileId);
    if (heap.contains(fileId)) {
      heap.put(fileId, age + c * perRead(fileId), ++tick);
    }
  }

  /** Puts {@code fileId} in the cache's order with its count so far (at least 1). */
  final void insert(long fileId) {
    heap.put(fileId, age + counts.atLeastOne(fileId) * perRead(fileId), ++tick);
  }

  /** Files whose counts are kept now (for tests). */
  final int historySize() {
    return counts.size();
  }

  @Override
  public final long victim(long protectedId) {
    return heap.min(protectedId);
  }

  @Override
  public final void onEvict(long fileId) {
    double k = heap.key(fileId);
    if (!Double.isNaN(k)) {
      age = k;
    }
    onRemove(fileId);
  }

  @Override
  public final void onRemove(long fileId) {
    heap.remove(fileId);
    forget(fileId);
  }
}
