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
package org.pocache.hdfs.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.DescriptorLookup;
import org.pocache.manager.protocol.ManagerClient;

/**
 * Algorithm 1, lines 28-41, in the Manager: while a straggler is known, a file on
 * healthy DataNodes is not admitted when opened, but is remembered by the
 * prediction policy; when its own DataNode becomes a new straggler, the Manager
 * prefetches its parity through the fill worker.
 */
public class TestPrefetchOnNewStraggler {
  private static final long FILE = 4 * ManagerCluster.BLOCK;

  @Test
  public void aNewStragglerTriggersPrefetchOfPredictedFilesOnIt() throws Exception {
    Map<String, String> conf = new HashMap<>();
    conf.put(PoCacheConfigKeys.CSAC_PREFETCH_RATIO_KEY, "0.5");
    conf.put(PoCacheConfigKeys.STRAGGLER_MIN_SAMPLES_KEY, "5");
    try (ManagerCluster c = ManagerCluster.start(6, conf); ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      String[] dn = new String[6];
      for (int i = 0; i < 6; i++) {
        dn[i] = c.hdfs.dataNode(i).getDatanodeId().getXferAddr();
      }
      // DataNode 0 is a straggler: files elsewhere are not admitted on open (line 7 skips G_a).
      GenericTestUtils.waitFor(() -> heartbeats(m, dn, 0) && stragglersAre(m, dn[0]), 100, 10_000);
      Path onOne = new Path("/prefetch/on-dn1");
      c.hdfs.writePinnedFile(onOne, ManagerCluster.BLOCK, FILE, 1, b -> new int[] {1});
      DescriptorLookup first = m.getDescriptor(onOne.toString());
      assertFalse(first.hasParity());
      assertEquals("SHOULD_NOT_CACHE", first.getDecision());
      long prefetchesBefore = m.getReport().getPrefetches();

      // DataNode 1 slows down too: a new straggler, and the file on it is predicted to be read.
      GenericTestUtils.waitFor(() -> heartbeats(m, dn, 0, 1) && stragglersAre(m, dn[0], dn[1]), 100, 10_000);
      // No open in between (an open would admit it on read): the Manager acts on its own.
      GenericTestUtils.waitFor(() -> {
        try {
          return m.getReport().getPrefetches() > prefetchesBefore && m.listCached("/prefetch", 10)
              .getDescriptors().stream().anyMatch(d -> d.getState().name().equals("CACHED"));
        } catch (Exception e) {
          return false;
        }
      }, 100, 20_000);
      DescriptorLookup after = m.getDescriptor(onOne.toString());
      assertTrue(after.getDecision(), after.hasParity());
      assertTrue(c.parityExists(after.getParity()));
    }
  }

  /**
   * One round of service-rate samples of every DataNode, about 100 MB/s and the slow
   * ones 10; the Manager lists a slow one after two rounds at least half a heartbeat
   * interval apart, so callers send rounds until it does. True once sent.
   */
  private static boolean heartbeats(ManagerClient m, String[] dn, int... slow) {
    try {
      for (int i = 0; i < dn.length; i++) {
        boolean isSlow = false;
        for (int s : slow) {
          isSlow |= s == i;
        }
        long bytes = isSlow ? 10_000_000L : 100_000_000L + i * 1_000_000L;
        m.heartbeat(dn[i], bytes, 1000.0, 100);
      }
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  private static boolean stragglersAre(ManagerClient m, String... want) {
    try {
      return new HashSet<>(m.getStragglers().dataNodes).equals(new HashSet<>(Arrays.asList(want)));
    } catch (Exception e) {
      return false;
    }
  }
}
