package org.pocache.hdfs.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.util.Collections;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.DataPattern;

/**
 * Faults under a POCache reader, each its own scenario; every read returns the
 * file's true bytes: Redis stopped between reads and in the middle of one (parity
 * unavailable: read the data), the Manager stopped (no descriptor: a vanilla
 * stream), a DataNode dead under a replication-1 file before and during a read
 * (vanilla HDFS would fail; parity rebuilds the lost piece), and a cached file
 * deleted and recreated at the same path (the old parity is never used for it).
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

  /** Three stripes of block i on DataNode i % 4, cached by the fill worker. */
  private static void writeThreeStripes(ManagerCluster c, ManagerClient m, Path p, long seed) throws Exception {
    c.hdfs.writePinnedFile(p, ManagerCluster.BLOCK, 12 * ManagerCluster.BLOCK, seed, b -> new int[] {b % 4});
    m.prefetch(p.toString());
    GenericTestUtils.waitFor(() -> {
      try {
        return m.getDescriptor(p.toString()).hasParity();
      } catch (Exception e) {
        return false;
      }
    }, 50, 20_000);
  }

  /**
   * Starts a whole-file positional read of a three-stripe file with every DataNode at
   * 1 MiB/s (about 3/4 s in all: one run of substripes per stripe), runs {@code fault}
   * after 100 ms, and checks the bytes and that the read was still going then.
   */
  private static void faultDuringRead(ManagerCluster c, PoCacheFileSystem fs, Path p, long seed, Runnable fault)
      throws Exception {
    int length = (int) (12 * ManagerCluster.BLOCK);
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try (FSDataInputStream in = fs.open(p)) {
      c.hdfs.setAllBandwidth(1 << 20);
      byte[] buf = new byte[length];
      Future<?> read = reader.submit(() -> {
        in.readFully(0, buf);
        return null;
      });
      Thread.sleep(100);
      fault.run();
      long faultAt = System.nanoTime();
      read.get(120, TimeUnit.SECONDS);
      long doneAt = System.nanoTime();
      assertTrue("the read ended before the fault; not a mid-read fault", doneAt > faultAt);
      assertFalse("the fault came after the read", read.isCancelled());
      assertEquals("first wrong byte", -1, DataPattern.firstMismatch(seed, 0, buf, 0, buf.length));
    } finally {
      c.hdfs.setAllBandwidth(0);
      reader.shutdownNow();
    }
  }

  @Test
  public void redisKilledInTheMiddleOfARead() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/faults/client/redis-mid-read");
      writeThreeStripes(c, m, p, 24);
      try (PoCacheFileSystem fs = c.pocacheClient()) {
        byte[] warm = new byte[(int) (12 * ManagerCluster.BLOCK)];
        try (FSDataInputStream in = fs.open(p)) {
          in.readFully(0, warm); // connects the client's parity store
        }
        assertEquals(-1, DataPattern.firstMismatch(24, 0, warm, 0, warm.length));
        c.hdfs.throttle(2).setDelayPerRead(200); // a straggler, so parity is being relied on
        faultDuringRead(c, fs, p, 24, c.redis::stop);
        assertEquals(2, fs.proactiveOpens());
        c.hdfs.throttle(2).reset();
      }
    }
  }

  @Test
  public void aDataNodeKilledInTheMiddleOfAReadIsRebuiltFromParity() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/faults/client/deadnode-mid-read");
      writeThreeStripes(c, m, p, 27);
      try (PoCacheFileSystem fs = c.pocacheClient()) {
        // DataNode 3 holds the only replica of blocks 3, 7 and 11, one in each stripe.
        faultDuringRead(c, fs, p, 27, () -> c.hdfs.cluster().stopDataNode(3));
        assertEquals(1, fs.proactiveOpens());
      }
    }
  }

  @Test
  public void aFileDeletedAndRecreatedNeverGetsTheOldParity() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/faults/client/recreated");
      c.writePinnedAndCache(m, p, 25);
      DescriptorProto old = m.getDescriptor(p.toString()).getParity();
      try (PoCacheFileSystem fs = c.pocacheClient()) {
        readAndVerify(fs, p, 25);
        assertEquals(1, fs.proactiveOpens());
        // Same path, same length, other bytes; the old parity would decode nonsense for it.
        assertTrue(c.hdfs.fs().delete(p, false));
        c.hdfs.writePinnedFile(p, ManagerCluster.BLOCK, 4, 26);
        c.hdfs.throttle(2).setDelayPerRead(300);
        readAndVerify(fs, p, 26);
        readAndVerify(fs, p, 26);
        c.hdfs.throttle(2).reset();
        DescriptorProto now = m.getDescriptor(p.toString()).getParity();
        if (now.hasFileId()) {
          assertNotEquals("a descriptor of the deleted file", old.getFileId(), now.getFileId());
        }
        // The Manager's sweep finds the deleted file and deletes its parity.
        GenericTestUtils.waitFor(() -> {
          try {
            return !c.parityExists(old);
          } catch (Exception e) {
            return false;
          }
        }, 100, 30_000);
      }
    }
  }
}
