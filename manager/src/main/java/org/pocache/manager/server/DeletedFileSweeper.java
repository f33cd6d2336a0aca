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
package org.pocache.manager.server;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Checks a few cached files per housekeeping tick against HDFS, so that parity of a
 * file deleted or changed there is dropped even when nobody reads it again; it
 * visits every cached file about once per {@link #ROUND_MILLIS}, spread over the
 * ticks (two NameNode reads per file, so never one burst). Housekeeping thread only.
 */
final class DeletedFileSweeper {
  static final long ROUND_MILLIS = 10 * 60_000;

  private final CacheState state;
  private final Namespace namespace;
  private final long tickMillis;
  private final Deque<Long> round = new ArrayDeque<>();
  private int perTick = 1;

  DeletedFileSweeper(CacheState state, Namespace namespace, long tickMillis) {
    this.state = state;
    this.namespace = namespace;
    this.tickMillis = tickMillis;
  }

  /** One tick's share of the round; a new round starts when the last one is done. */
  void run() throws IOException {
    if (round.isEmpty()) {
      round.addAll(state.cachedIds());
      long ticksPerRound = Math.max(1, ROUND_MILLIS / tickMillis);
      perTick = (int) Math.max(1, (round.size() + ticksPerRound - 1) / ticksPerRound);
    }
    for (int n = 0; n < perTick && !round.isEmpty(); n++) {
      long id = round.poll();
      state.dropIfStale(id, namespace.byId(id));
    }
  }
}
