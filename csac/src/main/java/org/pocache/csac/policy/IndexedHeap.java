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

import java.util.Arrays;

/**
 * A binary min-heap of file ids keyed by (priority, tie), where each id knows its
 * slot, so update and removal are O(log n) without a scan.
 */
final class IndexedHeap {
  private long[] ids = new long[16];
  private double[] keys = new double[16];
  private long[] ties = new long[16];
  private long[] aux = new long[16]; // a value carried with each id (LFU's hit count)
  private int size;
  private final LongLongMap slot = new LongLongMap();

  int size() {
    return size;
  }

  boolean contains(long id) {
    return slot.containsKey(id);
  }

  /** The auxiliary value of {@code id}, or {@code missing}. */
  long aux(long id, long missing) {
    int i = (int) slot.get(id, -1);
    return i < 0 ? missing : aux[i];
  }

  void setAux(long id, long value) {
    int i = (int) slot.get(id, -1);
    if (i >= 0) {
      aux[i] = value;
    }
  }

  double key(long id) {
    int i = (int) slot.get(id, -1);
    return i < 0 ? Double.NaN : keys[i];
  }

  /** Inserts or re-keys {@code id}. */
  void put(long id, double key, long tie) {
    int i = (int) slot.get(id, -1);
    if (i < 0) {
      if (size == ids.length) {
        ids = Arrays.copyOf(ids, size * 2);
        keys = Arrays.copyOf(keys, size * 2);
        ties = Arrays.copyOf(ties, size * 2);
        aux = Arrays.copyOf(aux, size * 2);
      }
      set(size, id, key, tie, 0);
      up(size++);
    } else {
      keys[i] = key;
      ties[i] = tie;
      up(i);
      down((int) slot.get(id, -1));
    }
  }

  void remove(long id) {
    int i = (int) slot.remove(id, -1);
    if (i < 0) {
      return;
    }
    size--;
    if (i != size) {
      long moved = ids[size];
      set(i, moved, keys[size], ties[size], aux[size]);
      up(i);
      down((int) slot.get(moved, -1));
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
      if (best < 0 || less(c, (int) slot.get(best, -1))) {
        best = ids[c];
      }
    }
    return best;
  }

  private void set(int i, long id, double key, long tie, long a) {
    ids[i] = id;
    keys[i] = key;
    ties[i] = tie;
    aux[i] = a;
    slot.put(id, i, -1);
  }

  private boolean less(int a, int b) {
    return keys[a] < keys[b] || (keys[a] == keys[b] && ties[a] < ties[b]);
  }

  private void swap(int a, int b) {
    long id = ids[a];
    double k = keys[a];
    long t = ties[a];
    long x = aux[a];
    set(a, ids[b], keys[b], ties[b], aux[b]);
    set(b, id, k, t, x);
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
