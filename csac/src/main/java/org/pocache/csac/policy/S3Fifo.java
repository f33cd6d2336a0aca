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
    WeightedQueue.Node n = small.get(fileId);
    if (n == null) {
      n = main.get(fileId);
    }
    if (n != null && n.freq < MAX_FREQ) {
      n.freq++;
    }
  }

  @Override
  public void onInsert(long fileId, long weight) {
    small.remove(fileId);
    main.remove(fileId);
    if (ghost.remove(fileId) != null) {
      main.pushFront(fileId, weight);
    } else {
      small.pushFront(fileId, weight);
    }
  }

  @Override
  public long victim(long protectedId) {
    // Promote and demote until the oldest file of the queue to evict from is cold.
    for (int guard = 0; guard < 4 * (small.size() + main.size()) + 4; guard++) {
      boolean fromSmall = !small.isEmpty() && (small.weight() >= smallTarget || main.isEmpty());
      WeightedQueue q = fromSmall ? small : main;
      WeightedQueue.Node n = q.back();
      if (n == null) {
        return -1;
      }
      if (n.id == protectedId) {
        WeightedQueue.Node other = q.newer(n);
        if (other == null) {
          WeightedQueue alt = fromSmall ? main : small;
          return alt.back() == null ? -1 : alt.back().id;
        }
        n = other;
      }
      if (fromSmall) {
        if (n.freq > 0) {
          small.remove(n.id);
          n.freq = 0;
          main.pushFront(n);
          continue;
        }
        return n.id;
      }
      if (n.freq > 0) {
        main.remove(n.id);
        n.freq--;
        main.pushFront(n);
        continue;
      }
      return n.id;
    }
    WeightedQueue.Node n = main.back() != null ? main.back() : small.back();
    return n == null ? -1 : n.id;
  }

  @Override
  public long peekVictim(long protectedId) {
    WeightedQueue q = !small.isEmpty() && (small.weight() >= smallTarget || main.isEmpty()) ? small : main;
    WeightedQueue.Node n = q.back();
    if (n != null && n.id == protectedId) {
      n = q.newer(n);
    }
    return n == null ? -1 : n.id;
  }

  @Override
  public void onEvict(long fileId) {
    WeightedQueue.Node n = small.remove(fileId);
    if (n != null) {
      ghost.pushFront(fileId, n.weight);
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
