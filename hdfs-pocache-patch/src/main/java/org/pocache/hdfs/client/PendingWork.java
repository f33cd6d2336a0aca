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

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Work that must outlive the call that started it (a reader fill's last upload and commit,
 * a delete notice, a read report), run on a pool off the caller's thread; the FileSystem's
 * close waits for it a while ({@link #await}), so a client that exits right away
 * ({@code hdfs dfs -cat}, {@code -rm}) still gets it done.
 */
final class PendingWork {
  private final Executor pool;
  private final AtomicInteger pending = new AtomicInteger();

  PendingWork(Executor pool) {
    this.pool = pool;
  }

  /** Runs {@code work} on the pool; throws RejectedExecutionException once the pool is shut down. */
  void run(Runnable work) {
    pending.incrementAndGet();
    Runnable tracked = () -> {
      try {
        work.run();
      } finally {
        if (pending.decrementAndGet() == 0) {
          synchronized (pending) {
            pending.notifyAll();
          }
        }
      }
    };
    try {
      pool.execute(tracked);
    } catch (RejectedExecutionException e) {
      pending.decrementAndGet();
      throw e;
    }
  }

  /** Waits until nothing is pending, at most {@code millis}; returns how much still is. */
  int await(long millis) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    synchronized (pending) {
      while (pending.get() > 0) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          return pending.get();
        }
        try {
          pending.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return pending.get();
        }
      }
      return 0;
    }
  }
}
