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

import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * The decisions of one fetch: k data pieces of a run of substripes and their parity,
 * complete once any k of the k + m are in hand (POCache paper section 3.1). It decides
 * which pieces to read and which to leave to parity when the fetch begins, when to ask
 * for the parity if no DataNode was suspect, when a piece left to parity must be read
 * after all, how long a decodable fetch waits for a read nearly done, and from when a
 * late read's bytes are no longer wanted. It runs on the thread completing the fetch and
 * learns what happened only from {@link FetchEvent}s; what it decides is done by its
 * {@link FetchIo} (reads, the GET, decoding) and judged by its {@link PieceSources} (the DataNodes'
 * standing). Time is its {@link Clock}'s.
 *
 * <p>The rules, each a method of the state and the time with no side effect:
 * <ul>
 *   <li>{@link #skipReason}: a piece whose DataNode is suspect is left to parity while a
 *       parity piece stays spare for a DataNode nobody suspects; both words (listed and
 *       late in this client's own reads) or a backlog of abandoned reads may take all m.
 *   <li>{@link FetchPace#lagDeadline}: parity not asked for is asked for once a piece is out as long
 *       again as its peers took, and at least the minimum deadline after them, unless every
 *       read out shows by its bytes in that it ends soon ({@link FetchPace#readsOnPace}); a piece left
 *       to parity is read after all once the pieces read lag by half that.
 *   <li>{@link #graceNanos}: a decodable fetch waits for a read under way from a DataNode
 *       nobody suspects no longer than the decode would take.
 *   <li>{@link FetchPace#stopAt}: a decoded piece's read stops once it is late, or at once if its
 *       pace cannot make it in time.
 * </ul>
 */
public final class FetchEngine {
  /** A decoded piece whose read took this many times its peers' time was late, not just last. */
  public static final double LATE_FACTOR = 1.5;
  /** How soon, at least, a lag put off because the reads were on pace is looked at again. */
  static final long LAG_RECHECK_MIN_NANOS = 1_000_000L;

  private final Piece[] pieces;
  /** Parity pieces per substripe asked for: how many missing pieces a decode can rebuild. */
  private final int m;
  /** Substripes in the run: rows of each piece. */
  private final int rows;
  /** Whether reads report their run's first row (reads of several rows that can). */
  private final boolean firstRows;
  private final FetchSettings settings;
  private final Clock clock;
  private final FetchIo io;
  private final PieceSources sources;
  private final FetchEvents events;
  private final long born;
  /** Reads and the GET whose ending event has not been taken. */
  private int outstanding;
  private boolean parityRequested;
  /** Whether the GET was not started with the data reads (no DataNode was suspect). */
  private boolean parityDeferred;
  private long parityRequestedAt;
  private boolean parityOk;
  /** When pieces arrived and showed their pace, and what follows from that. */
  private final FetchPace pace;
  /** When the pieces in hand first sufficed for a decode; 0 if never. */
  private long decodableAt;
  /** What the engine took, in order; null unless tracing. */
  private final StringBuilder taken;

  /**
   * @param pieces the k data pieces, SKIPPED (to be planned) or VIRTUAL_ZERO (nothing stored)
   * @param m parity pieces per substripe the fetch asks for
   * @param rows substripes in the run
   * @param firstRows whether reads report their run's first row
   * @param trace whether to keep a trace of the events taken ({@link #taken})
   */
  public FetchEngine(Piece[] pieces, int m, int rows, boolean firstRows, FetchSettings settings, Clock clock,
      FetchIo io, PieceSources sources, FetchEvents events, boolean trace) {
    this.pieces = pieces;
    this.m = m;
    this.rows = rows;
    this.firstRows = firstRows;
    this.settings = settings;
    this.clock = clock;
    this.io = io;
    this.sources = sources;
    this.events = events;
    this.born = clock.nanoTime();
    this.pace = new FetchPace(pieces, m, born, settings.minDeadlineNanos);
    this.taken = trace ? new StringBuilder() : null;
  }

  /**
   * Why a piece is left to parity from the start, or null if it is read: its DataNode
   * is advised against while the budget allows. The budget is m - 1 on one word alone
   * (listed by the Manager, or late in this client's history): with m = 1 a wrong word
   * (the straggler moved on) and another slow piece would make the read wait for one of
   * the two. Both words together, or a backlog of abandoned reads (the DataNode has not
   * answered the reads it has), may take all m. {@code advised} is asked only within budget.
   */
  static String skipReason(boolean backlogged, boolean listed, boolean lateByOwnReads,
      java.util.function.BooleanSupplier advised, int skippedSoFar, int m) {
    int budget = backlogged || listed && lateByOwnReads ? m : m - 1;
    if (skippedSoFar >= budget || !advised.getAsBoolean()) {
      return null;
    }
    return backlogged ? "backlog" : listed ? "listed" : "history";
  }

  /**
   * Plans the fetch and starts it: the pieces left to parity (a backlogged DataNode's
   * held), the parity GET if some DataNode is suspect (or every fetch asks for it), and
   * the reads of the rest.
   */
  public void start() {
    boolean judging = sources.judging();
    int skips = 0;
    for (Piece p : pieces) {
      if (p.state() == Piece.State.SKIPPED && judging) {
        int i = p.index;
        boolean backlogged = sources.backlogged(i);
        String why = skipReason(backlogged, sources.listed(i), sources.lateByOwnReads(i),
            () -> sources.skipAdvised(i), skips, m);
        if (why != null) {
          p.skip(why);
          if (backlogged) {
            p.hold(); // read as soon as the backlog shrinks, if the fetch is not complete by then
          }
          skips++;
        }
      }
    }
    // Without a suspect DataNode the parity is asked for only once a piece lags behind its
    // peers; with one, it comes with the data, and protected values are opened at once.
    if (judging || settings.proactiveAlways) {
      requestParity(judging);
    } else {
      parityDeferred = true;
    }
    for (Piece p : pieces) {
      if (p.state() == Piece.State.SKIPPED && p.skippedFor() == null) {
        startRead(p);
      }
    }
  }

  private void requestParity(boolean openNow) {
    parityRequested = true;
    parityRequestedAt = clock.nanoTime();
    outstanding++;
    io.requestParity(openNow);
  }

  private void startRead(Piece p) {
    p.reading(clock.nanoTime());
    outstanding++;
    io.startRead(p);
  }

  /**
   * Runs the fetch until every piece is in hand: read, or decoded from parity. Throws a
   * data read's failure only if parity could not stand in for it.
   */
  public void complete() throws IOException {
    IOException dataError = null;
    try {
      while (true) {
        int missing = missing();
        if (missing == 0) {
          break;
        }
        FetchEvent e;
        if (parityOk && missing <= m) {
          // Decodable now. A piece whose read is under way may still be worth a wait no
          // longer than the decode would take: either way at most twice the better choice.
          long now = clock.nanoTime();
          if (decodableAt == 0) {
            decodableAt = now;
          }
          long left = decodableAt + graceNanos() - now;
          e = left <= 0 ? null : events.poll(left);
          if (e == null) {
            break;
          }
        } else {
          if (outstanding == 0) {
            if (startSkipped()) {
              continue;
            }
            break;
          }
          e = next();
          if (e == null) {
            onWake();
            continue;
          }
        }
        took(e);
        dataError = take(e, dataError);
      }
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during a proactive read");
    }
    int missing = missing();
    if (missing > 0 && !(parityOk && missing <= m && io.decode())) {
      // Parity could not stand in: the data pieces themselves, as vanilla HDFS would.
      if (dataError != null) {
        throw dataError;
      }
      startSkipped();
      waitForData();
    }
  }

  /** Takes in one event; returns the data error seen so far. */
  private IOException take(FetchEvent e, IOException dataError) {
    switch (e.kind()) {
      case FIRST_ROW:
        for (Piece p : pieces) {
          if (p.state() == Piece.State.READING && p.firstRowAt() != 0) {
            pace.paced(p, p.firstRowAt());
          }
        }
        return dataError;
      case ROWS_IN:
        if (parityOk) {
          io.decodeAhead();
        }
        return dataError;
      case PARITY_IN:
        outstanding--;
        parityOk = io.parityUsable();
        if (parityOk) {
          io.decodeAhead();
        } else {
          startSkipped(); // parity cannot stand in for them: read them after all
        }
        return dataError;
      case PARITY_FAILED:
        outstanding--;
        io.parityFailed(e.cause());
        startSkipped();
        return dataError;
      case ARRIVED: {
        outstanding--;
        Piece p = pieces[e.piece()];
        p.arrived();
        pace.arrived(p);
        if (parityOk) {
          io.decodeAhead();
        }
        return dataError;
      }
      case FAILED: {
        outstanding--;
        Throwable c = e.cause();
        if (!parityRequested) {
          requestParity(true); // the failed piece may be rebuilt
        }
        pieces[e.piece()].failed(); // nothing more to wait for from it
        startSkipped(); // rebuilding the failed piece needs every other one
        return c instanceof IOException ? (IOException) c : new IOException(c);
      }
      default:
        throw new IllegalStateException("unknown event " + e);
    }
  }

  /**
   * The next event; null when the fetch should look at its pieces again ({@link
   * #onWake}): the pieces out are past the {@link #lagDeadline} while a skipped piece or
   * the parity waits to be asked for, or a held piece's DataNode is due another look.
   */
  private FetchEvent next() throws InterruptedException {
    boolean anySkipped = false;
    boolean anyHeld = false;
    for (Piece p : pieces) {
      anySkipped |= p.state() == Piece.State.SKIPPED;
      anyHeld |= p.state() == Piece.State.HELD;
    }
    long deadline = anySkipped || !parityRequested ? lagDeadline() : Long.MAX_VALUE;
    boolean watchLag = deadline != Long.MAX_VALUE;
    if (!watchLag && !anyHeld) {
      return events.take();
    }
    long timeout = settings.heldRecheckNanos;
    if (watchLag) {
      long left = deadline - clock.nanoTime();
      if (left <= 0) {
        return events.poll(0);
      }
      timeout = anyHeld ? Math.min(left, settings.heldRecheckNanos) : left;
    }
    return events.poll(timeout);
  }

  /** When the pieces still out count as lagging ({@link FetchPace#lagDeadline}). */
  long lagDeadline() {
    return pace.lagDeadline(parityRequested);
  }

  /**
   * {@link #next} found nothing: past the lag deadline the parity is asked for if it was
   * not, else the skipped pieces are read after all (the skip may rest on stale history:
   * the straggler moved), except a backlogged DataNode's, which are held; held pieces
   * whose DataNode worked its backlog off are read.
   */
  private void onWake() {
    long now = clock.nanoTime();
    boolean lagging = now >= lagDeadline();
    if (lagging && !parityRequested && pace.readsOnPace(now)) {
      pace.recheckLagAt(now + Math.max(settings.minDeadlineNanos / 8, LAG_RECHECK_MIN_NANOS)); // look again soon
    } else if (lagging && !parityRequested) {
      // A piece lags well behind its peers: the parity may stand in. Protected values are
      // opened only if a decode needs them: on busy cores most such pieces arrive before the
      // parity is used, and opening (a digest of every value) would cost more than the GET.
      requestParity(false);
    } else if (lagging) {
      for (Piece p : pieces) {
        if (p.leftToParity()) {
          if (sources.backlogged(p.index)) {
            p.hold();
          } else {
            startRead(p);
          }
        }
      }
    } else {
      for (Piece p : pieces) {
        if (p.state() == Piece.State.HELD && !sources.backlogged(p.index)) {
          startRead(p);
        }
      }
    }
  }

  /** Starts the reads left to parity; false if there were none. */
  private boolean startSkipped() {
    boolean any = false;
    for (Piece p : pieces) {
      if (p.leftToParity()) {
        startRead(p);
        any = true;
      }
    }
    return any;
  }

  private int missing() {
    int n = 0;
    for (Piece p : pieces) {
      n += p.have() ? 0 : 1;
    }
    return n;
  }

  /**
   * How long a decode of the pieces still missing is expected to take, if every one of
   * them has a read under way from a DataNode nobody suspects and (in a run of rows whose
   * peers showed their pace) its own first row is in; 0 otherwise: no wait is worth it.
   */
  long graceNanos() {
    long bytes = 0;
    for (Piece p : pieces) {
      if (!p.have()) {
        if (p.state() != Piece.State.READING || sources.suspect(p.index)
            || firstRows && pace.anyPaced() && !p.paced()) {
          return 0;
        }
        bytes += p.bytes;
      }
    }
    return io.expectedDecodeNanos(bytes);
  }

  /** Waits for every missing piece's read; throws the first failure. */
  private void waitForData() throws IOException {
    try {
      while (missing() > 0) {
        FetchEvent e = events.take();
        took(e);
        if (e.kind() == FetchEvent.Kind.ARRIVED) {
          pieces[e.piece()].arrived();
        } else if (e.kind() == FetchEvent.Kind.FAILED) {
          Throwable c = e.cause();
          throw c instanceof IOException ? (IOException) c : new IOException(c);
        }
      }
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during a proactive read");
    }
  }

  /**
   * The fetch is complete: each piece read and used was on time; each decoded while its
   * read ran is judged when that read ends, and the read stops ({@link FetchPace#stopAt}).
   */
  public void finish() {
    long now = clock.nanoTime();
    long peersAt = pace.peersAt(now);
    boolean judging = sources.judging();
    for (Piece p : pieces) {
      if (!p.started() || !judging && p.state() != Piece.State.DECODED) {
        continue;
      }
      if (p.state() == Piece.State.DECODED) {
        sources.decoded(p.index, peersAt);
        // A straggler does not go on sending what nobody waits for, to slow the reads after.
        p.unwantedFrom(FetchPace.stopAt(born, peersAt, p.startedAt(), p.rowsIn(), rows, now));
      } else {
        sources.onTime(p.index);
      }
    }
  }

  private void took(FetchEvent e) {
    if (taken != null) {
      taken.append(' ').append(e).append('@').append(ms(clock.nanoTime()));
    }
  }

  /** Milliseconds since the fetch began, for traces. */
  public String ms(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.1f", (nanos - born) / 1e6);
  }

  public long born() {
    return born;
  }

  public boolean parityRequested() {
    return parityRequested;
  }

  public boolean parityDeferred() {
    return parityDeferred;
  }

  public long parityRequestedAt() {
    return parityRequestedAt;
  }

  public long decodableAt() {
    return decodableAt;
  }

  /** What the engine took, in order, or an empty string if not tracing. */
  public String taken() {
    return taken == null ? "" : taken.toString();
  }
}
