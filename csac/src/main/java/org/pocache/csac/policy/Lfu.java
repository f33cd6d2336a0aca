package org.pocache.csac.policy;

import java.util.HashMap;
import java.util.Map;

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
  private final Map<Long, Long> counts = new HashMap<>();
  private double age; // L
  private long tick;

  @Override
  public String name() {
    return "lfu";
  }

  @Override
  public void onAccess(long fileId, boolean cached) {
    Long c = counts.get(fileId);
    if (c != null) {
      counts.put(fileId, c + 1);
      heap.put(fileId, age + c + 1, ++tick);
    }
  }

  @Override
  public void onInsert(long fileId, long weight) {
    counts.put(fileId, 1L);
    heap.put(fileId, age + 1, ++tick);
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
    counts.remove(fileId);
  }
}
