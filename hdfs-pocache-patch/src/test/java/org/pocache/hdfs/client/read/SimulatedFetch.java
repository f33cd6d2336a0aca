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
package org.pocache.hdfs.client.read;

import java.util.PriorityQueue;
import java.util.function.Supplier;

/**
 * A fetch's world in simulated time: DataNodes that take scripted times to send each
 * piece, a Redis that takes a scripted time to answer the GET, a fake clock, and the
 * engine's event queue. Nothing runs on another thread: a read "runs" as steps on the
 * simulated timeline, one per packet, and like a direct block read it stops between
 * packets once its piece is unwanted. Set the script, then {@link #run}.
 */
final class SimulatedFetch implements FetchIo, PieceSources, FetchEvents {
  static final long MS = 1_000_000L;
  /** The fake clock; starts far from 0, as System.nanoTime may. */
  long now = 7_000 * MS;
  final Clock clock = () -> now;

  final int k;
  final int m;
  final int rows;
  /** How long each piece's read takes; Long.MAX_VALUE: it never ends by itself. */
  final long[] readNanos;
  /** Between packets a running read looks whether it is still wanted. */
  long packetNanos = MS;
  long parityNanos = 2 * MS;
  boolean parityUsable = true;
  long decodeNanos = MS / 2;
  long minDeadlineNanos = 20 * MS;

  /** What the DataNodes' standing says, per piece. */
  boolean judging;
  final boolean[] listed;
  final boolean[] lateByOwnReads;
  final boolean[] advised;
  final boolean[] suspect;
  /** Until when (fake clock) the piece's DataNode has a backlog of abandoned reads; 0: none. */
  final long[] backlogUntil;

  // What happened.
  final long[] startedAt;
  final long[] endedAt;
  final boolean[] stopped;
  long parityAskedAt;
  /** Whether the GET was to open protected values at once (a decode was likely). */
  boolean parityOpenedAtOnce;
  int decodes;
  /** Reads running now: each holds a pool thread and its piece's array. */
  int busy;
  final boolean[] onTime;
  final boolean[] judgedDecoded;

  Piece[] pieces;
  FetchEngine engine;
  private final PriorityQueue<Step> timeline = new PriorityQueue<>();
  private long seq;

  SimulatedFetch(int k, int m, int rows, long... readMillis) {
    this.k = k;
    this.m = m;
    this.rows = rows;
    readNanos = new long[k];
    for (int i = 0; i < k; i++) {
      readNanos[i] = readMillis[i] == Long.MAX_VALUE ? Long.MAX_VALUE : readMillis[i] * MS;
    }
    listed = new boolean[k];
    lateByOwnReads = new boolean[k];
    advised = new boolean[k];
    suspect = new boolean[k];
    backlogUntil = new long[k];
    startedAt = new long[k];
    endedAt = new long[k];
    stopped = new boolean[k];
    onTime = new boolean[k];
    judgedDecoded = new boolean[k];
  }

  /** Piece i's DataNode is listed by the Manager (suspect, and the history advises a skip). */
  SimulatedFetch onTheList(int i) {
    judging = true;
    listed[i] = true;
    advised[i] = true;
    suspect[i] = true;
    return this;
  }

  /** Piece i's DataNode was late in this client's own reads, so its history advises a skip. */
  SimulatedFetch lateInHistory(int i) {
    judging = true;
    lateByOwnReads[i] = true;
    advised[i] = true;
    suspect[i] = true;
    return this;
  }

  /** Plans and completes the fetch, then its judging; returns how long it took, in ms. */
  double run() throws Exception {
    pieces = new Piece[k];
    for (int i = 0; i < k; i++) {
      pieces[i] = new Piece(i, 1 << 20, new byte[0], Piece.State.SKIPPED, clock);
    }
    engine = new FetchEngine(pieces, m, rows, false,
        new FetchSettings(minDeadlineNanos, 5 * MS, false), clock, this, this, this, true);
    long born = now;
    engine.start();
    engine.complete();
    double took = (now - born) / (double) MS;
    engine.finish();
    return took;
  }

  /** Lets every read still running go on to its end (or its stop), as the pool would. */
  void drain() {
    Step s;
    while ((s = timeline.poll()) != null) {
      now = Math.max(now, s.at);
      s.action.get();
    }
  }

