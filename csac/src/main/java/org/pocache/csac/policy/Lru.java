package org.pocache.csac.policy;

/** Least recently used: evict the cached file read longest ago. O(1) per operation. */
public final class Lru implements EvictionPolicy {
  private final WeightedQueue queue = new WeightedQueue(); // front = most recent

  @Override
  public String name() {
    return "lru";
  }

  @Override
  public void onAccess(long fileId, boolean cached) {
    int h = queue.find(fileId);
    if (h >= 0) {
      queue.moveToFront(h);
    }
  }

  @Override
  public void onInsert(long fileId, long weight) {
    int h = queue.find(fileId);
    if (h >= 0) {
      queue.moveToFront(h);
    } else {
      queue.pushFront(fileId, weight, 0);
    }
  }

  @Override
  public long victim(long protectedId) {
    return queue.oldestExcept(protectedId);
  }

  @Override
  public void onRemove(long fileId) {
    queue.remove(fileId);
  }
}
