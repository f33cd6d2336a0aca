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
package org.pocache.hdfs.namenode;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.junit.Test;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.testkit.hdfs.MiniHdfs;

/**
 * {@link StripePlacementPolicy} as the NameNode's block placement: replication-1 files
 * written by a client on the DataNodes' host (which HDFS would place on a random "local"
 * DataNode per block) get every k consecutive blocks on k different DataNodes.
 */
public class TestStripePlacement {
  private static final int BLOCK = 64 << 10;
  private static final int K = 4;

  @Test
  public void everyStripeOfAReplicationOneFileSpansKDataNodes() throws Exception {
    try (MiniHdfs hdfs = cluster(5, true)) {
      for (int f = 0; f < 6; f++) {
        Path p = new Path("/stripes/f" + f);
        byte[] data = write(hdfs.fs(), p, 8 * BLOCK + 100, (short) 1, f);
        assertEquals(0, repeatsWithinWindows(hdfs.dataNodesOfBlocks(p), K));
        assertArrayEquals(data, read(hdfs.fs(), p, data.length));
      }
      // An overwrite at the same path, and files written side by side, are placed alike.
      Path p = new Path("/stripes/f0");
      write(hdfs.fs(), p, 12 * BLOCK, (short) 1, 99);
      assertEquals(0, repeatsWithinWindows(hdfs.dataNodesOfBlocks(p), K));
      assertTrue(policy(hdfs).steeredBlocks() > 0);
      assertEquals(0, policy(hdfs).relaxedBlocks());
    }
  }

  @Test
  public void disabledItPlacesAsHdfsDoes() throws Exception {
    // The control that shows the check above can fail: HDFS's own random choice puts two
    // blocks of a four-block window on one of five DataNodes in most windows
    // (1 - 5*4*3*2 / 5^4 = 81%); 30 windows without one repeat would take odds of 1e-21.
    try (MiniHdfs hdfs = cluster(5, false)) {
      int repeats = 0;
      for (int f = 0; f < 6; f++) {
        Path p = new Path("/free/f" + f);
        write(hdfs.fs(), p, 8 * BLOCK, (short) 1, f);
        repeats += repeatsWithinWindows(hdfs.dataNodesOfBlocks(p), K);
      }
      assertTrue("HDFS's placement never repeated a DataNode within a stripe", repeats > 0);
    }
  }

  @Test
  public void tooFewDataNodesAndMoreReplicasStillWrite() throws Exception {
    try (MiniHdfs hdfs = cluster(3, true)) {
      Path p = new Path("/few/f");
      byte[] data = write(hdfs.fs(), p, 9 * BLOCK, (short) 1, 1);
      assertArrayEquals(data, read(hdfs.fs(), p, data.length));
      // With three DataNodes, every three consecutive blocks still differ.
      assertEquals(0, repeatsWithinWindows(hdfs.dataNodesOfBlocks(p), 3));
      assertTrue("three DataNodes cannot keep four blocks apart", policy(hdfs).relaxedBlocks() > 0);
      Path q = new Path("/few/replicated");
      data = write(hdfs.fs(), q, 6 * BLOCK, (short) 3, 2);
      List<int[]> blocks = hdfs.awaitReplication(q, 3);
      for (int[] replicas : blocks) {
        assertEquals(3, distinct(replicas).size());
      }
      assertArrayEquals(data, read(hdfs.fs(), q, data.length));
    }
  }

  /**
   * With the Manager in the NameNode, new blocks keep off a DataNode on its straggler list
   * (one whose reads are throttled to a sixteenth, listed by its heartbeats) and stripes
   * still span k DataNodes; off the list, it takes new blocks again. Without the list, the
   * stripe window leaves two candidates per block, so the straggler would get about one
   * block in two.
   */
  @Test
  public void newBlocksKeepOffAListedStraggler() throws Exception {
    int port = org.pocache.testkit.FreePorts.pick();
    try (MiniHdfs hdfs = MiniHdfs.builder().dataNodes(5)
        .set(PoCacheConfigKeys.ENABLED_KEY, "true")
        .set(PoCacheConfigKeys.CODE_K_KEY, Integer.toString(K))
        .set("dfs.block.replicator.classname", StripePlacementPolicy.class.getName())
        .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
        .set("dfs.datanode.plugins", org.pocache.hdfs.datanode.PoCacheDataNodePlugin.class.getName())
        .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + port)
        .set(PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY, "1000")
        .set(PoCacheConfigKeys.STRAGGLER_SAMPLE_TTL_KEY, "2500")
        .set(PoCacheConfigKeys.STRAGGLER_REPORT_TTL_KEY, "30000")
        .start();
         org.pocache.manager.protocol.ManagerClient manager = new org.pocache.manager.protocol.ManagerClient(
             new java.net.InetSocketAddress("127.0.0.1", port), hdfs.conf(), 2000)) {
      hdfs.setAllBandwidth(32L << 20);
      Path hot = new Path("/hot/f");
      hdfs.writePinnedFile(hot, 1 << 20, 5, 5);
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      Thread reader = new Thread(() -> readRound(hdfs, hot, stop), "reader");
      reader.start();
      try {
        int slow = 2;
        String slowName = hdfs.dataNode(slow).getDatanodeId().getXferAddr();
        hdfs.throttle(slow).setBandwidth(2L << 20);
        org.apache.hadoop.test.GenericTestUtils.waitFor(
            () -> listed(manager).equals(java.util.Collections.singleton(slowName)), 50, 15_000);
        for (int f = 0; f < 4; f++) {
          Path p = new Path("/kept/f" + f);
          byte[] data = write(hdfs.fs(), p, 8 * BLOCK, (short) 1, f);
          List<int[]> blocks = hdfs.dataNodesOfBlocks(p);
          for (int[] replicas : blocks) {
            assertTrue("a block on the listed straggler " + slowName, !distinct(replicas).contains(slow));
          }
          assertEquals(0, repeatsWithinWindows(blocks, K));
          assertArrayEquals(data, read(hdfs.fs(), p, data.length));
        }
        assertTrue(policy(hdfs).keptOffStragglers() >= 32);

        hdfs.throttle(slow).setBandwidth(32L << 20);
        org.apache.hadoop.test.GenericTestUtils.waitFor(() -> listed(manager).isEmpty(), 50, 15_000);
        int[] n = {0};
        org.apache.hadoop.test.GenericTestUtils.waitFor(() -> {
          try {
            Path p = new Path("/again/f" + n[0]++);
            write(hdfs.fs(), p, 8 * BLOCK, (short) 1, n[0]);
            return hdfs.dataNodesOfBlocks(p).stream().anyMatch(r -> distinct(r).contains(slow));
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }, 100, 10_000);
      } finally {
        stop.set(true);
        reader.join();
      }
    }
  }

