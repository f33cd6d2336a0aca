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

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The pooled arrays one read (a substripe, a degraded subblock) uses. An array a pool
 * task writes into goes back to the {@link BufferPool} only when both the task has
 * finished and the read is closed: a read to a straggler that lost the race keeps
 * writing into its array after the caller has moved on, so that array cannot be
 * handed to anyone else before then. Arrays only the calling thread touches
 * (decode inputs and outputs) go back at close.
 */
public final class Leases {
  private final BufferPool pool;
  private final Set<byte[]> writing = Collections.newSetFromMap(new IdentityHashMap<byte[], Boolean>());
  private final List<byte[]> idle = new ArrayList<>();
  private boolean closed;

  public Leases(BufferPool pool) {
    this.pool = pool;
  }

  /** An array a pool task will write into; the task must call {@link #written} when it ends, however it ends. */
  public synchronized byte[] forTask(int length) {
    byte[] b = pool.borrow(length);
    writing.add(b);
    return b;
  }

  /** An array only the calling thread uses until {@link #close}. */
  public synchronized byte[] scratch(int length) {
    byte[] b = pool.borrow(length);
    idle.add(b);
    return b;
  }

  /** The task writing into {@code b} has ended. */
  public synchronized void written(byte[] b) {
    if (writing.remove(b)) {
      if (closed) {
        pool.release(b);
      } else {
        idle.add(b);
      }
    }
  }

  /** An array from {@link #forTask} whose task ended (or never started) goes to a new task. */
  public synchronized void lend(byte[] b) {
    for (int x = 0; x < idle.size(); x++) {
      if (idle.get(x) == b) {
        idle.remove(x);
        writing.add(b);
        return;
      }
    }
    throw new IllegalStateException("lend of an array that is not idle in this read");
  }

  /** The read is over: arrays no task writes into go back now, the others when their tasks end. */
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (byte[] b : idle) {
      pool.release(b);
    }
    idle.clear();
  }
}
