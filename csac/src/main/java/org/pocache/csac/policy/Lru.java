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
