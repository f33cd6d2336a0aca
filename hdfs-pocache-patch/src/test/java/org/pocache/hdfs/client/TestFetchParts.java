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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.test.GenericTestUtils;
import org.pocache.hdfs.client.read.Clock;
import org.pocache.hdfs.client.read.Piece;
import org.junit.Test;

/** The small parts a proactive fetch is made of: the caller-buffer guard, the lateness judge, a piece's state. */
public class TestFetchParts {
  private static final List<String> A = Collections.singletonList("dn-a:9866");

  @Test
  public void theGuardWaitsForACopyUnderWayAndLetsNoneStartAfterIt() throws Exception {
    CallerBufferGuard guard = new CallerBufferGuard();
    Piece p = new Piece(0, 10, new byte[10], Piece.State.READING, Clock.SYSTEM);
    assertTrue(guard.beginCopy());
    CountDownLatch closed = new CountDownLatch(1);
    Thread closer = new Thread(() -> {
      guard.closeAndAwait();
      closed.countDown();
    });
    closer.start();
    GenericTestUtils.waitFor(() -> closer.getState() == Thread.State.WAITING, 5, 10_000);
    assertEquals("closed while a copy was under way", 1, closed.getCount());
    guard.endCopy(p, true);
    closed.await();
    assertTrue(p.copied());
    assertFalse("a copy began after the guard closed", guard.beginCopy());
  }

  @Test
  public void aDecodedPieceIsLateOnlyIfItsReadTookHalfAgainItsPeersTime() {
    assertFalse("1.4 times its peers' time: just last", lateAfter(1.4));
    assertTrue("1.6 times its peers' time: late", lateAfter(1.6));
  }

  /** Four decoded pieces on one DataNode, each read ending {@code factor} times its peers' time after the start. */
  private static boolean lateAfter(double factor) {
    SlowSources sources = new SlowSources(Collections::emptySet);
    for (int n = 0; n < 4; n++) {
      LatenessJudge judge = new LatenessJudge(sources, 1, i -> A, 0);
      judge.decoded(0, 1_000_000); // the peers arrived 1 ms after the start
      judge.ended(0, true, (long) (factor * 1_000_000));
    }
    return sources.skip(A);
  }

  @Test
  public void aDecodedPieceWhoseReadRunsOnIsABacklogUntilItEnds() {
    SlowSources sources = new SlowSources(Collections::emptySet);
    LatenessJudge judge = new LatenessJudge(sources, 2, i -> A, 0);
    judge.decoded(1, 1_000_000);
    assertEquals(1, sources.backlog());
    judge.ended(1, false, 0); // failed: late, and no longer a backlog
    assertEquals(0, sources.backlog());
    assertTrue(sources.judging());
  }

  @Test
  public void onlyPiecesInHandCount() {
    for (Piece.State s : Piece.State.values()) {
      Piece p = new Piece(0, 1, new byte[1], s, Clock.SYSTEM);
      boolean inHand = s == Piece.State.ARRIVED || s == Piece.State.DECODED || s == Piece.State.VIRTUAL_ZERO;
      assertEquals(s.name(), inHand, p.have());
      assertEquals(s.name(), s == Piece.State.SKIPPED || s == Piece.State.HELD, p.leftToParity());
    }
  }
}
