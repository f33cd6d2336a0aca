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

import org.junit.Test;

/** When a positional read's direct read of a subblock is late, with scripted times: a factor of 3, a 20 ms floor. */
public class TestPreadDeadlines {
  private static final long MS = 1_000_000L;

  @Test
  public void beforeAnyReadWasTimedARebuildJoinsAfterASecond() {
    PreadDeadlines d = new PreadDeadlines(3.0, 20);
    assertEquals(1000 * MS, d.perSubblock(false));
    assertEquals(1000 * MS, d.raceAfter(false));
    assertEquals(1000 * MS, d.raceAfter(true));
  }

  @Test
  public void theDeadlineIsTheFactorTimesTheMeanAndNeverUnderTheFloor() {
    PreadDeadlines d = new PreadDeadlines(3.0, 20);
    d.learn(false, 10 * MS);
    assertEquals(30 * MS, d.raceAfter(false));
    d.learn(false, 60 * MS); // mean 0.8 x 10 + 0.2 x 60 = 20 ms
    assertEquals(60 * MS, d.raceAfter(false));
    PreadDeadlines fast = new PreadDeadlines(3.0, 20);
    fast.learn(false, 2 * MS);
    assertEquals("a lazy read's floor is applied once per read, not per subblock", 6 * MS, fast.perSubblock(false));
    assertEquals("a race waits at least the floor", 20 * MS, fast.raceAfter(false));
    assertEquals(20 * MS, fast.floor());
  }

  @Test
  public void partsOfSubblocksKeepTheirOwnMean() {
    PreadDeadlines d = new PreadDeadlines(3.0, 1);
    d.learn(false, 30 * MS);
    d.learn(true, 2 * MS);
    assertEquals(90 * MS, d.raceAfter(false));
    assertEquals("a short read is not judged by whole subblocks' times", 6 * MS, d.raceAfter(true));
  }
}
