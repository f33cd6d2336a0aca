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

import java.util.List;
import java.util.function.IntFunction;
import org.pocache.hdfs.client.read.FetchEngine;

/**
 * Tells {@link SlowSources} how each piece of a fetch was served. A piece that was
 * read and used was on time. A piece that was decoded instead is judged when its
 * read ends, since only then is it known how late it was: late if it failed or took
 * at least {@link #LATE_FACTOR} times as long as the pieces that completed the fetch
 * and ended at least {@code minLateNanos} after them (a healthy DataNode that merely
 * came last, or a few milliseconds behind on busy cores, is not late). Until it ends, its
 * DataNode carries it as a backlog of abandoned reads. Read threads and the thread
 * completing the fetch call in; the state is guarded by this object's monitor.
 */
final class LatenessJudge {
  /** A decoded piece whose read took this many times its peers' time was late, not just last. */
  static final double LATE_FACTOR = FetchEngine.LATE_FACTOR;

  private final SlowSources sources;
  private final IntFunction<List<String>> where;
  private final long born;
  /** How far behind its peers a piece must end to be late, whatever the factor says. */
  private final long minLateNanos;
  private final boolean[] ended;
  private final boolean[] endedOk;
  private final long[] endedAt;
  private final boolean[] judgeLater;
  /** For a decoded piece whose read still runs: what ends its place in the DataNode's backlog. */
  private final Runnable[] backlogged;
  /** When the pieces that completed the fetch had arrived. */
  private long peersAt;

  /**
   * @param where the DataNodes of piece i
   * @param born when the fetch started (System.nanoTime)
   */
  LatenessJudge(SlowSources sources, int pieces, IntFunction<List<String>> where, long born) {
    this(sources, pieces, where, born, 0);
  }

  /**
   * @param minLateNanos how far behind its peers a piece must end to be late (the
   *     read's minimum deadline, halved: scheduling on busy cores is not a straggler)
   */
  LatenessJudge(SlowSources sources, int pieces, IntFunction<List<String>> where, long born, long minLateNanos) {
    this.sources = sources;
    this.where = where;
    this.born = born;
    this.minLateNanos = minLateNanos;
    ended = new boolean[pieces];
    endedOk = new boolean[pieces];
    endedAt = new long[pieces];
    judgeLater = new boolean[pieces];
    backlogged = new Runnable[pieces];
  }

  /** The read of piece i ended at {@code atNanos} ({@code ok}: with its bytes). */
  synchronized void ended(int i, boolean ok, long atNanos) {
    ended[i] = true;
    endedOk[i] = ok;
    endedAt[i] = atNanos;
    if (backlogged[i] != null) {
      backlogged[i].run();
      backlogged[i] = null;
    }
    if (judgeLater[i]) {
      judge(i);
    }
  }

  /** Piece i was read and used: on time. */
  void onTime(int i) {
    sources.served(where.apply(i), false);
  }

  /**
   * The fetch is complete: the pieces that completed it had arrived by
   * {@code peersAtNanos}; piece i, decoded while its read ran, is judged now if the
   * read ended, else when it does.
   */
  synchronized void decoded(int i, long peersAtNanos) {
    peersAt = peersAtNanos;
    judgeLater[i] = true;
    if (ended[i]) {
      judge(i);
    } else {
      backlogged[i] = sources.abandoned(where.apply(i));
    }
  }

  private void judge(int i) {
    judgeLater[i] = false;
    long peers = Math.max(1, peersAt - born);
    boolean late = !endedOk[i] || endedAt[i] - born >= LATE_FACTOR * peers && endedAt[i] - peersAt >= minLateNanos;
    sources.served(where.apply(i), late);
  }
}
