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
 * A doubly linked queue of file ids with weights and a small counter, stored in
 * parallel arrays and addressed by int handles (no object per entry), with an id
 * index: O(1) push to the front, pop from the back, removal and lookup. Keeps its
 * total weight. About 45 bytes per entry. Not thread-safe.
 */
final class WeightedQueue {
  private static final int NONE = -1;

  private long[] ids = new long[16];
  private long[] weights = new long[16];
  private byte[] counters = new byte[16];
  private int[] prev = new int[16];
  private int[] next = new int[16];
  private final LongLongMap index = new LongLongMap();
  private int head = NONE; // newest
  private int tail = NONE; // oldest
  private int free = NONE;
  private int used;
  private long weight;

  long weight() {
    return weight;
  }

  int size() {
    return index.size();
  }

  boolean isEmpty() {
    return index.isEmpty();
  }

  boolean contains(long id) {
    return index.containsKey(id);
  }

  /** The handle of {@code id}, or -1. */
  int find(long id) {
    return (int) index.get(id, NONE);
  }

  long id(int h) {
    return ids[h];
  }

  long weightOf(int h) {
    return weights[h];
  }

  int counter(int h) {
    return counters[h];
  }

  void setCounter(int h, int c) {
    counters[h] = (byte) c;
  }

  /** Adds {@code id} at the front (it must not be in the queue); returns its handle. */
  int pushFront(long id, long w, int counter) {
    int h = allocate();
    ids[h] = id;
    weights[h] = w;
    counters[h] = (byte) counter;
    index.put(id, h, NONE);
    weight += w;
    linkFront(h);
    return h;
  }

  /** Moves an entry to the front. */
  void moveToFront(int h) {
    if (h == head) {
      return;
    }
    unlink(h);
    linkFront(h);
  }

  private void linkFront(int h) {
    prev[h] = NONE;
    next[h] = head;
    if (head != NONE) {
      prev[head] = h;
    }
    head = h;
    if (tail == NONE) {
      tail = h;
    }
  }

  /** The oldest entry's handle, or -1. */
  int back() {
    return tail;
  }

  /** The entry after {@code h} towards the front, or -1. */
  int newer(int h) {
    return prev[h];
  }

  /**
   * The id of the oldest entry other than {@code protectedId}, or -1 (a victim that is never the file being
   * admitted).
   */
  long oldestExcept(long protectedId) {
    int h = tail;
    if (h != NONE && ids[h] == protectedId) {
      h = prev[h];
    }
    return h == NONE ? -1 : ids[h];
  }

  /** Removes {@code id} if present; returns whether it was. */
  boolean remove(long id) {
    int h = find(id);
    if (h == NONE) {
      return false;
    }
    removeHandle(h);
    return true;
  }

  void removeHandle(int h) {
    index.remove(ids[h], NONE);
    weight -= weights[h];
    unlink(h);
    next[h] = free;
    free = h;
  }

  /** Removes the oldest entry; returns its id or -1. */
  long popBack() {
    int h = tail;
    if (h == NONE) {
      return -1;
    }
    long id = ids[h];
    removeHandle(h);
    return id;
  }

  private void unlink(int h) {
    if (prev[h] != NONE) {
      next[prev[h]] = next[h];
    } else {
      head = next[h];
    }
    if (next[h] != NONE) {
      prev[next[h]] = prev[h];
    } else {
      tail = prev[h];
    }
  }

  private int allocate() {
    if (free != NONE) {
      int h = free;
      free = next[h];
      return h;
    }
    if (used == ids.length) {
      int n = ids.length * 2;
      ids = Arrays.copyOf(ids, n);
      weights = Arrays.copyOf(weights, n);
      counters = Arrays.copyOf(counters, n);
      prev = Arrays.copyOf(prev, n);
      next = Arrays.copyOf(next, n);
    }
    return used++;
  }
}
