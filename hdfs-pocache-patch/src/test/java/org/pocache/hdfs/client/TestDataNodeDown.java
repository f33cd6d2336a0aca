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
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.PoCacheMiniCluster;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.testkit.DataPattern;

/**
 * A DataNode that is down (stopped, as in a rolling restart, while the NameNode still
 * lists it) holding a block of a cached file with one replica: POCache's reads hand the
 * block to parity at once. HDFS's own stream would wait and ask again, rounds of
 * {@code dfs.client.retry.window.base} each; the client here sets that to two minutes, so
 * a read that waits in those rounds outlasts the test's timeout (the timeout checks that
 * no such wait happens, it is not a speed target).
 */
public class TestDataNodeDown {
  private static final long BLOCK = 1 << 20;
  private static final Path SEQUENTIAL = new Path("/down/sequential");
  private static final Path POSITIONAL = new Path("/down/positional");
  private static final Path AFTER_LISTED = new Path("/down/after-listed");
  private static final Path KEPT = new Path("/down/kept");
  private static PoCacheMiniCluster cluster;
  private static FileSystem fs;

  @BeforeClass
  public static void start() throws Exception {
    cluster = PoCacheMiniCluster.builder().dataNodes(5)
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(256 << 10))
        // No block scanner: its reads of a block would count among the block reads a test counts.
        .set("dfs.block.scanner.volume.bytes.per.second", "0")
        .start();
    cluster.cachedPinnedFile(SEQUENTIAL, BLOCK, 4, 61);
    cluster.cachedPinnedFile(POSITIONAL, BLOCK, 4, 62);
    cluster.cachedPinnedFile(AFTER_LISTED, BLOCK, 4, 63);
    cluster.cachedPinnedFile(KEPT, BLOCK, 4, 64);
    fs = cluster.client("dfs.client.retry.window.base", "120000");
    cluster.hdfs.cluster().stopDataNode(1); // block 1 of both files: the NameNode still lists it
  }

  @AfterClass
  public static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test(timeout = 60_000)
  public void aSequentialReadRebuildsTheBlockOfTheStoppedDataNode() throws Exception {
    byte[] b = new byte[(int) (4 * BLOCK)];
    Map<Long, Integer> decoded;
    try (FSDataInputStream in = fs.open(SEQUENTIAL)) {
      readFront(in, b);
      assertEquals(-1, in.read());
      decoded = ((PoCacheInputStream) in.getWrappedStream()).decodedPerBlock();
    }
    assertEquals(-1, DataPattern.firstMismatch(61, 0, b, 0, b.length));
    assertTrue("block 1's subblocks rebuilt from parity: " + decoded, decoded.getOrDefault(1L, 0) > 0);
  }

  /**
   * The rebuilds of block 1 read the same subblocks of blocks 0, 2 and 3. Those of blocks 2
   * and 3, which the caller has not reached, are kept and serve it when it gets there:
   * blocks 2 and 3 are not read from their DataNodes a second time.
   */
  @Test(timeout = 60_000)
  public void laterBlocksARebuildReadAreNotReadAgain() throws Exception {
    byte[] b = new byte[(int) (4 * BLOCK)];
    long streamed;
    ProactiveReader.Outcome outcome;
    try (FSDataInputStream in = fs.open(KEPT)) {
      PoCacheInputStream s = (PoCacheInputStream) in.getWrappedStream();
      readFront(in, b);
      streamed = s.streamedBytes();
      outcome = s.outcome().snapshot();
    }
    assertEquals(-1, DataPattern.firstMismatch(64, 0, b, 0, b.length));
    assertTrue("rebuilds read " + outcome.rebuildInputBytes + " bytes of other pieces",
        outcome.rebuildInputBytes > 0 && outcome.rebuildInputBytes <= 3 * BLOCK);
    // The read-ahead streams the first subblock of block 2 (the window reaches into the next
    // block); without the kept pieces it streams blocks 2 and 3 whole.
    assertTrue("bytes streamed after block 1: " + streamed, streamed < BLOCK);
  }

  @Test(timeout = 60_000)
  public void aPositionalReadRebuildsThePieceOfTheStoppedDataNode() throws Exception {
    byte[] b = new byte[(int) (4 * BLOCK)];
    try (FSDataInputStream in = fs.open(POSITIONAL)) {
      in.readFully(0, b);
    }
    assertEquals(-1, DataPattern.firstMismatch(62, 0, b, 0, b.length));
  }

  /**
   * A rebuild's read of another piece, on the stopped DataNode, fails at once: through
   * HDFS's own stream it would wait out the client's retries, two minutes a round here.
   */
  @Test(timeout = 60_000)
  public void aRebuildsReadOfAPieceOnTheStoppedDataNodeFailsAtOnce() throws Exception {
    try (FailFastClient client = new FailFastClient(fs.getUri(), fs.getConf(), null, 1000);
         DFSInputStream fallback = ((DistributedFileSystem) fs).getClient().open(POSITIONAL.toString(), 4096, true);
         FailFastPreads preads = preadsOf(POSITIONAL, client, fallback)) {
      byte[] b = new byte[1024];
      preads.readFully(0, b); // block 0: its DataNode is up
      assertEquals(-1, DataPattern.firstMismatch(62, 0, b, 0, b.length));
      try {
        preads.readFully(BLOCK, b); // block 1: its DataNode was stopped
        fail("read block 1 of " + POSITIONAL + " with its DataNode stopped");
      } catch (BlockMissingException expected) {
        // at once, not after HDFS's rounds of waiting
      }
    }
  }

  /**
   * The rebuilds of a block left to parity read the other blocks of its stripe piece after
   * piece. Those reads go on in one stream per block: read in turn, block 0's 16 pieces
   * cost its DataNode two block reads (the first piece's positional read, then the stream),
   * not 16. Made several at once on a pool's threads, as the rebuilds make them, they
   * still cost fewer (the first ones, before a run is seen, or any that arrive behind the
   * stream, go positionally), and every byte is right.
   */
  @Test(timeout = 60_000)
  public void aRebuildsRunOfReadsOfABlockIsOneBlockReadOnItsDataNode() throws Exception {
    int piece = (int) (BLOCK / 16);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try (FailFastClient client = new FailFastClient(fs.getUri(), fs.getConf(), null, 1000);
         DFSInputStream fallback = ((DistributedFileSystem) fs).getClient().open(POSITIONAL.toString(), 4096, true)) {
      for (boolean atOnce : new boolean[] {false, true}) {
        byte[] b = new byte[(int) BLOCK];
        long started;
        try (FailFastPreads preads = new FailFastPreads(() -> client.open(POSITIONAL.toString(), 4096), fallback,
            new Warnings(org.slf4j.LoggerFactory.getLogger(TestDataNodeDown.class)), 4, BLOCK)) {
          long before = cluster.hdfs.throttle(0).readsStarted(); // DataNode 0 holds block 0
          java.util.List<java.util.concurrent.Future<?>> reads = new java.util.ArrayList<>();
          for (int i = 0; i < 16; i++) {
            int at = i * piece;
            if (atOnce) {
              reads.add(pool.submit(() -> {
                preads.readFully(at, b, at, piece);
                return null;
              }));
            } else {
              preads.readFully(at, b, at, piece);
            }
          }
          for (java.util.concurrent.Future<?> f : reads) {
            f.get();
          }
          started = cluster.hdfs.throttle(0).readsStarted() - before;
        }
        assertEquals(-1, DataPattern.firstMismatch(62, 0, b, 0, b.length));
        String what = "block reads DataNode 0 started for 16 pieces of its block read "
            + (atOnce ? "four at a time: " : "in turn: ") + started;
        assertTrue(what, atOnce ? started < 16 : started == 2);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * A DataNode that takes its connection but sends nothing (a restarting one listens a while
   * before it serves) costs a fail-fast read its timeout, not HDFS's socket timeout (a
   * minute): the read fails and parity can stand in. DataNode 0 stalls its block reads 30 s;
   * with HDFS's timeout the read would wait all that time and then succeed.
   */
  @Test(timeout = 60_000)
  public void aReadFromADataNodeThatSendsNothingFailsAfterTheTimeout() throws Exception {
    try (FailFastClient client = new FailFastClient(fs.getUri(), fs.getConf(), null, 1000);
         DFSInputStream fallback = ((DistributedFileSystem) fs).getClient().open(POSITIONAL.toString(), 4096, true);
         FailFastPreads preads = preadsOf(POSITIONAL, client, fallback)) {
      byte[] b = new byte[1024];
      cluster.hdfs.throttle(0).setDelayPerRead(30_000); // DataNode 0 holds block 0
      try {
        preads.readFully(0, b);
        fail("read block 0 of " + POSITIONAL + " while its DataNode sent nothing for 30 s");
      } catch (java.io.IOException expected) {
        // after the fail-fast client's timeout
      } finally {
        cluster.hdfs.throttle(0).reset();
      }
    }
  }

  /**
   * Block 0's DataNode is listed, so block 0 is left to parity at first sight; its
   * rebuilds need block 1, whose DataNode is stopped, and fail, and block 0 is streamed.
   * Block 1 is then rebuilt from the other blocks, block 0 included (slow by the list, but
   * it reads): a block whose own rebuild failed does not make a block that is down
   * unrescuable. (It did: the read fell back to HDFS's stream and failed once HDFS's
   * retries were over.)
   */
  @Test(timeout = 60_000)
  public void aStoppedDataNodesBlockIsRebuiltFromABlockWhoseOwnRebuildFailed() throws Exception {
    java.util.List<org.apache.hadoop.hdfs.server.datanode.DataNode> live = cluster.hdfs.cluster().getDataNodes();
    String listed = live.get(0).getDatanodeId().getXferAddr(); // DataNode 0: block 0
    org.pocache.manager.protocol.ManagerClient manager = cluster.manager();
    try {
      list(manager, live, listed);
      byte[] b = new byte[(int) (4 * BLOCK)];
      Map<Long, Integer> decoded;
      try (FileSystem reader = cluster.client("dfs.client.retry.window.base", "120000");
           FSDataInputStream in = reader.open(AFTER_LISTED)) {
        readFront(in, b);
        decoded = ((PoCacheInputStream) in.getWrappedStream()).decodedPerBlock();
      }
      assertEquals(-1, DataPattern.firstMismatch(63, 0, b, 0, b.length));
      assertTrue("block 1's subblocks rebuilt from parity: " + decoded, decoded.getOrDefault(1L, 0) > 0);
    } finally {
      list(manager, live, null); // off the list again
    }
  }

  /** Heartbeats until the Manager lists exactly {@code slow} (nothing, for null) on them. */
  private static void list(org.pocache.manager.protocol.ManagerClient manager,
      java.util.List<org.apache.hadoop.hdfs.server.datanode.DataNode> live, String slow) throws Exception {
    java.util.List<String> want = slow == null ? java.util.Collections.<String>emptyList()
        : java.util.Collections.singletonList(slow);
    org.apache.hadoop.test.GenericTestUtils.waitFor(() -> {
      try {
        for (int i = 0; i < live.size(); i++) {
          String dn = live.get(i).getDatanodeId().getXferAddr();
          manager.heartbeat(dn, dn.equals(slow) ? 10_000_000L : 100_000_000L + i * 1_000_000L, 1000.0, 100);
        }
        return manager.getStragglers().dataNodes.equals(want);
      } catch (Exception e) {
        return false;
      }
    }, 100, 20_000);
  }

  /** Positional reads of {@code p} through {@code client}'s fail-fast stream, else {@code fallback}. */
  private static FailFastPreads preadsOf(Path p, FailFastClient client, DFSInputStream fallback) {
    return new FailFastPreads(() -> client.open(p.toString(), 4096), fallback,
        new Warnings(org.slf4j.LoggerFactory.getLogger(TestDataNodeDown.class)));
  }

  /** Fills {@code b} from the front of {@code in} in 64 KiB reads, as a task reads its split. */
  static void readFront(FSDataInputStream in, byte[] b) throws java.io.IOException {
    int off = 0;
    for (int n; off < b.length && (n = in.read(b, off, Math.min(64 << 10, b.length - off))) > 0; ) {
      off += n;
    }
    assertEquals(b.length, off);
  }
}
