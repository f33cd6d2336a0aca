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

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * The rule a sequential reader's own reads of a block are late by when no subblock is
 * late alone ({@link SequentialReader#slowRun}), on the times a 1/10 DataNode gives on
 * unshaped DataNodes: 1 MiB subblocks in about 1 ms from its peers (a per-subblock
 * deadline of 3 ms) and 12.5 ms from it, a 20 ms floor.
 */
public class TestSlowRuns {
  private static final long MS = 1_000_000L;
  private static final long PER_SUB = 3 * MS;
  private static final long FLOOR = 20 * MS;

  @Test
  public void aSteadilySlowDataNodeIsLateInItsSecondSubblock() {
    assertFalse("the first subblock alone", SequentialReader.slowRun(PER_SUB, 0, 0, 12 * MS, FLOOR));
    assertFalse("under the floor", SequentialReader.slowRun(PER_SUB, 12 * MS, 1, 7 * MS, FLOOR));
    assertTrue("the floor reached", SequentialReader.slowRun(PER_SUB, 12 * MS, 1, 8 * MS, FLOOR));
  }

  @Test
  public void oneSlowSubblockAmongFastOnesIsNoRun() {
    // 14 ms once (a pause of a core), then a subblock at its peers' pace: the run is broken.
    assertFalse(SequentialReader.slowRun(PER_SUB, 14 * MS, 1, 1 * MS, FLOOR));
    assertFalse("a fast one resets the run", SequentialReader.slowRun(PER_SUB, 0, 0, 19 * MS, FLOOR));
  }

  @Test
  public void slowSubblocksJustOverTheDeadlineMustAddUpToTheFloor() {
    assertFalse(SequentialReader.slowRun(PER_SUB, 4 * 4 * MS, 4, 3 * MS, FLOOR));
    assertTrue(SequentialReader.slowRun(PER_SUB, 5 * 4 * MS, 5, 3 * MS, FLOOR));
  }

  @Test
  public void beforeAnySubblockWasTimedThereIsNoRun() {
    assertFalse(SequentialReader.slowRun(0, 100 * MS, 3, 50 * MS, FLOOR));
  }
}
