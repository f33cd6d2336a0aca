package org.pocache.cache;

import java.util.function.LongSupplier;

/**
 * Keeps a dead Redis from costing one timeout per read: after {@code failures}
 * consecutive failed calls the breaker opens and calls fail at once for
 * {@code openMillis}; then one trial call is let through (half-open): success
 * closes the breaker, failure opens it for another period. Thread-safe.
 */
final class CircuitBreaker {
  private final int failures;
  private final long openMillis;
  private final LongSupplier clock;
  private int consecutive;
  private long openUntil = Long.MIN_VALUE;
  private boolean trialRunning;

  CircuitBreaker(int failures, long openMillis, LongSupplier clock) {
    this.failures = failures;
    this.openMillis = openMillis;
    this.clock = clock;
  }

  /** Whether a call may go to Redis now. */
  synchronized boolean allow() {
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

  synchronized void success() {
    consecutive = 0;
    trialRunning = false;
  }

  synchronized void failure() {
    trialRunning = false;
    if (++consecutive >= failures) {
      openUntil = clock.getAsLong() + openMillis;
    }
  }

  synchronized boolean isOpen() {
    return consecutive >= failures && clock.getAsLong() < openUntil;
  }
}
