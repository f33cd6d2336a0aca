package org.pocache.csac.policy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A binary min-heap of file ids keyed by (priority, tie), where each id knows its
 * slot, so update and removal are O(log n) without a scan.
 */
final class IndexedHeap {
  private long[] ids = new long[16];
  private double[] keys = new double[16];
  private long[] ties = new long[16];
  private int size;
  private final Map<Long, Integer> slot = new HashMap<>();

  int size() {
    return size;
  }

  boolean contains(long id) {
    return slot.containsKey(id);
  }

  double key(long id) {
    Integer i = slot.get(id);
    return i == null ? Double.NaN : keys[i];
  }

  /** Inserts or re-keys {@code id}. */
  void put(long id, double key, long tie) {
    Integer i = slot.get(id);
    if (i == null) {
      if (size == ids.length) {
        ids = Arrays.copyOf(ids, size * 2);
        keys = Arrays.copyOf(keys, size * 2);
        ties = Arrays.copyOf(ties, size * 2);
      }
      set(size, id, key, tie);
      up(size++);
    } else {
      keys[i] = key;
      ties[i] = tie;
      up(i);
      down(slot.get(id));
    }
  }

  void remove(long id) {
    Integer i = slot.remove(id);
    if (i == null) {
      return;
    }
    size--;
    if (i != size) {
      set(i, ids[size], keys[size], ties[size]);
      up(i);
      down(slot.get(ids[i]));
    }
  }

  /** The smallest id, or -1 when empty; with {@code skip} also the second-smallest when the first is skip. */
  long min(long skip) {
    if (size == 0) {
      return -1;
    }
    if (ids[0] != skip) {
      return ids[0];
    }
    long best = -1;
    for (int c = 1; c <= 2 && c < size; c++) { // the second smallest is a child of the root
      if (best < 0 || less(c, slot.get(best))) {
        best = ids[c];
      }
    }
    return best;
  }

  private void set(int i, long id, double key, long tie) {
    ids[i] = id;
    keys[i] = key;
    ties[i] = tie;
    slot.put(id, i);
  }

  private boolean less(int a, int b) {
    return keys[a] < keys[b] || (keys[a] == keys[b] && ties[a] < ties[b]);
  }

  private void swap(int a, int b) {
    long id = ids[a];
    double k = keys[a];
    long t = ties[a];
    set(a, ids[b], keys[b], ties[b]);
    set(b, id, k, t);
  }

  private void up(int i) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!less(i, parent)) {
        return;
      }
      swap(i, parent);
      i = parent;
    }
  }

  private void down(int i) {
    while (true) {
      int l = 2 * i + 1;
      int r = l + 1;
      int m = i;
      if (l < size && less(l, m)) {
        m = l;
      }
      if (r < size && less(r, m)) {
        m = r;
      }
      if (m == i) {
        return;
      }
      swap(i, m);
      i = m;
    }
  }
}
