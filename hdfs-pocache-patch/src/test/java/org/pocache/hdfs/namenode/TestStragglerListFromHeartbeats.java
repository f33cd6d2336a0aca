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

import static org.junit.Assert.assertEquals;

import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.HashSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.datanode.PoCacheDataNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.hdfs.MiniHdfs;

/**
 * The Manager runs in the NameNode (plugin), every DataNode runs the heartbeat
 * plugin, clients read from all DataNodes, and one DataNode is throttled: it must
 * be on the Manager's straggler list within 3 heartbeat intervals, and leave it
 * after it is un-throttled. median-mad among 5 DataNodes; three-sigma among 11.
 */
public class TestStragglerListFromHeartbeats {
  private static final int INTERVAL_MS = 1000;
  private static final long BLOCK = 1 << 20;

  @Test
  public void medianMadAmongFive() throws Exception {
    check("median-mad", 5);
  }

  @Test
  public void threeSigmaAmongEleven() throws Exception {
    check("three-sigma", 11);
  }

  private static void check(String detector, int dataNodes) throws Exception {
    int port = FreePorts.pick();
    try (MiniHdfs hdfs = MiniHdfs.builder().dataNodes(dataNodes)
        .set(PoCacheConfigKeys.ENABLED_KEY, "true")
        .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
        .set("dfs.datanode.plugins", PoCacheDataNodePlugin.class.getName())
        .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + port)
        .set(PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY, Integer.toString(INTERVAL_MS))
        .set(PoCacheConfigKeys.STRAGGLER_DETECTOR_KEY, detector)
        .set(PoCacheConfigKeys.STRAGGLER_SAMPLE_TTL_KEY, Integer.toString(2 * INTERVAL_MS + 500))
        .set(PoCacheConfigKeys.STRAGGLER_REPORT_TTL_KEY, "30000")
        .start();
         ManagerClient manager = new ManagerClient(new InetSocketAddress("127.0.0.1", port), hdfs.conf(), 2000)) {
      // Identical "disks", one block on each DataNode, read round and round.
      hdfs.setAllBandwidth(32L << 20);
      Path file = new Path("/heartbeat/f");
      hdfs.writePinnedFile(file, BLOCK, dataNodes, 5);
      AtomicBoolean stop = new AtomicBoolean();
      Thread reader = new Thread(() -> readForever(hdfs, file, dataNodes, stop), "reader");
      reader.start();
      try {
        assertEquals(detector, manager.getStragglers().detector);
        // Baseline: every DataNode reports and, with none throttled, the list is empty. On a
        // busy 2-core machine one noisy sample can flag a DataNode for an interval; the next
        // normal sample clears it, so wait for the empty list rather than sample it once.
        GenericTestUtils.waitFor(() -> heartbeats(manager) >= 2L * dataNodes, 50, 10 * INTERVAL_MS);
        GenericTestUtils.waitFor(() -> listIs(manager, Collections.<String>emptySet()), 50, 5 * INTERVAL_MS);

        int slow = dataNodes / 2;
        String slowName = hdfs.dataNode(slow).getDatanodeId().getXferAddr();
        hdfs.throttle(slow).setBandwidth(2L << 20);
        GenericTestUtils.waitFor(() -> listIs(manager, Collections.singleton(slowName)), 50, 3 * INTERVAL_MS + 500);
        // The operator sees it too.
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        org.apache.hadoop.conf.Configuration adminConf = hdfs.conf();
        assertEquals(0, org.apache.hadoop.util.ToolRunner.run(new org.pocache.hdfs.tools.PoCacheAdmin(adminConf,
            new java.io.PrintStream(printed, true, "UTF-8")), new String[] {"-stragglers"}));
        String text = printed.toString("UTF-8");
        org.junit.Assert.assertTrue(text, text.contains("Stragglers (" + detector + "): 1")
            && text.contains(slowName + " (heartbeats")); // flagged by its heartbeats

        hdfs.throttle(slow).setBandwidth(32L << 20);
        GenericTestUtils.waitFor(() -> listIs(manager, Collections.<String>emptySet()), 50, 3 * INTERVAL_MS + 500);
      } finally {
        stop.set(true);
        reader.join();
      }
    }
  }

  private static boolean listIs(ManagerClient m, java.util.Set<String> want) {
    try {
      return new HashSet<>(m.getStragglers().dataNodes).equals(want);
    } catch (Exception e) {
      return false;
    }
  }

  private static void readForever(MiniHdfs hdfs, Path file, int blocks, AtomicBoolean stop) {
    byte[] buf = new byte[(int) BLOCK]; // whole blocks: TotalReadTime counts whole ms, so short reads give noisy rates
    try (FSDataInputStream in = hdfs.fs().open(file)) {
      while (!stop.get()) {
        for (int b = 0; b < blocks && !stop.get(); b++) {
          in.readFully(b * BLOCK, buf); // one block from every DataNode each round
        }
      }
    } catch (Exception e) {
      if (!stop.get()) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Heartbeats the Manager has taken; two per DataNode give the detector a sample of each. */
  private static long heartbeats(ManagerClient manager) {
    try {
      return manager.getReport().getHeartbeats();
    } catch (java.io.IOException e) {
      return 0;
    }
  }
}
