package org.pocache.hdfs.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Collections;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.DataPattern;

/**
 * Faults under a POCache reader, each its own scenario; every read returns the
 * file's true bytes: Redis stopped (parity unavailable: read the data), the
 * Manager stopped (no descriptor: a vanilla stream), a DataNode dead under a
 * replication-1 file (vanilla HDFS would fail; parity rebuilds the lost piece).
 */
public class TestClientFaults {
  private static final long FILE = 4 * ManagerCluster.BLOCK;

  private static void readAndVerify(FileSystem fs, Path p, long seed) throws Exception {
    byte[] buf = new byte[(int) FILE];
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, buf);
    }
    assertEquals("first wrong byte", -1, DataPattern.firstMismatch(seed, 0, buf, 0, buf.length));
  }

  @Test
  public void redisStoppedMeansDataOnly() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/faults/client/redis");
      c.writePinnedAndCache(m, p, 21);
      try (PoCacheFileSystem fs = c.pocacheClient()) {
        readAndVerify(fs, p, 21); // connects the client's parity store
        assertEquals(1, fs.proactiveOpens());
        c.redis.stop();
        readAndVerify(fs, p, 21);
        readAndVerify(fs, p, 21);
      }
    }
  }

  @Test
  public void managerStoppedMeansVanillaStreams() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/faults/client/manager");
      c.writePinnedAndCache(m, p, 22);
      try (PoCacheFileSystem fs = c.pocacheClient()) {
        c.plugin().stop();
        readAndVerify(fs, p, 22);
        assertEquals(0, fs.proactiveOpens());
        assertTrue(fs.fallbacks() >= 1);
      }
    }
  }

  @Test
  public void aDeadDataNodesPieceIsRebuiltFromParity() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/faults/client/deadnode");
      c.writePinnedAndCache(m, p, 23);
      try (PoCacheFileSystem fs = c.pocacheClient()) {
        c.hdfs.cluster().stopDataNode(3); // the only replica of block 3
        readAndVerify(fs, p, 23);
        assertEquals(1, fs.proactiveOpens());
      }
    }
  }
}
