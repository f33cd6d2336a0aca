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
package org.pocache.coder;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A lock-free cache of decode plans keyed by erasure pattern (which pieces are
 * used, which are rebuilt), packed into one long so a lookup allocates nothing.
 * Plans are immutable; a full cache overwrites a slot, which only costs a rebuild.
 */
final class DecodePlans {
  private static final int SLOTS = 1024; // power of two
  private static final int PROBES = 8;

  private final AtomicReferenceArray<AbstractErasureCoder.Plan> slots = new AtomicReferenceArray<>(SLOTS);

  /**
   * The key of a pattern: bits 0..35 the survivor set, then the erased indexes in
   * order, 6 bits each (at most 4, as m <= 4), plus a count.
   */
  static long key(long survivorMask, int[] erased) {
    long k = survivorMask;
    for (int i = 0; i < erased.length; i++) {
      k |= (long) (erased[i] + 1) << (36 + 6 * i);
    }
    return k;
  }

  AbstractErasureCoder.Plan get(long key) {
    int h = hash(key);
    for (int p = 0; p < PROBES; p++) {
      AbstractErasureCoder.Plan plan = slots.get((h + p) & (SLOTS - 1));
      if (plan == null) {
        return null;
      }
      if (plan.key == key) {
        return plan;
      }
    }
    return null;
  }

  void put(AbstractErasureCoder.Plan plan) {
    int h = hash(plan.key);
    for (int p = 0; p < PROBES; p++) {
      int i = (h + p) & (SLOTS - 1);
      if (slots.compareAndSet(i, null, plan)) {
        return;
      }
      AbstractErasureCoder.Plan there = slots.get(i);
      if (there != null && there.key == plan.key) {
        return;
      }
    }
    slots.set(h & (SLOTS - 1), plan);
  }

  void clear() {
    for (int i = 0; i < SLOTS; i++) {
      slots.set(i, null);
    }
  }

  private static int hash(long key) {
    long z = key * 0x9E3779B97F4A7C15L;
    return (int) (z ^ (z >>> 32));
  }
}
