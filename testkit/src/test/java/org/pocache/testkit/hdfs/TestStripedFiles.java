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

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.testkit.DataPattern;

/** Striped files: cell i of a row is served by exactly one DataNode, the one holding internal block i. */
public class TestStripedFiles {
  private static MiniHdfs hdfs;

  @BeforeClass
  public static void startCluster() throws Exception {
    hdfs = MiniHdfs.builder().dataNodes(6).start();
  }

  @AfterClass
  public static void stopCluster() throws Exception {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  public void builtInRs32() throws Exception {
    checkCellsServedByOneDataNode("RS-3-2-1024k", 3, 2);
  }

  @Test
  public void addedRs42() throws Exception {
    checkCellsServedByOneDataNode("RS-4-2-1024k", 4, 2);
  }

  @Test
  public void builtInXor21() throws Exception {
    checkCellsServedByOneDataNode("XOR-2-1-1024k", 2, 1);
  }

  @Test(expected = IllegalArgumentException.class)
  public void malformedPolicyNameIsRejected() throws Exception {
    hdfs.enableErasureCodingPolicy("RS-four-2");
  }

  private void checkCellsServedByOneDataNode(String policyName, int k, int m) throws Exception {
    Path p = new Path("/striped/" + policyName);
    long seed = policyName.hashCode();
    int rows = 2;
    ErasureCodingPolicy policy = hdfs.enableErasureCodingPolicy(policyName);
    int cell = policy.getCellSize();
    long length = (long) rows * k * cell + 777; // a short third row
    hdfs.writeStripedFile(p, policyName, length, seed);
    assertEquals(k, policy.getNumDataUnits());
    assertEquals(m, policy.getNumParityUnits());

    List<int[]> groups = hdfs.dataNodesOfBlockGroups(p);
    assertEquals(1, groups.size());
    int[] dnOfInternal = groups.get(0);
    Set<Integer> distinct = new HashSet<>();
    for (int dn : dnOfInternal) {
      assertTrue(policyName + ": an internal block has no location", dn >= 0);
      distinct.add(dn);
    }
    assertEquals(policyName + ": internal blocks share a DataNode", k + m, distinct.size());

    byte[] buf = new byte[cell];
    for (int row = 0; row < rows; row++) {
      for (int i = 0; i < k; i++) {
        Map<Integer, Long> before = hdfs.readBlockOps();
        DataNodeReadMetrics.Snapshot servingBefore = hdfs.readMetrics(dnOfInternal[i]);
        long pos = ((long) row * k + i) * cell;
        try (FSDataInputStream in = hdfs.fs().open(p)) {
          in.readFully(pos, buf);
        }
        assertEquals(-1, DataPattern.firstMismatch(seed, pos, buf, 0, cell));
        DataNodeReadMetrics.awaitReadOps(hdfs.dataNode(dnOfInternal[i]), servingBefore, 1, 10_000);
        Map<Integer, Long> after = hdfs.readBlockOps();
        for (int dn = 0; dn < hdfs.dataNodeCount(); dn++) {
          long ops = after.get(dn) - before.get(dn);
          // Read ops, not bytes: the striped reader may ask for the rest of the internal
          // block and hang up after its cell, and such a read counts an op but no bytes.
          if (dn == dnOfInternal[i]) {
            assertTrue(policyName + " row " + row + " cell " + i + ": ops " + ops, ops >= 1);
          } else {
            assertEquals(policyName + " row " + row + " cell " + i + ": read ops on DataNode " + dn,
                0, ops);
          }
        }
      }
    }
  }
}
