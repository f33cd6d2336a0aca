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
package org.pocache.testkit.hdfs;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read speed of one DataNode, adjustable while it runs: a bandwidth cap shared
 * by all of its block reads (like one disk) and a fixed delay added to every block
 * read operation (like a slow seek or a sync storm). Unlimited and zero by default.
 *
 * <p>The cap is a virtual clock: each chunk of bytes reserves the next
 * {@code bytes / rate} seconds of the DataNode's time and is released when its slot
 * ends. Idle time is not saved up beyond a 2 ms slack, so bursts above the rate
 * are at most 2 ms worth of bytes.
 */
public final class DataNodeThrottle {
  private static final long SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
  private static final long MIN_SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private volatile long bytesPerSecond; // 0 = unlimited
  private volatile long delayMillisPerRead;
  private final AtomicLong stallOnceMillis = new AtomicLong();
  private final AtomicLong readsStarted = new AtomicLong();
  private final AtomicLong bytesTaken = new AtomicLong();
  private long nextFreeNanos;           // guarded by this

  /** Caps reads at {@code bytesPerSecond} (0 = unlimited). */
  public void setBandwidth(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bandwidth must be >= 0 bytes/s, got " + bytesPerSecond);
    }
    this.bytesPerSecond = bytesPerSecond;
  }

  public long bandwidth() {
    return bytesPerSecond;
  }

  /** Adds {@code millis} to the start of every block read (0 = none). */
  public void setDelayPerRead(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("delay must be >= 0 ms, got " + millis);
    }
    this.delayMillisPerRead = millis;
  }

  public long delayPerRead() {
    return delayMillisPerRead;
  }

  /**
   * Adds {@code millis} to the start of the next block read only: a one-off hiccup
   * (a pause of the DataNode's JVM, a disk busy for a moment), after which the
   * DataNode serves at its usual speed.
   */
  public void stallNextRead(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("stall must be >= 0 ms, got " + millis);
    }
    stallOnceMillis.set(millis);
  }

  /** No cap, no delay. */
  public void reset() {
    setBandwidth(0);
    setDelayPerRead(0);
    stallOnceMillis.set(0);
  }

  /** Block reads this DataNode has started so far. */
  public long readsStarted() {
    return readsStarted.get();
  }

  /** Bytes this DataNode's block reads have taken from disk so far (what it went on to send). */
  public long bytesTaken() {
    return bytesTaken.get();
  }

  /** Called once when a block read starts. */
  void onReadStart() throws IOException {
    readsStarted.incrementAndGet();
    long d = delayMillisPerRead + stallOnceMillis.getAndSet(0);
    if (d > 0) {
      sleepNanos(TimeUnit.MILLISECONDS.toNanos(d));
    }
  }

  /** Called after {@code bytes} were read from disk; blocks until the cap allows them. */
  void pace(int bytes) throws IOException {
    if (bytes > 0) {
      bytesTaken.addAndGet(bytes);
    }
    long rate = bytesPerSecond;
    if (rate <= 0 || bytes <= 0) {
      return;
    }
    long cost = (long) ((double) bytes * TimeUnit.SECONDS.toNanos(1) / rate);
    long now = System.nanoTime();
    long release;
    synchronized (this) {
      // A clock at most SLACK behind now still counts: it absorbs sleep overshoot,
      // which would otherwise push the achieved rate below the cap.
      long start = nextFreeNanos - (now - SLACK_NANOS) > 0 ? nextFreeNanos : now - SLACK_NANOS;
      release = start + cost;
      nextFreeNanos = release;
    }
    // Tiny reads do not sleep each time (a sleep costs more than it asks for); the
    // clock has advanced anyway, so the next read waits for them.
    if (release - now > MIN_SLEEP_NANOS) {
      sleepNanos(release - now);
    }
  }

  private static void sleepNanos(long nanos) throws InterruptedIOException {
    if (nanos <= 0) {
      return;
    }
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while throttling a DataNode read");
    }
  }

  @Override
  public String toString() {
    return "DataNodeThrottle[" + (bytesPerSecond == 0 ? "unlimited" : bytesPerSecond + " B/s")
        + ", delay " + delayMillisPerRead + " ms/read]";
  }
}
