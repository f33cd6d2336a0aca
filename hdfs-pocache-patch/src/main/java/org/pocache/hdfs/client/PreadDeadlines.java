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
 * When a stream's direct read of a subblock is late: {@code factor} times the recent mean
 * of its direct reads that arrived in time, never less than the floor
 * (dfs.pocache.read.deadline.min.ms). Reads of a whole subblock and of part of one (short
 * positional reads, which take far less) keep separate means. The times are handed in,
 * so the rules are tested without a cluster or a clock.
 */
final class PreadDeadlines {
  private final double factor;
  private final long floorNanos;
  /** Exponentially weighted mean of whole-subblock direct read times, nanoseconds (0: none yet). */
  private volatile double meanNanos;
  /** The same for direct reads of part of a subblock. */
  private volatile double meanPartNanos;

  PreadDeadlines(double factor, long floorMillis) {
    this.factor = factor;
    this.floorNanos = TimeUnit.MILLISECONDS.toNanos(floorMillis);
  }

  /** How long a direct read of a subblock ({@code part}: of part of one) runs alone before a rebuild joins it. */
  long raceAfter(boolean part) {
    return Math.max(floorNanos, perSubblock(part));
  }

  /**
   * A lazy read's deadline per subblock: the mean times the factor (none timed yet: a
   * second). Its floor applies once to the whole read, not per subblock, so that a
   * DataNode ten times slower than its peers at page-cache speeds (a subblock in a few
   * milliseconds, under the floor) is late after a few subblocks.
   */
  long perSubblock(boolean part) {
    double mean = part ? meanPartNanos : meanNanos;
    return mean == 0 ? TimeUnit.SECONDS.toNanos(1) : (long) (mean * factor);
  }

  /** The floor, nanoseconds. */
  long floor() {
    return floorNanos;
  }

  /** A direct read of a subblock ({@code part}: of part of one) arrived in time, after {@code nanos}. */
  void learn(boolean part, long nanos) {
    if (part) {
      meanPartNanos = SubblockTimes.nextMean(meanPartNanos, nanos);
    } else {
      meanNanos = SubblockTimes.nextMean(meanNanos, nanos);
    }
  }
}
