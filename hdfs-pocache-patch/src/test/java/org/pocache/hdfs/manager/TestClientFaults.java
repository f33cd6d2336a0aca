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
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.util.Collections;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.commons.lang3.StringUtils;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
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
        // Its direct read failed and parity stood in at once: the piece never waited in HDFS's
        // positional read, whose retries would wait for the DataNode (DirectBlockReads).
        assertEquals("pieces sent to HDFS's positional read", 0, fs.positionalReads());
        assertTrue("nothing rebuilt from parity", fs.decodedSubstripes() >= 1);
      }
    }
  }

  /** Three stripes of block i on DataNode i % 4, cached by the fill worker. */
  private static void writeThreeStripes(ManagerCluster c, ManagerClient m, Path p, long seed) throws Exception {
    c.hdfs.writePinnedFile(p, ManagerCluster.BLOCK, 12 * ManagerCluster.BLOCK, seed, b -> new int[] {b % 4});
    m.prefetch(p.toString());
    org.pocache.hdfs.PoCacheMiniCluster.awaitParity(m, p, 20_000);
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
      long started = readsStarted(c);
      byte[] buf = new byte[length];
      Future<?> read = reader.submit(() -> {
        in.readFully(0, buf);
        return null;
      });
      GenericTestUtils.waitFor(() -> readsStarted(c) > started, 5, 30_000); // mid-read: DataNodes serve it
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
      ParityDescriptor old = m.getDescriptor(p.toString()).getParity();
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
        ParityDescriptor now = m.getDescriptor(p.toString()).getParity();
        if (now != null) {
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

  private static long connectionsReceived(ManagerCluster c, String password) throws Exception {
    try (org.pocache.testkit.redis.RespClient r = new org.pocache.testkit.redis.RespClient(c.redis.host(),
        c.redis.port(), 5000)) {
      if (password != null) {
        r.call("AUTH", password);
      }
      String info = r.callString("INFO", "stats");
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("total_connections_received:(\\d+)").matcher(info);
      assertTrue(info, m.find());
      return Long.parseLong(m.group(1));
    }
  }

  /**
   * A client whose Redis password is wrong says so once at WARN, naming the key, and
   * tries Redis once per breaker period, not on every read and write; every read
   * returns the file's bytes and every write lands.
   */
  @Test
  public void aWrongRedisPasswordIsOneWarningAndOneConnectPerPeriod() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/faults/client/wrong-password");
      c.writePinnedAndCache(m, p, 31);
      try (org.pocache.testkit.redis.RespClient r = new org.pocache.testkit.redis.RespClient(c.redis.host(),
          c.redis.port(), 5000)) {
        r.call("CONFIG", "SET", "requirepass", "right");
      }
      org.apache.log4j.Logger.getLogger(PoCacheFileSystem.class).setLevel(org.apache.log4j.Level.INFO);
      GenericTestUtils.LogCapturer log = GenericTestUtils.LogCapturer.captureLogs(
          org.slf4j.LoggerFactory.getLogger(PoCacheFileSystem.class));
      long before = connectionsReceived(c, "right");
      try (PoCacheFileSystem fs = c.pocacheClient(
          org.pocache.manager.PoCacheConfigKeys.REDIS_PASSWORD_KEY, "wrong",
          org.pocache.manager.PoCacheConfigKeys.REDIS_BREAKER_OPEN_KEY, "600000",
          org.pocache.manager.PoCacheConfigKeys.WRITE_MIN_BLOCKS_KEY, "1")) {
        for (int i = 0; i < 10; i++) {
          readAndVerify(fs, p, 31);
        }
        for (int i = 0; i < 5; i++) {
          Path w = new Path("/faults/client/wrong-password-writes/" + i);
          try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(w)) {
            out.write(new byte[64 << 10]);
          }
          assertEquals(64 << 10, fs.getFileStatus(w).getLen());
        }
        long connections = connectionsReceived(c, "right") - before - 1; // less this method's own
        System.out.println("wrong password: " + fs.redisConnectFailures() + " failed connects, " + connections
            + " connections to Redis over 15 operations, fallbacks " + fs.fallbacks());
        assertEquals(1, fs.redisConnectFailures());
        assertTrue(connections + " connections", connections <= 3);
        assertEquals("admitted writes reach Redis at their first upload, and give up", fs.cachedWrites(),
            fs.abandonedWrites());
      } finally {
        log.stopCapturing();
        try (org.pocache.testkit.redis.RespClient r = new org.pocache.testkit.redis.RespClient(c.redis.host(),
            c.redis.port(), 5000)) {
          r.call("AUTH", "right");
          r.call("CONFIG", "SET", "requirepass", "");
        }
      }
      String out = log.getOutput();
      assertEquals(out, 1, StringUtils.countMatches(out, "POCache cannot use Redis"));
      assertEquals(out, 1, StringUtils.countMatches(out, org.pocache.manager.PoCacheConfigKeys.REDIS_PASSWORD_KEY));
    }
  }

  /**
   * A Manager that accepts connections and never answers costs the client one timeout
   * per breaker period: the calls after the first unanswered ones are skipped at once,
   * the client says so once at WARN, and reads and writes are plain HDFS.
   */
  @Test
  public void aBlackholedManagerCostsOneTimeoutPerPeriod() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         java.net.ServerSocket hole = new java.net.ServerSocket(0, 50)) {
      java.util.List<java.net.Socket> accepted = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            accepted.add(hole.accept());
          }
        } catch (java.io.IOException closed) {
          // test over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      Path p = new Path("/faults/client/blackholed");
      c.writePlain(p, FILE, 32);
      org.apache.log4j.Logger.getLogger(ManagerClient.class).setLevel(org.apache.log4j.Level.INFO);
      GenericTestUtils.LogCapturer log = GenericTestUtils.LogCapturer.captureLogs(
          org.slf4j.LoggerFactory.getLogger(ManagerClient.class));
      try (PoCacheFileSystem fs = c.pocacheClient(
          org.pocache.manager.PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + hole.getLocalPort(),
          org.pocache.manager.PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_KEY, "200",
          org.pocache.manager.PoCacheConfigKeys.MANAGER_BREAKER_OPEN_KEY, "600000")) {
        for (int i = 0; i < 10; i++) {
          readAndVerify(fs, p, 32);
        }
        for (int i = 0; i < 5; i++) {
          // Past one block, so that the create asks the Manager (a shorter file never does).
          try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(new Path("/faults/client/blackholed-" + i), true,
              4096, (short) 1, ManagerCluster.BLOCK)) {
            out.write(new byte[(int) ManagerCluster.BLOCK + 1]);
          }
        }
        System.out.println("blackholed Manager: " + fs.managerCallsUnanswered() + " calls timed out, "
            + fs.managerCallsSkipped() + " skipped");
        assertEquals(0, fs.proactiveOpens());
        // The straggler-list fetch at start and the first lookup may both go out before either times out.
        assertTrue(fs.managerCallsUnanswered() + " unanswered", fs.managerCallsUnanswered() <= 2);
        assertTrue(fs.managerCallsSkipped() + " skipped", fs.managerCallsSkipped() >= 13);
      } finally {
        log.stopCapturing();
        for (java.net.Socket s : accepted) {
          s.close();
        }
      }
      String out = log.getOutput();
      assertEquals(out, 1, StringUtils.countMatches(out, "did not answer ("));
      assertEquals(out, 1, StringUtils.countMatches(out, org.pocache.manager.PoCacheConfigKeys.MANAGER_ADDRESS_KEY));
    }
  }

  private static long readsStarted(ManagerCluster c) {
    long n = 0;
    for (int i = 0; i < c.hdfs.cluster().getDataNodes().size(); i++) {
      n += c.hdfs.throttle(i).readsStarted();
    }
    return n;
  }
}
