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
import static org.junit.Assert.assertTrue;

import java.util.Collections;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.DataPattern;

/**
 * 1,000 open / proactive read / close cycles of a cached file, one DataNode slow so
 * that late reads are abandoned every time: afterwards the reader threads, the
 * Redis connections and the DataNode connections are what they were after the
 * first cycle (within the configured pool sizes), and every read was exact.
 */
public class TestNoLeaks {
  private static final long FILE = 4 * ManagerCluster.BLOCK;
  private static final int READ_THREADS = 8;
  private static final int REDIS_POOL = 4;

  @Test
  public void thousandCyclesLeakNothing() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/leaks/a");
      c.writePinnedAndCache(m, p, 31);
      try (PoCacheFileSystem fs = c.pocacheClient(PoCacheConfigKeys.READ_THREADS_KEY,
          Integer.toString(READ_THREADS), PoCacheConfigKeys.REDIS_POOL_MAX_KEY, Integer.toString(REDIS_POOL))) {
        c.hdfs.throttle(1).setDelayPerRead(20); // its pieces lose to parity: abandoned reads every cycle
        byte[] buf = new byte[(int) FILE];
        cycle(fs, p, buf);
        int threads0 = Thread.activeCount();
        long redis0 = redisClients(c);
        for (int i = 1; i < 1000; i++) {
          cycle(fs, p, buf);
        }
        assertEquals(1000, fs.proactiveOpens());
        c.hdfs.throttle(1).reset(); // abandoned reads may still be finishing: the bounds below allow for them
        int readers = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
          readers += t.getName().startsWith("pocache-read-") ? 1 : 0;
        }
        int threads = Thread.activeCount();
        long redis = redisClients(c);
        int xceivers = 0;
        for (DataNode dn : c.hdfs.cluster().getDataNodes()) {
          xceivers += dn.getXceiverCount();
        }
        System.out.printf("after 1000 cycles: threads %d (after the first: %d), pocache-read threads %d, Redis"
            + " clients %d (%d), DataNode xceivers %d%n", threads, threads0, readers, redis, redis0, xceivers);
        assertTrue("reader threads " + readers, readers <= READ_THREADS);
        assertTrue("threads grew from " + threads0 + " to " + threads, threads <= threads0 + READ_THREADS);
        // The client's pool may open up to its maximum; a leak would pass it within 1,000 cycles.
        assertTrue("Redis connections grew from " + redis0 + " to " + redis, redis <= redis0 + REDIS_POOL);
        // Each DataNode's count includes its DataXceiverServer thread; the JVM-wide peer
        // cache keeps up to 16 idle connections open; reads still finishing at most one per reader thread.
        assertTrue("DataNode connections " + xceivers, xceivers <= 4 + 16 + READ_THREADS);
      }
    }
  }

  private static void cycle(FileSystem fs, Path p, byte[] buf) throws Exception {
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, buf);
    }
    assertEquals(-1, DataPattern.firstMismatch(31, 0, buf, 0, buf.length));
  }

  private static long redisClients(ManagerCluster c) throws Exception {
    String list = c.redis.client().callString("CLIENT", "LIST");
    return list.split("\n").length - 1; // minus this connection
  }
}
