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

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.PoCacheMiniCluster;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.testkit.DataPattern;

/**
 * A DataNode the NameNode has declared dead, holding a block of a cached file with one
 * replica: the NameNode lists no location for the block, HDFS's own reads wait out their
 * retries (two minutes a round here, longer than the tests' timeout) and then fail, and
 * POCache's reads rebuild the block from parity at once.
 */
public class TestDataNodeDead {
  private static final long BLOCK = 1 << 20;
  private static final Path FILE = new Path("/dead/file");
  private static PoCacheMiniCluster cluster;
  private static FileSystem fs;

  @BeforeClass
  public static void start() throws Exception {
    cluster = PoCacheMiniCluster.builder().dataNodes(5)
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(256 << 10))
        .start();
    cluster.cachedPinnedFile(FILE, BLOCK, 4, 71);
    fs = cluster.client("dfs.client.retry.window.base", "120000");
    String dead = cluster.hdfs.cluster().getDataNodes().get(1).getDatanodeId().getXferAddr(); // block 1
    cluster.hdfs.cluster().stopDataNode(1);
    BlockManagerTestUtil.noticeDeadDatanode(cluster.hdfs.cluster().getNameNode(), dead);
    GenericTestUtils.waitFor(() -> {
      try {
        BlockLocation[] l = fs.getFileBlockLocations(fs.getFileStatus(FILE), BLOCK, 1);
        return l.length == 1 && l[0].getHosts().length == 0;
      } catch (java.io.IOException e) {
        return false;
      }
    }, 100, 20_000);
  }

  @AfterClass
  public static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test(timeout = 60_000)
  public void aPositionalReadRebuildsABlockWithNoLocation() throws Exception {
    byte[] b = new byte[(int) (4 * BLOCK)];
    try (FSDataInputStream in = fs.open(FILE)) {
      in.readFully(0, b);
    }
    assertEquals(-1, DataPattern.firstMismatch(71, 0, b, 0, b.length));
  }

  @Test(timeout = 60_000)
  public void aSequentialReadRebuildsABlockWithNoLocation() throws Exception {
    byte[] b = new byte[(int) (4 * BLOCK)];
    try (FSDataInputStream in = fs.open(FILE)) {
      TestDataNodeDown.readFront(in, b);
    }
    assertEquals(-1, DataPattern.firstMismatch(71, 0, b, 0, b.length));
  }
}
