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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * The read engine's decisions, driven by simulated DataNodes with scripted read times
 * and a fake clock ({@link SimulatedFetch}): each test takes milliseconds of real time
 * whatever the simulated reads take. k = 4 data pieces of 1 MiB, a 20 ms minimum
 * deadline, a 2 ms parity GET and a 0.5 ms decode unless a test says otherwise.
 */
public class TestFetchEngine {
  private static final long NEVER = Long.MAX_VALUE;

  /**
   * Nothing suspect, so the parity is not asked for at first; one piece lags far behind
   * its peers (a straggler nobody knew of): once it is out as long again as its peers took
   * and at least the minimum deadline after them, the parity is asked for and the piece
   * decoded. A piece a few milliseconds behind is not a lag.
   */
  @Test(timeout = 10_000)
  public void aPieceThatLagsGoesToParity() throws Exception {
    SimulatedFetch f = new SimulatedFetch(4, 1, 1, 10, 10, 10, 400);
    double took = f.run();
    assertEquals("parity asked at the last arrival (10 ms) + the 20 ms minimum", 30.0, f.ms(f.parityAskedAt), 0.01);
    assertFalse("opened only because the decode needs it", f.parityOpenedAtOnce);
    assertEquals(Piece.State.DECODED, f.pieces[3].state());
    assertEquals("the GET (2 ms), a decode's time of grace for d3 (0.5 ms), the decode (0.5 ms)", 33.0, took, 0.01);

    SimulatedFetch near = new SimulatedFetch(4, 1, 1, 10, 10, 10, 25);
    assertEquals("a piece 15 ms behind its peers is waited for", 25.0, near.run(), 0.01);
    assertEquals("no parity asked for", 0, near.parityAskedAt);
    assertEquals(0, near.decodes);
  }

  /**
   * Nothing suspect, and a piece past the lag deadline whose bytes show it ends soon (its
   * thread was slowed by busy cores, not by its DataNode): the parity is not asked for,
   * and the piece is waited for. One that reported nothing, or sends at a tenth of its
   * peers' pace, is not on pace (above).
   */
  @Test(timeout = 10_000)
  public void aReadOnPaceIsNotALag() throws Exception {
    SimulatedFetch f = new SimulatedFetch(4, 1, 1, 10, 10, 10, 36);
    assertEquals("d3's own 36 ms", 36.0, f.run(), 0.01);
    assertEquals("no parity asked for", 0, f.parityAskedAt);
    assertEquals(0, f.decodes);

    SimulatedFetch slow = new SimulatedFetch(4, 1, 1, 10, 10, 10, 100);
    slow.run();
    assertEquals("a tenth of its peers' pace: asked at 30 ms", 30.0, slow.ms(slow.parityAskedAt), 0.01);
  }

  /**
   * A piece on a DataNode the Manager lists is left to parity while a parity piece stays
   * spare for a DataNode nobody suspects (m - 1 of them); the listing and this client's own
   * late reads together may take all m.
   */
  @Test(timeout = 10_000)
  public void aListedStragglerIsSkippedWithinTheBudget() throws Exception {
    SimulatedFetch two = new SimulatedFetch(4, 2, 1, 500, 500, 10, 10).onTheList(0).onTheList(1);
    double took = two.run();
    assertEquals("listed", two.pieces[0].skippedFor());
    assertTrue("a suspect DataNode: the parity comes with the data, opened at once", two.parityOpenedAtOnce);
    assertFalse("d0 left to parity", two.pieces[0].started());
    assertTrue("with m = 2 one listed piece is skipped, the other read", two.pieces[1].started());
    assertEquals("decoded once d2 and d3 are in", 10.5, took, 0.01);

    SimulatedFetch one = new SimulatedFetch(4, 1, 1, 500, 10, 10, 10).onTheList(0);
    one.run();
    assertNull("with m = 1 the listing alone skips nothing", one.pieces[0].skippedFor());

    SimulatedFetch both = new SimulatedFetch(4, 1, 1, 500, 10, 10, 10).onTheList(0).lateInHistory(0);
    assertEquals(10.5, both.run(), 0.01);
    assertFalse("listed and late in this client's reads: skipped with m = 1", both.pieces[0].started());
  }