  double ms(long at) {
    return (at - engine.born()) / (double) MS;
  }

  // FetchIo

  @Override
  public void startRead(Piece p) {
    int i = p.index;
    startedAt[i] = now;
    busy++;
    long end = readNanos[i] == Long.MAX_VALUE ? Long.MAX_VALUE : now + readNanos[i];
    schedule(Math.min(end, now + packetNanos), () -> step(p, end));
  }

  /** One packet of piece p's read, which would end at {@code end}. */
  private FetchEvent step(Piece p, long end) {
    int i = p.index;
    if (now >= end) {
      p.finishedAt(now);
      return ended(i, FetchEvent.arrived(i));
    }
    if (readNanos[i] != Long.MAX_VALUE) {
      p.rowsIn((int) Math.min(rows - 1, (now - startedAt[i]) * rows / readNanos[i]));
      p.bytesIn((int) Math.min(p.bytes, (double) (now - startedAt[i]) / readNanos[i] * p.bytes));
    }
    if (p.unwanted()) {
      stopped[i] = true;
      return ended(i, FetchEvent.failed(i, new java.io.IOException("stopped: unwanted")));
    }
    schedule(Math.min(end, now + packetNanos), () -> step(p, end));
    return null;
  }

  private FetchEvent ended(int i, FetchEvent e) {
    busy--;
    endedAt[i] = now;
    return e;
  }

  @Override
  public void requestParity(boolean openNow) {
    parityAskedAt = now;
    parityOpenedAtOnce = openNow;
    schedule(now + parityNanos, () -> FetchEvent.PARITY_IN);
  }

  @Override
  public boolean parityUsable() {
    return parityUsable;
  }

  @Override
  public void parityFailed(Throwable cause) {
  }

  @Override
  public void decodeAhead() {
  }

  @Override
  public boolean decode() {
    decodes++;
    now += decodeNanos;
    for (Piece p : pieces) {
      if (!p.have()) {
        p.decodedInto(new byte[0]);
      }
    }
    return true;
  }

  @Override
  public long expectedDecodeNanos(long bytes) {
    return decodeNanos;
  }

  // PieceSources

  @Override
  public boolean judging() {
    return judging;
  }

  @Override
  public boolean backlogged(int i) {
    return now < backlogUntil[i];
  }

  @Override
  public boolean listed(int i) {
    return listed[i];
  }

  @Override
  public boolean lateByOwnReads(int i) {
    return lateByOwnReads[i];
  }

  @Override
  public boolean skipAdvised(int i) {
    return advised[i];
  }

  @Override
  public boolean suspect(int i) {
    return suspect[i];
  }

  @Override
  public void onTime(int i) {
    onTime[i] = true;
  }

  @Override
  public void decoded(int i, long peersAt) {
    judgedDecoded[i] = true;
  }

  // FetchEvents: the timeline, in the fake clock's time

  @Override
  public FetchEvent take() {
    FetchEvent e = poll(Long.MAX_VALUE);
    if (e == null) {
      throw new AssertionError("the fetch waits for an event that never comes: it would hang");
    }
    return e;
  }

  @Override
  public FetchEvent poll(long nanos) {
    long limit = nanos == Long.MAX_VALUE ? Long.MAX_VALUE : now + Math.max(0, nanos);
    while (!timeline.isEmpty() && timeline.peek().at <= limit) {
      Step s = timeline.poll();
      now = Math.max(now, s.at);
      FetchEvent e = s.action.get();
      if (e != null) {
        return e;
      }
    }
    if (limit != Long.MAX_VALUE) {
      now = limit;
    }
    return null;
  }

  private void schedule(long at, Supplier<FetchEvent> action) {
    timeline.add(new Step(at, seq++, action));
  }

  /** Something that happens at a time: an event for the engine, or null for a step it does not see. */
  private static final class Step implements Comparable<Step> {
    final long at;
    final long seq;
    final Supplier<FetchEvent> action;

    Step(long at, long seq, Supplier<FetchEvent> action) {
      this.at = at;
      this.seq = seq;
      this.action = action;
    }

    @Override
    public int compareTo(Step o) {
      return at != o.at ? Long.compare(at, o.at) : Long.compare(seq, o.seq);
    }
  }
}
