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
package org.pocache.hdfs.client;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reusable subblock-sized arrays for the read path, per FileSystem. A proactive read
 * of a 1 MiB-subblock file otherwise allocates about (k + 2m) MiB per substripe, all
 * of it humongous for G1 (half a region or more), and the collections that follow
 * cost a read more than the copies do.
 *
 * <p>Arrays are kept by exact length, up to {@code capacityBytes} in all; beyond
 * that a released array is left to the garbage collector. A borrowed array's
 * contents are whatever its last user left: callers zero what they rely on.
 */
final class BufferPool {
  /** Arrays shorter than this are not kept. */
  static final int MIN_POOLED = 64 << 10;
  private final long capacityBytes;
  private final AtomicLong keptBytes = new AtomicLong();
  private final Map<Integer, Queue<byte[]>> free = new ConcurrentHashMap<>();
  private final AtomicLong allocations = new AtomicLong();

  BufferPool(long capacityBytes) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("buffer pool capacity must be >= 0, got " + capacityBytes);
    }
    this.capacityBytes = capacityBytes;
  }

  /** An array of exactly {@code length} bytes, reused if one is free. */
  byte[] borrow(int length) {
    Queue<byte[]> q = free.get(length);
    byte[] b = q == null ? null : q.poll();
    if (b != null) {
      keptBytes.addAndGet(-length);
      return b;
    }
    allocations.incrementAndGet();
    return new byte[length];
  }

  /** Returns an array no one reads or writes any more; null and small arrays are left to the collector. */
  void release(byte[] b) {
    if (b == null || b.length < MIN_POOLED) {
      return; // cheap to allocate, and odd lengths would only crowd the pool
    }
    long kept = keptBytes.addAndGet(b.length);
    if (kept > capacityBytes) {
      keptBytes.addAndGet(-b.length);
      return;
    }
    free.computeIfAbsent(b.length, n -> new ConcurrentLinkedQueue<>()).add(b);
  }

  /** Bytes held for reuse now. */
  long keptBytes() {
    return keptBytes.get();
  }

  /** Arrays allocated because none was free (for tests and metrics). */
  long allocations() {
    return allocations.get();
  }
}
