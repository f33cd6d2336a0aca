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

/**
 * How the pieces of one fetch keep pace with each other: when the last of them arrived
 * and when the last showed its pace (its run's first row, or the whole piece), and from
 * those, when the pieces still out count as lagging ({@link #lagDeadline}), whether they
 * are on pace all the same ({@link #readsOnPace}), and when a decoded piece's read should
 * stop ({@link #stopAt}). Bookkeeping of the times the {@link FetchEngine} hands in, on
 * its thread: no clock of its own, no I/O.
 */
final class FetchPace {
  private final Piece[] pieces;
  /** Parity pieces the fetch asks for. */
  private final int m;
  /** When the fetch began. */
  private final long born;
  private final long minDeadlineNanos;
  /** When the last data piece taken so far arrived, if any has. */
  private long lastArrival;
  private boolean anyArrived;
  /** When the last piece whose pace became known did so, if any has. */
  private long lastPaced;
  private boolean anyPaced;
  /** Before this, a lag that reads on pace put off asking for the parity is not looked at again. */
  private long lagRecheckAt;

  FetchPace(Piece[] pieces, int m, long born, long minDeadlineNanos) {
    this.pieces = pieces;
    this.m = m;
    this.born = born;
    this.minDeadlineNanos = minDeadlineNanos;
  }

  /** Piece {@code p} arrived: its arrival counts, and so does its pace if it had shown none. */
  void arrived(Piece p) {
    lastArrival = anyArrived ? Math.max(lastArrival, p.arrivedAt()) : p.arrivedAt();
    anyArrived = true;
    paced(p, p.firstRowAt() != 0 ? p.firstRowAt() : p.arrivedAt());
  }

  /** Piece {@code p} showed its pace at {@code at} (once per piece). */
  void paced(Piece p, long at) {
    if (!p.paced()) {
      p.paced(true);
      lastPaced = anyPaced ? Math.max(lastPaced, at) : at;
      anyPaced = true;
    }
  }

  boolean anyPaced() {
    return anyPaced;
  }

  /** When the pieces that arrived did (the last of them), or {@code now} if none has. */
  long peersAt(long now) {
    return anyArrived ? lastArrival : now;
  }

  /** A lag the reads on pace put off is not looked at again before {@code at}. */
  void recheckLagAt(long at) {
    lagRecheckAt = at;
  }

  /**
   * When the pieces still out count as lagging behind those in, or {@code Long.MAX_VALUE}
   * while none can (nothing in yet). Parity not asked for (nothing was suspect): as long
   * again as the arrivals took, at least the minimum deadline after them: a piece a few
   * milliseconds behind is the machine's scheduling, not a straggler, and a straggler
   * unknown so far is still left behind early (a tenth of its peers' pace costs it ten
   * times their time). A piece left to parity: half the time the arrivals took (at
   * least the minimum deadline), since reading it costs its DataNode a read. A piece still
   * without its run's first row that long after its peers had theirs lags too (for a
   * skipped piece, a quarter, and only if the parity cannot stand in for both), so a run
   * of rows tells a lagging piece by its first row, as a fetch of one row would.
   */
  long lagDeadline(boolean parityRequested) {
    long min = minDeadlineNanos;
    if (parityRequested) {
      long at = anyArrived ? lastArrival + Math.max(min, (lastArrival - born) / 2) : Long.MAX_VALUE;
      if (anyPaced && unpacedAndSkipped() > m) {
        at = Math.min(at, lastPaced + Math.max(min / 4, (lastPaced - born) / 4));
      }
      return at;
    }
    long at = Long.MAX_VALUE;
    if (anyArrived) {
      at = lastArrival + Math.max(min, lastArrival - born);
    }
    if (anyPaced && someReadUnpaced()) {
      at = Math.min(at, lastPaced + Math.max(min, lastPaced - born));
    }
    return at == Long.MAX_VALUE ? at : Math.max(at, lagRecheckAt);
  }

  /**
   * Whether every piece still being read shows, by the bytes it reported in, that at its
   * pace so far it ends within half again as long as its peers took (at least half the
   * minimum deadline) from {@code now}: it is slowed by busy cores, not by its DataNode,
   * and the parity would cost its GET and a decode to save little. A piece that reported
   * nothing is not on pace; a straggler at a tenth of its peers' pace is far off it.
   */
  boolean readsOnPace(long now) {
    long peers = anyArrived ? lastArrival - born : now - born;
    long allowance = Math.max(minDeadlineNanos, peers) / 2;
    for (Piece p : pieces) {
      if (p.state() == Piece.State.READING) {
        int in = p.bytesIn();
        if (in <= 0 || !p.started()) {
          return false;
        }
        double end = p.startedAt() + (double) (now - p.startedAt()) * p.bytes / in;
        if (end > now + allowance) {
          return false;
        }
      }
    }
    return true;
  }

  private int unpacedAndSkipped() {
    int n = 0;
    for (Piece p : pieces) {
      n += p.state() == Piece.State.READING && !p.paced() || p.leftToParity() ? 1 : 0;
    }
    return n;
  }

  private boolean someReadUnpaced() {
    for (Piece p : pieces) {
      if (p.state() == Piece.State.READING && !p.paced()) {
        return true;
      }
    }
    return false;
  }

  /**
   * When the read of a decoded piece, still running at {@code now}, should stop: once it
   * is late ({@link FetchEngine#LATE_FACTOR} times the peers' time since {@code born}), or at
   * {@code now} already if at its pace so far it cannot end before that. Its pace: it
   * started at {@code startedAt} and has fewer than {@code rowsIn + 1} of its {@code rows}
   * rows in. A run of one row gives no pace, and waits for the lateness.
   */
  static long stopAt(long born, long peersAt, long startedAt, int rowsIn, int rows, long now) {
    long lateAt = born + (long) (FetchEngine.LATE_FACTOR * Math.max(1, peersAt - born));
    if (rows > 1 && startedAt != 0 && rowsIn < rows && now > startedAt) {
      double earliestEnd = startedAt + (double) (now - startedAt) * rows / (rowsIn + 1);
      if (earliestEnd >= lateAt) {
        return now;
      }
    }
    return lateAt;
  }
}
