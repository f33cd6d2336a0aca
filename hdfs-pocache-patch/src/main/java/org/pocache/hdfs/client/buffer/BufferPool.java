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
package org.pocache.hdfs.client.buffer;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reusable subblock-sized arrays for the read and write paths, per FileSystem. A proactive
 * read of a 1 MiB-subblock file otherwise allocates about (k + 2m) MiB per substripe, and a
 * writer m x block size of parity accumulators per stripe, all of it humongous for G1 (half a
 * region or more); the collections that follow cost more than the copies do.
 *
 * <p>Arrays are kept by exact length, up to {@code capacityBytes} in all. When a released
 * array does not fit, arrays of the lengths borrowed least recently make room for it (a task
 * that read its input and now writes its output gets its writer's accumulators kept, not its
 * reader's subblocks); if none are older, the released array is left to the garbage
 * collector. A writer that starts a stripe says how much it cycles ({@link #expect}: m x block
 * size of accumulators, 128 MiB for 128 MiB blocks and m = 1), and for a minute after that the
 * pool may keep that much instead, so the next stripe and the next file reuse the arrays rather
 * than allocate and zero them again; afterwards the pool shrinks back at its next use. A
 * borrowed array's contents are whatever its last user left: callers zero what they rely on.
 */
public final class BufferPool {
  /** Arrays shorter than this are not kept. */
  public static final int MIN_POOLED = 64 << 10;
  private final long capacityBytes;
  private final AtomicLong keptBytes = new AtomicLong();
  private final Map<Integer, Shelf> free = new ConcurrentHashMap<>();
  private final AtomicLong allocations = new AtomicLong();
  /** How long a writer's {@link #expect} keeps the pool's capacity raised. */
  static final long EXPECT_NANOS = 60_000_000_000L;
  /** The capacity a writer asked for, and until when (System.nanoTime()); 0 when none. */
  private volatile long expected;
  private final long expectNanos;
  private volatile long expectedUntil;
  /** Counts borrows: a shelf's {@code lastBorrow} says how recently its length was wanted. */
  private final AtomicLong clock = new AtomicLong();

  /** The free arrays of one length. */
  private static final class Shelf {
    final Queue<byte[]> arrays = new ConcurrentLinkedQueue<>();
    volatile long lastBorrow;
  }

  public BufferPool(long capacityBytes) {
    this(capacityBytes, EXPECT_NANOS);
  }

  /** A pool whose raised capacity lasts {@code expectNanos} after a writer's {@link #expect} (tests). */
  public BufferPool(long capacityBytes, long expectNanos) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("buffer pool capacity must be >= 0, got " + capacityBytes);
    }
    this.capacityBytes = capacityBytes;
    this.expectNanos = expectNanos;
  }

  /**
   * A writer will cycle about {@code bytes} of arrays (it starts a stripe): for the next
   * {@link #EXPECT_NANOS} (a minute) the pool keeps up to that many bytes (at most an eighth of
   * the heap) if that is more than its capacity. The writer had them live a moment ago: keeping
   * them does not raise the JVM's peak.
   */
  public void expect(long bytes) {
    bytes = Math.min(bytes, Runtime.getRuntime().maxMemory() / 8); // never more than an eighth of the heap
    if (bytes > capacityBytes) {
      long now = System.nanoTime();
      if (expectedUntil - now <= 0 || bytes > expected) {
        expected = bytes;
      }
      expectedUntil = now + expectNanos;
    }
  }

  /** The bytes the pool may keep now: its capacity, or more while a writer's {@link #expect} lasts. */
  public long capacityNow() {
    long e = expected;
    if (e == 0) {
      return capacityBytes;
    }
    if (expectedUntil - System.nanoTime() > 0) {
      return Math.max(capacityBytes, e);
    }
    expected = 0;
    shrink();
    return capacityBytes;
  }

  /** Drops kept arrays, least recently borrowed lengths first, until the pool is within its capacity. */
  private synchronized void shrink() {
    while (keptBytes.get() > capacityBytes) {
      Shelf oldest = null;
      for (Shelf s : free.values()) {
        if (!s.arrays.isEmpty() && (oldest == null || s.lastBorrow < oldest.lastBorrow)) {
          oldest = s;
        }
      }
      byte[] dropped = oldest == null ? null : oldest.arrays.poll();
      if (dropped == null) {
        return;
      }
      keptBytes.addAndGet(-dropped.length);
    }
  }

  /** An array of exactly {@code length} bytes, reused if one is free. */
  public byte[] borrow(int length) {
    if (expected != 0) {
      capacityNow(); // a writer's raised capacity ends: the pool shrinks back
    }
    Shelf shelf = length < MIN_POOLED ? null : free.computeIfAbsent(length, n -> new Shelf());
    byte[] b = null;
    if (shelf != null) {
      shelf.lastBorrow = clock.incrementAndGet();
      b = shelf.arrays.poll();
    }
    if (b != null) {
      keptBytes.addAndGet(-length);
      return b;
    }
    allocations.incrementAndGet();
    return new byte[length];
  }

  /** Returns an array no one reads or writes any more; null and small arrays are left to the collector. */
  public void release(byte[] b) {
    if (b == null || b.length < MIN_POOLED) {
      return; // cheap to allocate, and odd lengths would only crowd the pool
    }
    Shelf shelf = free.computeIfAbsent(b.length, n -> new Shelf());
    long kept = keptBytes.addAndGet(b.length);
    if (kept > capacityNow() && !makeRoom(shelf)) {
      keptBytes.addAndGet(-b.length);
      return;
    }
    shelf.arrays.add(b);
  }

  /**
   * Drops arrays of lengths borrowed less recently than {@code forShelf}'s until the pool is
   * within its capacity again; false if they were not enough.
   */
  private synchronized boolean makeRoom(Shelf forShelf) {
    long capacity = capacityNow();
    while (keptBytes.get() > capacity) {
      Shelf oldest = null;
      for (Shelf s : free.values()) {
        if (s != forShelf && s.lastBorrow < forShelf.lastBorrow && !s.arrays.isEmpty()
            && (oldest == null || s.lastBorrow < oldest.lastBorrow)) {
          oldest = s;
        }
      }
      byte[] dropped = oldest == null ? null : oldest.arrays.poll();
      if (dropped == null) {
        return false;
      }
      keptBytes.addAndGet(-dropped.length);
    }
    return true;
  }

  /** Bytes held for reuse now. */
  public long keptBytes() {
    return keptBytes.get();
  }

  /** Arrays allocated because none was free (for tests and metrics). */
  public long allocations() {
    return allocations.get();
  }
}
