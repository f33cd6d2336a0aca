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
