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

/**
 * When a {@link SequentialReader}'s caller, waiting on a slot, should hand it to parity:
 * pure functions of the slot's times, the clock's {@code now} and the reader's deadline,
 * so each decision can be tested without a DataNode.
 */
final class SlotLateness {
  /** {@link #waitOrLate}'s answer when the slot is late now. */
  static final long LATE = 0;
  /** How often a caller looks again while a slot waits on the cold bar. */
  static final long COLD_LOOK_NANOS = 20_000_000L;

  private SlotLateness() {
  }

  /**
   * Whether a rebuild of the slot under way waits on a slow piece of its own, so the
   * subblock should be streamed (and read on the pool) as well: it is still running after
   * {@code raceAfter} deadlines, the slot's stream is skipped and has not failed, one of
   * the rebuild's reads is still out, and, for the reader's first rebuild (which also pays
   * for what a task's new JVM sets up on its first decode), it is past the cold bar.
   */
  static boolean rebuildWaitsOnItsOwn(WindowSlot slot, long now, long deadline, int raceAfter, boolean rebuiltOnce) {
    long rebuilding = now - slot.rebuildStart;
    return slot.rebuilding && slot.skipStream && slot.error == null && slot.rebuildReadsLeft.get() > 0
        && rebuilding >= raceAfter * deadline
        && (rebuiltOnce || rebuilding >= SubblockDeadlines.COLD_BAR_NANOS);
  }

  /**
   * How long the caller may still wait on a slot whose stream has neither failed nor been
   * late for the caller before: {@link #LATE} once it has waited the deadline, counted from
   * when the streamer began it or the caller began waiting, whichever came first (the
   * caller waits on a slot only once the slots before it are in, so a slot the streamer
   * has not begun means the streamer is stuck in an earlier, abandoned one, or is still
   * opening its stream after a seek).
   *
   * <p>Before any subblock was timed ({@code timed} false: a task's new JVM) the deadline is
   * a guess, not the cluster's speed, and a cold JVM's first bytes of a block take a
   * connection, a DataNode's block open and the JIT's warm-up, on cores its wave's other
   * tasks share. Then the slot is judged by its own progress: late once it has waited
   * {@code coldBar}, or sooner if, at the rate its bytes arrive after the first read, the
   * whole subblock would take that long. A healthy DataNode slower than the guess, or slow
   * to start, is then streamed, not handed to parity for nothing.
   */
  static long waitOrLate(WindowSlot slot, long now, long deadline, boolean timed, long coldBar) {
    long since = slot.streamStart == 0 ? slot.waitSince : Math.min(slot.streamStart, slot.waitSince);
    long waited = now - since;
    if (waited < deadline) {
      return deadline - waited;
    }
    if (!timed && waited < coldBar && !slot.projectedLate(now, coldBar)) {
      return Math.max(1, Math.min(coldBar - waited, COLD_LOOK_NANOS));
    }
    return LATE;
  }
}