  /**
   * A piece skipped on this client's history, whose DataNode has recovered, while the
   * parity is slow (a busy Redis): once the pieces read are in and the skipped one would
   * lag, it is read after all, and the fetch ends with the data, not the parity.
   */
  @Test(timeout = 10_000)
  public void aRecoveredDataNodeIsReadAgain() throws Exception {
    SimulatedFetch f = new SimulatedFetch(4, 2, 1, 10, 10, 10, 10).lateInHistory(0);
    f.parityNanos = 300 * SimulatedFetch.MS;
    double took = f.run();
    assertEquals("history", f.pieces[0].skippedFor());
    assertEquals("read after all at the last arrival (10 ms) + the 20 ms minimum", 30.0, f.ms(f.startedAt[0]), 0.01);
    assertEquals(Piece.State.ARRIVED, f.pieces[0].state());
    assertEquals(0, f.decodes);
    assertEquals("its 10 ms read, not the 300 ms GET", 40.0, took, 0.01);
    assertTrue("and its read counts as on time", f.onTime[0]);
  }

  /**
   * Two slow pieces and one parity piece: both are read from the start (the parity cannot
   * stand in for both), and the fetch ends when the first of them arrives and the other
   * is decoded: never later than stock HDFS, which waits for both.
   */
  @Test(timeout = 10_000)
  public void twoSlowPiecesWithOneParityReadAsStockDoes() throws Exception {
    SimulatedFetch f = new SimulatedFetch(4, 1, 1, 10, 200, 300, 10).onTheList(1).onTheList(2);
    double took = f.run();
    assertTrue("d1 read from the start", f.pieces[1].started() && f.startedAt[1] == f.engine.born());
    assertTrue("d2 read from the start", f.pieces[2].started() && f.startedAt[2] == f.engine.born());
    assertEquals("d1 at 200 ms, then d2 decoded", 200.5, took, 0.01);
    assertTrue("never worse than stock's 300 ms", took <= 300);
  }

  /**
   * A late read of several rows whose pace cannot make it in time is stopped once its
   * piece is decoded: its pool thread and its array are free within a packet, not when
   * its DataNode would have sent the last byte.
   */
  @Test(timeout = 10_000)
  public void aStoppedLateReadFreesItsThreadAndBuffer() throws Exception {
    SimulatedFetch f = new SimulatedFetch(4, 1, 4, 10, 10, 10, 1000);
    double took = f.run();
    assertEquals(Piece.State.DECODED, f.pieces[3].state());
    f.drain();
    assertTrue("the late read stopped", f.stopped[3]);
    assertTrue("within a packet of the decode, not at 1000 ms: " + f.ms(f.endedAt[3]),
        f.ms(f.endedAt[3]) <= took + 1.01);
    assertEquals("no read holds a thread or an array", 0, f.busy);
    assertTrue("judged when it ended", f.judgedDecoded[3]);
  }

  /**
   * A piece whose DataNode has a backlog of abandoned reads is held, and read as soon as
   * the backlog clears if the fetch still needs it (here the parity never arrives in time).
   */
  @Test(timeout = 10_000)
  public void aHeldPieceIsReadWhenItsDataNodesBacklogClears() throws Exception {
    SimulatedFetch f = new SimulatedFetch(4, 1, 1, 10, 10, 10, 10);
    f.judging = true;
    f.suspect[0] = true;
    f.advised[0] = true;
    f.backlogUntil[0] = f.now + 50 * SimulatedFetch.MS;
    f.parityNanos = 500 * SimulatedFetch.MS;
    double took = f.run();
    assertEquals("backlog", f.pieces[0].skippedFor());
    double started = f.ms(f.startedAt[0]);
    assertTrue("read within the 5 ms recheck after the backlog cleared at 50 ms: " + started,
        started >= 50 && started <= 55);
    assertEquals(started + 10, took, 0.01);
  }

  /** A decoded piece's read stops at once if its pace cannot end it before it is late, else when late. */
  @Test
  public void aLateReadStopsAtOnceWhenItsPaceCannotMakeIt() {
    long ms = 1_000_000;
    long born = 0;
    long peersAt = 60 * ms;
    long lateAt = (long) (FetchEngine.LATE_FACTOR * 60 * ms);
    long now = 61 * ms;
    assertEquals("no row of 4 in after 61 ms", now, FetchPace.stopAt(born, peersAt, 1, 0, 4, now));
    assertEquals("1 row of 4: 4 rows take at least 122 ms", now, FetchPace.stopAt(born, peersAt, 1, 1, 4, now));
    assertEquals("2 rows of 4: could end by 81 ms", lateAt, FetchPace.stopAt(born, peersAt, 1, 2, 4, now));
    assertEquals("one row: no pace", lateAt, FetchPace.stopAt(born, peersAt, 1, 0, 1, now));
    assertEquals("never started", lateAt, FetchPace.stopAt(born, peersAt, 0, 0, 4, now));
  }
}
