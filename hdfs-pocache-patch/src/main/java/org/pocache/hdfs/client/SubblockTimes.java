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
 * Recent time to stream one subblock from a healthy DataNode, shared by a FileSystem's
 * streams: what the deadlines of its sequential reads ({@link SubblockDeadlines}) and its
 * rebuilds rest on. A new JVM has none yet; the first deadline is then a guess.
 */
final class SubblockTimes {
  /** The deadline before any subblock was timed (a new task JVM has no history). */
  static final long FIRST_DEADLINE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private volatile double meanNanos;
  /** Whether a rebuild has succeeded through this file system (see {@link #rebuilt()}). */
  private volatile boolean rebuilt;

  /** {@code factor} x the recent mean, at least {@code minNanos}; the first guess before any was timed. */
  long deadline(double factor, long minNanos) {
    double m = meanNanos;
    return m == 0 ? Math.max(minNanos, FIRST_DEADLINE_NANOS) : Math.max(minNanos, (long) (m * factor));
  }

  /**
   * Whether a rebuild has succeeded through this file system: until then the first one pays
   * for what a new client sets up (the coder's native library, the Redis connections, block
   * readers of the other DataNodes, code the JIT has not compiled yet), most of a second on
   * busy cores.
   */
  boolean rebuilt() {
    return rebuilt;
  }

  /** A rebuild succeeded. */
  void rebuiltOne() {
    if (!rebuilt) {
      rebuilt = true;
    }
  }

  /** Whether any subblock was timed (a deadline rests on this cluster's speed, not a guess). */
  boolean timed() {
    return meanNanos != 0;
  }

  /** Whether subblocks were timed and take longer than {@code nanos} on average lately. */
  boolean slowerThan(long nanos) {
    double m = meanNanos;
    return m != 0 && m > nanos;
  }

  /** A subblock was streamed whole in {@code nanos}. */
  void learn(long nanos) {
    meanNanos = nextMean(meanNanos, nanos);
  }

  /** A recent mean of read times (0: none yet) after one more, {@code nanos}: a fifth of its weight goes to it. */
  static double nextMean(double mean, long nanos) {
    return mean == 0 ? nanos : 0.8 * mean + 0.2 * nanos;
  }
}
