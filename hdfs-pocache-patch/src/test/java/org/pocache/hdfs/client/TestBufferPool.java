package org.pocache.hdfs.client;

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
  @Test
  public void reusesArraysOfTheSameLengthUpToItsCapacity() {
    BufferPool pool = new BufferPool(3 * 1024);
    byte[] a = pool.borrow(1024);
    byte[] b = pool.borrow(1024);
    byte[] c = pool.borrow(1024);
    byte[] d = pool.borrow(1024);
    assertEquals(4, pool.allocations());
    pool.release(a);
    pool.release(b);
    pool.release(c);
    pool.release(d); // beyond 3 KiB: left to the garbage collector
    assertEquals(3 * 1024, pool.keptBytes());
    Map<byte[], Boolean> seen = new IdentityHashMap<>();
    for (int i = 0; i < 3; i++) {
      seen.put(pool.borrow(1024), true);
    }
    assertEquals(4, pool.allocations());
    assertTrue(seen.containsKey(a) && seen.containsKey(b) && seen.containsKey(c));
    assertEquals(0, pool.keptBytes());
    assertEquals(1024, pool.borrow(1024).length);
    assertEquals(5, pool.allocations());
    assertEquals(512, pool.borrow(512).length); // another length, another class
  }

  @Test
  public void anArrayALateReadStillWritesIsNotLentOutBeforeTheReadEnds() {
    BufferPool pool = new BufferPool(1 << 20);
    Leases read = new Leases(pool);
    byte[] late = read.forTask(4096);
    byte[] done = read.forTask(4096);
    byte[] scratch = read.scratch(4096);
    read.written(done);
    read.close(); // the caller returns; the late read is still running
    assertEquals(2 * 4096, pool.keptBytes());

    Leases next = new Leases(pool);
    byte[] x = next.scratch(4096);
    byte[] y = next.scratch(4096);
    byte[] z = next.scratch(4096);
    assertNotSame(late, x);
    assertNotSame(late, y);
    assertNotSame(late, z);
    next.close();

    read.written(late); // the late read ends: now its array may be reused
    assertEquals(4 * 4096, pool.keptBytes());
    read.written(late); // a second report changes nothing
    assertEquals(4 * 4096, pool.keptBytes());
    assertTrue(scratch.length == 4096);
  }

  @Test
  public void closingTwiceReleasesOnce() {
    BufferPool pool = new BufferPool(1 << 20);
    Leases l = new Leases(pool);
    byte[] a = l.scratch(100);
    l.close();
    l.close();
    assertEquals(100, pool.keptBytes());
    assertSame(a, pool.borrow(100));
  }

  @Test(expected = IllegalArgumentException.class)
  public void negativeCapacityIsRefused() {
    new BufferPool(-1);
  }
}
