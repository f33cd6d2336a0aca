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
 * Decides which cached file to evict (CSAC's G_e). It tracks the cached files
 * only (plus whatever history it keeps, such as ARC's ghosts), each with a weight.
 * Every method is O(1) or O(log n) in the number of cached files.
 */
public interface EvictionPolicy {
  /** A read of {@code fileId}; {@code cached} tells whether its parity is in the cache. */
  void onAccess(long fileId, boolean cached);

  /** {@code fileId} was just put in the cache with {@code weight}. */
  void onInsert(long fileId, long weight);

  /**
   * {@code fileId} was just put in the cache with {@code weight}; its parity protects
   * {@code dataWeight} of data (same unit). Only policies that weigh benefit per byte
   * look at it.
   */
  default void onInsert(long fileId, long weight, long dataWeight) {
    onInsert(fileId, weight);
  }

  /**
   * The cached file to evict next, never {@code protectedId} (the file being
   * admitted); -1 if there is none. The caller then calls {@link #onRemove}.
   */
  long victim(long protectedId);

  /**
   * Like {@link #victim} but without side effects (some policies reorder while
   * choosing); for admission policies that compare a candidate with the victim.
   */
  default long peekVictim(long protectedId) {
    return victim(protectedId);
  }

  /** {@code fileId}, returned by {@link #victim}, was evicted; the policy may keep history of it. */
  default void onEvict(long fileId) {
    onRemove(fileId);
  }

  /** {@code fileId} left the cache for another reason (file deleted, overwritten): forget it. */
  void onRemove(long fileId);

  /** The name it is configured by. */
  String name();
}
