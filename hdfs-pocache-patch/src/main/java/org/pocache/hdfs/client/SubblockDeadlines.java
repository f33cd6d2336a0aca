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

import java.util.concurrent.TimeUnit;

/**
 * When one sequential reader's subblock is late: {@code factor} x the recent time to stream
 * a subblock ({@link SubblockTimes}), at least the minimum. Before any subblock was timed (a
 * task's new JVM) the deadline is a guess, and a subblock is late only past the cold bar:
 * a task's JVM starts beside the other tasks of its wave, and while they start, its first
 * subblock often takes a few hundred milliseconds from healthy DataNodes (no bytes for
 * 340 ms, 128 KiB in 190 ms, measured in sort's map tasks on two shared cores).
 * Pure functions of the shared times; the caller supplies the clock.
 */
final class SubblockDeadlines {
  /** Before any subblock was timed, a subblock is late only after waiting at least this long. */
  static final long COLD_BAR_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** Bytes after a slot's first read from which its rate is judged before any subblock was timed. */
  static final int COLD_RATE_BYTES = 256 << 10;

  private final SubblockTimes times;
  private final double factor;
  private final long minNanos;

  SubblockDeadlines(SubblockTimes times, double factor, long minMillis) {
    this.times = times;
    this.factor = factor;
    this.minNanos = TimeUnit.MILLISECONDS.toNanos(minMillis);
  }

  /** The deadline for one subblock now: the factor x the recent mean, at least the minimum. */
  long deadline() {
    return times.deadline(factor, minNanos);
  }

  /** Whether any subblock was timed: before that, {@link #deadline} is a guess. */
  boolean timed() {
    return times.timed();
  }

  /** The bar a subblock must wait past before any subblock was timed: the factor x the guess, at least a second. */
  long coldBar(long deadline) {
    return Math.max((long) (factor * deadline), COLD_BAR_NANOS);
  }

  /**
   * The time a whole subblock read outside the window (by the caller, or fetched ahead) may
   * take: the deadline, or the cold bar before any subblock was timed.
   */
  long wholeSubblock() {
    long d = deadline();
    return times.timed() ? d : coldBar(d);
  }

  /**
   * What a caller's own subblock must take to be late alone: the deadline, or the cold bar
   * before any subblock was timed or until a rebuild has succeeded through this file system.
   * A new client's first rebuild costs more than a healthy DataNode's pause does.
   */
  long lateAlone() {
    long d = deadline();
    return times.timed() && times.rebuilt() ? d : coldBar(d);
  }

  /**
   * The deadline for one subblock by the recent mean, without the floor; 0 before any
   * subblock was timed. The caller takes it when it begins a block and judges the block's
   * subblocks by it: the block's own slow subblocks do not raise it.
   */
  long perSubblock() {
    return times.timed() ? times.deadline(factor, 0) : 0;
  }

  /** The floor of every deadline. */
  long minNanos() {
    return minNanos;
  }

  /** A subblock was read whole from its DataNode in {@code nanos}. */
  void learn(long nanos) {
    times.learn(nanos);
  }
}
