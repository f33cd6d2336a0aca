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
 * ARC (Megiddo and Modha, "ARC: a self-tuning, low overhead replacement cache",
 * FAST 2003) with weights: T1 holds files read once since they entered, T2 files
 * read again; ghost lists B1 and B2 remember recent evictions from each. A miss
 * that hits a ghost moves the target size p of T1 towards the list that would
 * have kept the file (by the file's weight, scaled as in the paper); REPLACE
 * evicts from T1 when it is above p, else from T2. Sizes are in weight units, so
 * a file of weight w counts w times. Ghost lists are trimmed to keep
 * |T1| + |B1| <= c and the total <= 2c. O(1) per operation.
 */
public final class Arc implements EvictionPolicy {
  private final long capacity;
  private final WeightedQueue t1 = new WeightedQueue();
  private final WeightedQueue t2 = new WeightedQueue();
  private final WeightedQueue b1 = new WeightedQueue();
  private final WeightedQueue b2 = new WeightedQueue();
  private double p;
  /** The ghost list the file about to be inserted was found in: 1, 2, or 0. */
  private long pendingId = -1;
  private int pendingGhost;

  /**
   * @throws IllegalArgumentException if capacity <= 0
   */
  public Arc(long capacity) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("ARC capacity must be > 0, got " + capacity);
    }
    this.capacity = capacity;
  }

  @Override
  public String name() {
    return "arc";
  }

  /** Current target weight of T1 (for tests). */
  double target() {
    return p;
  }

  @Override
  public void onAccess(long fileId, boolean cached) {
    int h = t1.find(fileId);
    if (h >= 0) {
      long w = t1.weightOf(h);
      t1.removeHandle(h);
      t2.pushFront(fileId, w, 0); // a hit: now "frequent"
      return;
    }
    h = t2.find(fileId);
    if (h >= 0) {
      t2.moveToFront(h);
      return;
    }
    int g = b1.find(fileId);
    if (g >= 0) {
      double delta = Math.max(1.0, (double) b2.weight() / Math.max(1, b1.weight())) * b1.weightOf(g);
      p = Math.min(capacity, p + delta);
      pendingId = fileId;
      pendingGhost = 1;
      return;
    }
    g = b2.find(fileId);
    if (g >= 0) {
      double delta = Math.max(1.0, (double) b1.weight() / Math.max(1, b2.weight())) * b2.weightOf(g);
      p = Math.max(0, p - delta);
      pendingId = fileId;
      pendingGhost = 2;
      return;
    }
    pendingId = fileId;
    pendingGhost = 0;
  }

  @Override
  public void onInsert(long fileId, long weight) {
    boolean ghost = fileId == pendingId && pendingGhost != 0;
    b1.remove(fileId);
    b2.remove(fileId);
    t1.remove(fileId);
    t2.remove(fileId);
    if (ghost) {
      t2.pushFront(fileId, weight, 0);
    } else {
      t1.pushFront(fileId, weight, 0);
    }
    pendingId = -1;
    pendingGhost = 0;
    trimGhosts();
  }

  @Override
  public long victim(long protectedId) {
    boolean fromT1 = !t1.isEmpty()
        && (t1.weight() > p || (pendingGhost == 2 && t1.weight() >= p) || t2.isEmpty());
    long v = (fromT1 ? t1 : t2).oldestExcept(protectedId);
    return v >= 0 ? v : (fromT1 ? t2 : t1).oldestExcept(protectedId);
  }

  @Override
  public void onEvict(long fileId) {
    int h = t1.find(fileId);
    if (h >= 0) {
      long w = t1.weightOf(h);
      t1.removeHandle(h);
      b1.pushFront(fileId, w, 0);
    } else {
      h = t2.find(fileId);
      if (h >= 0) {
        long w = t2.weightOf(h);
        t2.removeHandle(h);
        b2.pushFront(fileId, w, 0);
      }
    }
    trimGhosts();
  }

  @Override
  public void onRemove(long fileId) {
    t1.remove(fileId);
    t2.remove(fileId);
    b1.remove(fileId);
    b2.remove(fileId);
  }

  private void trimGhosts() {
    while (!b1.isEmpty() && t1.weight() + b1.weight() > capacity) {
      b1.popBack();
    }
    while (!b2.isEmpty() && t1.weight() + t2.weight() + b1.weight() + b2.weight() > 2 * capacity) {
      b2.popBack();
    }
  }
}
