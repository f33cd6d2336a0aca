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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.Test;

/**
 * The read path's array pool and the lease rule that keeps an array a late read
 * still writes into away from the next borrower.
 */
public class TestBufferPool {
  private static final int K = 64; // 1024 * K is 64 KiB, the smallest array the pool keeps
  @Test
  public void reusesArraysOfTheSameLengthUpToItsCapacity() {
    BufferPool pool = new BufferPool(3 * 1024 * K);
    byte[] a = pool.borrow(1024 * K);
    byte[] b = pool.borrow(1024 * K);
    byte[] c = pool.borrow(1024 * K);
    byte[] d = pool.borrow(1024 * K);
    assertEquals(4, pool.allocations());
    pool.release(a);
    pool.release(b);
    pool.release(c);
    pool.release(d); // beyond 3 KiB: left to the garbage collector
    assertEquals(3 * 1024 * K, pool.keptBytes());
    Map<byte[], Boolean> seen = new IdentityHashMap<>();
    for (int i = 0; i < 3; i++) {
      seen.put(pool.borrow(1024 * K), true);
    }
    assertEquals(4, pool.allocations());
    assertTrue(seen.containsKey(a) && seen.containsKey(b) && seen.containsKey(c));
    assertEquals(0, pool.keptBytes());
    assertEquals(1024 * K, pool.borrow(1024 * K).length);
    assertEquals(5, pool.allocations());
    assertEquals(512 * K, pool.borrow(512 * K).length); // another length, another class
    pool.release(new byte[100]);
    assertEquals("small arrays are not kept", 0, pool.keptBytes());
  }

  @Test
  public void theLengthsBorrowedLatelyPushOutThoseBorrowedLongAgo() {
    int read = 1024 * K;
    int write = 1024 * K + 72; // a writer's accumulator: a value's header in front of a subblock
    BufferPool pool = new BufferPool(2L * write);
    byte[] r1 = pool.borrow(read);
    byte[] r2 = pool.borrow(read);
    pool.release(r1);
    pool.release(r2);
    assertEquals(2L * read, pool.keptBytes()); // a reader filled the pool

    byte[] w1 = pool.borrow(write); // then the task writes
    byte[] w2 = pool.borrow(write);
    pool.release(w1);
    pool.release(w2);
    assertEquals("the reader's arrays made room", 2L * write, pool.keptBytes());
    long before = pool.allocations();
    assertSame(w1, pool.borrow(write));
    assertSame(w2, pool.borrow(write));
    assertEquals("the writer's arrays were kept", before, pool.allocations());

    // An array of a length no one has borrowed since does not push out the writer's.
    BufferPool other = new BufferPool(2L * write);
    byte[] old = other.borrow(read);
    byte[] a = other.borrow(write);
    byte[] b = other.borrow(write);
    other.release(a);
    other.release(b);
    other.release(old);
    assertEquals(2L * write, other.keptBytes());
    assertSame(a, other.borrow(write));
    assertSame(b, other.borrow(write));
  }

  @Test
  public void aWritersStripeIsKeptWhileItWritesAndThePoolShrinksBackAfter() throws Exception {
    int len = 1024 * K;
    BufferPool pool = new BufferPool(2L * len, java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(200));
    pool.expect(6L * len); // a writer's stripe: six accumulators
    byte[][] stripe = new byte[6][];
    for (int i = 0; i < 6; i++) {
      stripe[i] = pool.borrow(len);
    }
    for (byte[] a : stripe) {
      pool.release(a);
    }
    assertEquals("the whole stripe is kept while the writer writes", 6L * len, pool.keptBytes());
    long before = pool.allocations();
    for (int i = 0; i < 6; i++) {
      pool.borrow(len);
    }
    assertEquals("the next stripe reuses them", before, pool.allocations());
    for (byte[] a : stripe) {
      pool.release(a);
    }
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (pool.capacityNow() > 2L * len && System.nanoTime() < deadline) {
      Thread.sleep(10); // waits for the raised capacity to end, not a fixed time
    }
    assertEquals("capacity back to its setting", 2L * len, pool.capacityNow());
    assertEquals("and the pool shrank back to it", 2L * len, pool.keptBytes());
  }

  @Test
  public void anArrayALateReadStillWritesIsNotLentOutBeforeTheReadEnds() {
    BufferPool pool = new BufferPool(64 << 20);
    Leases read = new Leases(pool);
    byte[] late = read.forTask(4096 * K);
    byte[] done = read.forTask(4096 * K);
    byte[] scratch = read.scratch(4096 * K);
    read.written(done);
    read.close(); // the caller returns; the late read is still running
    assertEquals(2 * 4096 * K, pool.keptBytes());

    Leases next = new Leases(pool);
    byte[] x = next.scratch(4096 * K);
    byte[] y = next.scratch(4096 * K);
    byte[] z = next.scratch(4096 * K);
    assertNotSame(late, x);
    assertNotSame(late, y);
    assertNotSame(late, z);
    next.close();

    read.written(late); // the late read ends: now its array may be reused
    assertEquals(4 * 4096 * K, pool.keptBytes());
    read.written(late); // a second report changes nothing
    assertEquals(4 * 4096 * K, pool.keptBytes());
    assertTrue(scratch.length == 4096 * K);
  }

  @Test
  public void closingTwiceReleasesOnce() {
    BufferPool pool = new BufferPool(64 << 20);
    Leases l = new Leases(pool);
    byte[] a = l.scratch(1024 * K);
    l.close();
    l.close();
    assertEquals(1024 * K, pool.keptBytes());
    assertSame(a, pool.borrow(1024 * K));
  }

  @Test(expected = IllegalArgumentException.class)
  public void negativeCapacityIsRefused() {
    new BufferPool(-1);
  }
}
