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
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.Test;

/** The run-queue clock: its parsing, and on Linux that it counts a thread's wait for a busy core. */
public class TestRunQueueWait {
  private static long parse(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    return RunQueueWait.parse(b, b.length);
  }

  @Test
  public void theSecondFieldIsTheWait() {
    assertEquals(1222028, parse("51629674 1222028 37\n"));
    assertEquals(0, parse("5 0 1\n"));
  }

  @Test
  public void somethingElseIsUnknown() {
    assertEquals(-1, parse(""));
    assertEquals(-1, parse("51629674"));
    assertEquals(-1, parse("51629674 "));
    assertEquals(-1, parse("x 12 3"));
    assertEquals(-1, parse("1 99999999999999999999 3"));
  }

  @Test
  public void aThreadThatSharesOneCoreWithBusyThreadsWaitsForIt() throws Exception {
    assumeTrue(Files.isReadable(Paths.get("/proc/thread-self/schedstat")));
    long before = RunQueueWait.nanos();
    assertTrue("readable: " + before, before >= 0);
    int cores = Runtime.getRuntime().availableProcessors();
    Thread[] spinners = new Thread[cores * 3];
    long stopAt = System.nanoTime() + 300_000_000L;
    for (int i = 0; i < spinners.length; i++) {
      spinners[i] = new Thread(() -> {
        long x = 0;
        while (System.nanoTime() < stopAt) {
          x++;
        }
        if (x == 42) {
          System.out.print("");
        }
      });
      spinners[i].start();
    }
    long x = 0;
    while (System.nanoTime() < stopAt) {
      x++;
    }
    for (Thread s : spinners) {
      s.join();
    }
    long after = RunQueueWait.nanos();
    assertTrue("waited " + (after - before) + " ns among " + spinners.length + " busy threads on " + cores
        + " cores (" + x + ")", after - before > 50_000_000L);
  }
}
