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
package org.pocache.cache;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Background puts with a bound on the bytes in flight: a caller blocks while the
 * window is full, so a writer can never queue unbounded memory. The values are made
 * ({@code value.get()}, which may encode or seal) on the upload thread.
 */
final class AsyncUploader implements AutoCloseable {
  /** Stores one finished value; runs on an upload thread. */
  interface Upload {
    void store(ParityKey key, byte[] value) throws ParityStoreException;
  }

  private final ExecutorService threads;
  private final long windowBytes;
  private final Upload upload;
  private final Object lock = new Object();
  /** Bytes submitted and not yet stored or failed (guarded by lock). */
  private long inFlightBytes;

  AsyncUploader(int threadCount, long windowBytes, Upload upload) {
    this.threads = Executors.newFixedThreadPool(threadCount, DaemonThreads.numbered("pocache-redis-put"));
    this.windowBytes = windowBytes;
    this.upload = upload;
  }

  long windowBytes() {
    return windowBytes;
  }

  /** Queues {@code bytes} of upload under {@code key}; waits while the window is full (one put always fits). */
  CompletableFuture<Void> submit(ParityKey key, long bytes, Supplier<byte[]> value) throws InterruptedException {
    synchronized (lock) {
      while (inFlightBytes > 0 && inFlightBytes + bytes > windowBytes) {
        lock.wait();
      }
      inFlightBytes += bytes;
    }
    CompletableFuture<Void> f = new CompletableFuture<>();
    try {
      threads.execute(() -> {
        Exception failure = null;
        try {
          upload.store(key, value.get());
        } catch (ParityStoreException | RuntimeException e) {
          failure = e;
        } finally {
          release(bytes); // before completing: a caller that waited sees the bytes released
        }
        if (failure == null) {
          f.complete(null);
        } else {
          f.completeExceptionally(failure);
        }
      });
    } catch (RuntimeException rejected) {
      release(bytes);
      f.completeExceptionally(new CacheUnavailableException("store is closed", rejected));
    }
    return f;
  }

  private void release(long bytes) {
    synchronized (lock) {
      inFlightBytes -= bytes;
      lock.notifyAll();
    }
  }

  long inFlightBytes() {
    synchronized (lock) {
      return inFlightBytes;
    }
  }

  @Override
  public void close() {
    threads.shutdown();
  }
}
