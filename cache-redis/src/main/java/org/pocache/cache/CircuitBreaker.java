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

import java.util.function.LongSupplier;

/**
 * Keeps a dead service (Redis, the Manager) from costing one timeout per call: after
 * {@code failures} consecutive failed calls the breaker opens and calls fail at once
 * for {@code openMillis}; then one trial call is let through (half-open): success
 * closes the breaker, failure opens it for another period. Thread-safe.
 */
public final class CircuitBreaker {
  private final int failures;
  private final long openMillis;
  private final LongSupplier clock;
  private int consecutive;
  private long openUntil = Long.MIN_VALUE;
  private boolean trialRunning;

  public CircuitBreaker(int failures, long openMillis, LongSupplier clock) {
    this.failures = failures;
    this.openMillis = openMillis;
    this.clock = clock;
  }

  /** Whether a call may go to Redis now. */
  public synchronized boolean allow() {
    long now = clock.getAsLong();
    if (consecutive < failures) {
      return true;
    }
    if (now < openUntil || trialRunning) {
      return false;
    }
    trialRunning = true; // half-open: exactly one trial
    return true;
  }

  public synchronized void success() {
    consecutive = 0;
    trialRunning = false;
  }

  /** Records a failed call; true if this failure opened the breaker (it was closed before). */
  public synchronized boolean failure() {
    trialRunning = false;
    boolean opens = ++consecutive == failures;
    if (consecutive >= failures) {
      openUntil = clock.getAsLong() + openMillis;
    }
    return opens;
  }

  public synchronized boolean isOpen() {
    return consecutive >= failures && clock.getAsLong() < openUntil;
  }
}
