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

import org.apache.hadoop.fs.Path;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.PoCacheMiniCluster;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.testkit.hdfs.MiniHdfs;

/**
 * EC-Cache's late binding on POCache's reads (dfs.pocache.read.parity.pieces): with
 * m = 2 cached parity pieces per stripe, a read that asks for one of them fetches half
 * the parity values, still masks one slow DataNode, and with two slow DataNodes in a
 * stripe waits for one of them and returns the file's bytes.
 */
public class TestLateBinding {
  private static final long BLOCK = 1 << 20;
  private static final int SUBBLOCK = 256 << 10;
  private static final int SUBSTRIPES = (int) (BLOCK / SUBBLOCK);
  private static PoCacheMiniCluster cluster;
  private static MiniHdfs hdfs;

  @BeforeClass
  public static void start() throws Exception {
    cluster = PoCacheMiniCluster.builder().dataNodes(4)
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(SUBBLOCK))
        .set(PoCacheConfigKeys.CODE_M_KEY, "2")
        .start();
    hdfs = cluster.hdfs;
  }

  @AfterClass
  public static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  public void oneParityPieceAskedForMasksOneSlowDataNodeWithHalfTheParity() throws Exception {
    Path p = new Path("/late/one");
    cluster.cachedPinnedFile(p, BLOCK, 4, 41);
    // Clients of their own: no history of another test's slow DataNode skips a piece.
    PoCacheFileSystem all = cluster.client(PoCacheConfigKeys.READ_PROACTIVE_KEY, "always");
    PoCacheFileSystem late = cluster.client(PoCacheConfigKeys.READ_PROACTIVE_KEY, "always",
        PoCacheConfigKeys.READ_PARITY_PIECES_KEY, "1");
    hdfs.throttle(2).setDelayPerRead(3000);
    try {
      ProactiveReader.Outcome k2 = TestProactiveReads.readWhole(all, p, 41);
      ProactiveReader.Outcome k1 = TestProactiveReads.readWhole(late, p, 41);
      assertEquals("k + m: both parity pieces of every substripe", 2 * SUBSTRIPES, k2.parityValues);
      assertEquals("k + 1 of k + m: one parity piece per substripe", SUBSTRIPES, k1.parityValues);
      assertEquals("the slow DataNode's piece decoded in every substripe", SUBSTRIPES, k1.decoded);
      assertFalse(k1.parityCorrupt || k1.parityMissing || k1.cacheError);
    } finally {
      hdfs.throttle(2).reset();
    }
  }

  /**
   * Two slow DataNodes in the stripe and one parity piece asked for: one of the two
   * pieces is waited for and the other decoded; the bytes are the file's.
   */
  @Test
  public void withTwoSlowDataNodesAndOneParityPieceTheReadWaitsForOne() throws Exception {
    Path p = new Path("/late/two");
    cluster.cachedPinnedFile(p, BLOCK, 4, 43);
    PoCacheFileSystem late = cluster.client(PoCacheConfigKeys.READ_PROACTIVE_KEY, "always",
        PoCacheConfigKeys.READ_PARITY_PIECES_KEY, "1");
    PoCacheFileSystem all = cluster.client(PoCacheConfigKeys.READ_PROACTIVE_KEY, "always");
    hdfs.throttle(1).setDelayPerRead(1500);
    hdfs.throttle(3).setDelayPerRead(1500);
    try {
      ProactiveReader.Outcome k1 = TestProactiveReads.readWhole(late, p, 43);
      assertEquals(SUBSTRIPES, k1.parityValues);
      assertTrue("at most one piece per substripe decoded: " + k1.decoded, k1.decoded <= SUBSTRIPES);
      ProactiveReader.Outcome k2 = TestProactiveReads.readWhole(all, p, 43);
      assertEquals(2 * SUBSTRIPES, k2.parityValues);
      assertEquals("with both parity pieces both slow pieces of every substripe decoded", 2 * SUBSTRIPES,
          k2.decoded);
    } finally {
      hdfs.throttle(1).reset();
      hdfs.throttle(3).reset();
    }
  }

  @Test
  public void aNegativeParityPieceCountIsRefusedByName() throws Exception {
    try {
      cluster.client(PoCacheConfigKeys.READ_PARITY_PIECES_KEY, "-1");
      throw new AssertionError("a negative dfs.pocache.read.parity.pieces was accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(PoCacheConfigKeys.READ_PARITY_PIECES_KEY));
    }
  }
}
