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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.redis.RedisServerFixture;

/** Pinned contiguous files: block i really is on DataNode i, and reads back intact. */
public class TestMiniHdfsPlacement {
  private static final long BLOCK = 1 << 20;
  private static MiniHdfs hdfs;

  @BeforeClass
  public static void startCluster() throws Exception {
    hdfs = MiniHdfs.builder().dataNodes(5).start();
  }

  @AfterClass
  public static void stopCluster() throws Exception {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  public void blockIIsOnDataNodeI() throws Exception {
    Path p = new Path("/pinned/r1");
    hdfs.writePinnedFile(p, BLOCK, 4, 11);
    List<int[]> where = hdfs.dataNodesOfBlocks(p);
    assertEquals(4, where.size());
    for (int b = 0; b < 4; b++) {
      assertArrayEquals("block " + b, new int[] {b}, where.get(b));
    }
    assertReadsBack(p, 4 * BLOCK, 11);
  }

  @Test
  public void reversedPinningIsHonouredToo() throws Exception {
    // Guards against a layout that only looks pinned because DataNodes fill in order.
    Path p = new Path("/pinned/reversed");
    hdfs.writePinnedFile(p, BLOCK, 4 * BLOCK, 12, b -> new int[] {4 - b});
    List<int[]> where = hdfs.dataNodesOfBlocks(p);
    for (int b = 0; b < 4; b++) {
      assertArrayEquals("block " + b, new int[] {4 - b}, where.get(b));
    }
    assertReadsBack(p, 4 * BLOCK, 12);
  }

  @Test
  public void twoReplicasOnChosenDataNodesWithShortLastBlock() throws Exception {
    Path p = new Path("/pinned/r2");
    long length = 3 * BLOCK + 12345;
    hdfs.writePinnedFile(p, BLOCK, length, 13, b -> new int[] {b, b + 1});
    List<int[]> where = hdfs.dataNodesOfBlocks(p);
    assertEquals(4, where.size());
    for (int b = 0; b < 4; b++) {
      int[] got = where.get(b).clone();
      Arrays.sort(got);
      assertArrayEquals("block " + b, new int[] {b, b + 1}, got);
    }
    assertEquals(length, hdfs.fs().getFileStatus(p).getLen());
    assertReadsBack(p, length, 13);
  }

  @Test
  public void closeLeavesNoPortsOrDirectories() throws Exception {
    MiniHdfs other = MiniHdfs.builder().dataNodes(2).start();
    int nnPort = other.cluster().getNameNodePort();
    int dnPort = other.dataNode(0).getXferPort();
    File dataDir = new File(other.cluster().getDataDirectory());
    other.close();
    assertFalse("NameNode port " + nnPort, RedisServerFixture.isListening(nnPort));
    assertFalse("DataNode port " + dnPort, RedisServerFixture.isListening(dnPort));
    assertFalse(dataDir + " left behind", dataDir.exists());
  }

  static void assertReadsBack(Path p, long length, long seed) throws Exception {
    byte[] buf = new byte[(int) length];
    try (FSDataInputStream in = hdfs.fs().open(p)) {
      in.readFully(0, buf);
    }
    assertEquals(-1, DataPattern.firstMismatch(seed, 0, buf, 0, buf.length));
  }
}
