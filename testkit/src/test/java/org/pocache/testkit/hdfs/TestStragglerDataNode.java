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
package org.pocache.testkit.hdfs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.testkit.DataPattern;

/**
 * One DataNode at a configured bandwidth serves at that rate, as its own metrics
 * (BytesRead / TotalReadTime) report it, while the others are unaffected; a delay
 * straggler stalls every read; and both recover.
 */
public class TestStragglerDataNode {
  private static final long BLOCK = 4 << 20;
  private static final long STRAGGLER_RATE = 8 << 20;
  private static final Path FILE = new Path("/straggler/f");
  private static MiniHdfs hdfs;
  private static DataNodeReadMetrics.Snapshot lastDelta;

  @BeforeClass
  public static void startCluster() throws Exception {
    hdfs = MiniHdfs.builder().dataNodes(4).start();
    hdfs.writePinnedFile(FILE, BLOCK, 4, 21);
  }

  @AfterClass
  public static void stopCluster() throws Exception {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  public void throttledDataNodeServesAtItsConfiguredRate() throws Exception {
    hdfs.throttle(1).setBandwidth(STRAGGLER_RATE);
    try {
      double straggler = serviceRateOfBlock(1);
      assertEquals("service rate of the straggler (B/s), " + lastDelta, STRAGGLER_RATE, straggler,
          0.2 * STRAGGLER_RATE);
      for (int healthy : new int[] {0, 2, 3}) {
        double rate = serviceRateOfBlock(healthy);
        assertTrue("DataNode " + healthy + " served at " + rate + " B/s, not above 3x the straggler's cap",
            rate > 3 * STRAGGLER_RATE);
      }
    } finally {
      hdfs.throttle(1).reset();
    }
    double recovered = serviceRateOfBlock(1);
    assertTrue("after reset DataNode 1 still serves at " + recovered + " B/s", recovered > 3 * STRAGGLER_RATE);
  }

  @Test
  public void delayStragglerStallsEveryRead() throws Exception {
    long delay = 300;
    hdfs.throttle(2).setDelayPerRead(delay);
    try {
      byte[] buf = new byte[4096];
      long pos = 2 * BLOCK + 100;
      try (FSDataInputStream in = hdfs.fs().open(FILE)) {
        long startNanos = System.nanoTime();
        in.readFully(pos, buf);
        long tookMillis = (System.nanoTime() - startNanos) / 1_000_000;
        assertTrue("a 4 KiB read from the delay straggler took only " + tookMillis + " ms",
            tookMillis >= delay);
      }
      assertEquals(-1, DataPattern.firstMismatch(21, pos, buf, 0, buf.length));
    } finally {
      hdfs.throttle(2).reset();
    }
    assertEquals(0, hdfs.throttle(2).delayPerRead());
  }

  @Test(expected = IllegalArgumentException.class)
  public void negativeBandwidthIsRejected() {
    hdfs.throttle(0).setBandwidth(-1);
  }

  /** Reads block {@code b} (on DataNode b) and returns that DataNode's service rate for it. */
  private static double serviceRateOfBlock(int b) throws Exception {
    DataNodeReadMetrics.Snapshot before = hdfs.readMetrics(b);
    byte[] buf = new byte[(int) BLOCK];
    try (FSDataInputStream in = hdfs.fs().open(FILE)) {
      in.readFully(b * BLOCK, buf);
    }
    assertEquals(-1, DataPattern.firstMismatch(21, b * BLOCK, buf, 0, buf.length));
    DataNodeReadMetrics.Snapshot delta =
        DataNodeReadMetrics.awaitBytesRead(hdfs.dataNode(b), before, BLOCK, 10_000);
    lastDelta = delta;
    return delta.serviceRateBytesPerSecond();
  }
}