  private static Set<String> listed(org.pocache.manager.protocol.ManagerClient manager) {
    try {
      return new HashSet<>(manager.getStragglers().dataNodes);
    } catch (IOException e) {
      return java.util.Collections.singleton("unreachable: " + e);
    }
  }

  /** Whole 1 MiB blocks from each DataNode in turn, so heartbeats carry rates of every DataNode. */
  private static void readRound(MiniHdfs hdfs, Path file, java.util.concurrent.atomic.AtomicBoolean stop) {
    byte[] buf = new byte[1 << 20];
    try (FSDataInputStream in = hdfs.fs().open(file)) {
      while (!stop.get()) {
        for (int b = 0; b < 5 && !stop.get(); b++) {
          in.readFully((long) b << 20, buf);
        }
      }
    } catch (Exception e) {
      if (!stop.get()) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** A malformed key is named in the NameNode's log; the NameNode starts and places blocks as HDFS does. */
  @Test
  public void aMalformedCodeLeavesPlacementToHdfs() throws Exception {
    org.apache.hadoop.test.GenericTestUtils.LogCapturer log =
        org.apache.hadoop.test.GenericTestUtils.LogCapturer.captureLogs(
            org.slf4j.LoggerFactory.getLogger(StripePlacementPolicy.class));
    try (MiniHdfs hdfs = MiniHdfs.builder().dataNodes(3)
        .set(PoCacheConfigKeys.ENABLED_KEY, "true")
        .set(PoCacheConfigKeys.CODE_K_KEY, "one")
        .set("dfs.block.replicator.classname", StripePlacementPolicy.class.getName())
        .start()) {
      Path p = new Path("/malformed/f");
      byte[] data = write(hdfs.fs(), p, 4 * BLOCK, (short) 1, 3);
      assertArrayEquals(data, read(hdfs.fs(), p, data.length));
      assertEquals(0, policy(hdfs).steeredBlocks());
      assertTrue(log.getOutput(), log.getOutput().contains(PoCacheConfigKeys.CODE_K_KEY));
    } finally {
      log.stopCapturing();
    }
  }

  private static StripePlacementPolicy policy(MiniHdfs hdfs) {
    return (StripePlacementPolicy) hdfs.cluster().getNamesystem().getBlockManager().getBlockPlacementPolicy();
  }

  private static MiniHdfs cluster(int dataNodes, boolean enabled) throws IOException {
    return MiniHdfs.builder().dataNodes(dataNodes)
        .set(PoCacheConfigKeys.ENABLED_KEY, Boolean.toString(enabled))
        .set(PoCacheConfigKeys.CODE_K_KEY, Integer.toString(K))
        .set("dfs.block.replicator.classname", StripePlacementPolicy.class.getName())
        .set("dfs.blocksize", Integer.toString(BLOCK))
        .start();
  }

  /** Blocks whose DataNode also holds one of the k - 1 blocks before them. */
  private static int repeatsWithinWindows(List<int[]> blocks, int k) {
    int repeats = 0;
    for (int b = 1; b < blocks.size(); b++) {
      Set<Integer> before = new HashSet<>();
      for (int a = Math.max(0, b - (k - 1)); a < b; a++) {
        before.addAll(distinct(blocks.get(a)));
      }
      for (int dn : blocks.get(b)) {
        if (before.contains(dn)) {
          repeats++;
        }
      }
    }
    return repeats;
  }

  private static Set<Integer> distinct(int[] dns) {
    Set<Integer> s = new HashSet<>();
    for (int d : dns) {
      s.add(d);
    }
    return s;
  }

  private static byte[] write(DistributedFileSystem fs, Path p, int length, short replication, long seed)
      throws IOException {
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    try (FSDataOutputStream out = fs.create(p, true, 4096, replication, BLOCK)) {
      out.write(data);
    }
    return data;
  }

  private static byte[] read(DistributedFileSystem fs, Path p, int length) throws IOException {
    byte[] back = new byte[length];
    try (FSDataInputStream in = fs.open(p)) {
      IOUtils.readFully(in, back, 0, length);
    }
    return back;
  }
}
