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
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.PoCacheMiniCluster;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ReadReport;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * Sequential reads of cached files as tasks make them (SequentialReader): they count
 * in the reading thread's FileSystem statistics exactly as HDFS's stream would (Spark
 * and MapReduce take input metrics from there), and a stripe parity cannot rescue
 * (two of its pieces slow, m = 1) is streamed, never rebuilt.
 */
public class TestSequentialReads {
  private static final long BLOCK = 1 << 20;
  private static final int SUBBLOCK = 256 << 10;
  private static PoCacheMiniCluster cluster;
  private static RedisServerFixture redis;
  private static MiniHdfs hdfs;
  private static ManagerClient manager;
  /** A second client (another user) whose reads confirm the first's: one client alone lists nobody. */
  private static ManagerClient secondReader;
  private static FileSystem fs;

  @BeforeClass
  public static void start() throws Exception {
    cluster = PoCacheMiniCluster.builder().dataNodes(4)
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(SUBBLOCK))
        .start();
    redis = cluster.redis;
    hdfs = cluster.hdfs;
    manager = cluster.manager();
    secondReader = org.apache.hadoop.security.UserGroupInformation.createRemoteUser("second-reader").doAs(
        (java.security.PrivilegedExceptionAction<ManagerClient>) () ->
            new ManagerClient(cluster.managerAddress(), hdfs.conf(), 5000));
    fs = cluster.client();
  }

  @AfterClass
  public static void stop() throws Exception {
    if (secondReader != null) {
      secondReader.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static void cachedFile(Path p, long seed) throws Exception {
    cluster.cachedPinnedFile(p, BLOCK, 4, seed);
  }

  /**
   * Reads {@code length} bytes from the stream's position {@code from} in calls of at
   * most {@code chunk} bytes, as a record reader does, and checks them against the
   * pattern of {@code seed}.
   */
  private static void readExactly(FSDataInputStream in, long seed, long from, long length, int chunk)
      throws IOException {
    byte[] buf = new byte[(int) length];
    int off = 0;
    for (int n; off < buf.length && (n = in.read(buf, off, Math.min(chunk, buf.length - off))) > 0; ) {
      off += n;
    }
    assertEquals(buf.length, off);
    assertEquals(-1, DataPattern.firstMismatch(seed, from, buf, 0, buf.length));
  }

  /** A FileSystem of its own (its own subblock times) whose deadline is never under {@code ms} milliseconds. */
  private static FileSystem withMinDeadline(String ms) throws IOException {
    Configuration c = new Configuration(fs.getConf());
    c.set(PoCacheConfigKeys.READ_DEADLINE_MIN_KEY, ms);
    return FileSystem.newInstance(fs.getUri(), c);
  }

  /**
   * Waits until no whole-block prefetch of an earlier test still reads (a closed stream's
   * fetch ends after its read under way): such a read would take a stall armed for this one.
   */
  private static void noPrefetchUnderWay() throws Exception {
    GenericTestUtils.waitFor(() -> Thread.getAllStackTraces().keySet().stream()
        .noneMatch(t -> t.getName().startsWith("pocache-prefetch")), 10, 30_000);
  }

  /** Bytes read, as the reading thread's own FileSystem statistics count them. */
  private static long threadBytesRead(FileSystem f, Callable<Void> read) throws Exception {
    ExecutorService one = Executors.newSingleThreadExecutor();
    try {
      return one.submit(() -> {
        long before = f.getStatistics() == null ? 0 : threadStats(f);
        read.call();
        return threadStats(f) - before;
      }).get();
    } finally {
      one.shutdown();
    }
  }

  private static long threadStats(FileSystem f) {
    long n = 0;
    for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
      if (s.getScheme().equals(f.getScheme())) {
        n += s.getThreadStatistics().getBytesRead();
      }
    }
    return n;
  }

  /** Record-sized reads (TeraSort's are 100 bytes) and seeks back and forth, byte for byte. */
  @Test
  public void smallReadsAndSeeksReturnTheFilesBytes() throws Exception {
    Path p = new Path("/sequential/small");
    cachedFile(p, 23);
    try (FSDataInputStream in = fs.open(p)) {
      assertTrue(in.getWrappedStream() instanceof PoCacheInputStream);
      readExactly(in, 23, 0, BLOCK + BLOCK / 2, 100);
      long back = BLOCK + BLOCK / 2 - 50_000;
      in.seek(back);
      readExactly(in, 23, back, 60_000, 7);
      assertEquals(back + 60_000, in.getPos());
      int one = in.read();
      byte[] expected = new byte[1];
      DataPattern.fill(23, back + 60_000, expected, 0, 1);
      assertEquals(expected[0] & 0xff, one);
      long ahead = 3 * BLOCK + 12_345;
      in.seek(ahead);
      readExactly(in, 23, ahead, BLOCK - 12_345, 100);
      assertEquals(-1, in.read(new byte[100], 0, 100));
    }
  }

  @Test
  public void readsCountInTheCallersStatisticsAsHdfsReadsDo() throws Exception {
    Path p = new Path("/sequential/stats");
    cachedFile(p, 21);
    hdfs.throttle(2).setDelayPerRead(500); // some pieces rebuilt: those reads happen on other threads
    try {
      long sequential = threadBytesRead(fs, () -> {
        try (FSDataInputStream in = fs.open(p)) {
          assertTrue(in.getWrappedStream() instanceof PoCacheInputStream);
          byte[] b = new byte[4096];
          long at = 0;
          for (int n; (n = in.read(b, 0, b.length)) > 0; at += n) {
            assertEquals(-1, DataPattern.firstMismatch(21, at, b, 0, n));
          }
          assertEquals(4 * BLOCK, at);
        }
        return null;
      });
      assertEquals("sequential read of the whole file", 4 * BLOCK, sequential);
      long positional = threadBytesRead(fs, () -> {
        try (FSDataInputStream in = fs.open(p)) {
          byte[] all = new byte[(int) (4 * BLOCK)];
          in.readFully(0, all);
          assertEquals(-1, DataPattern.firstMismatch(21, 0, all, 0, all.length));
          byte[] part = new byte[10_000];
          in.readFully(BLOCK + 7, part);
        }
        return null;
      });
      assertEquals("a whole-file pread and a short one", 4 * BLOCK + 10_000, positional);
    } finally {
      hdfs.throttle(2).reset();
    }
  }

  @Test
  public void aStripeParityCannotRescueIsStreamedNotRebuilt() throws Exception {
    Path p = new Path("/sequential/unrescuable");
    cachedFile(p, 22);
    // Blocks 1 and 2 both slow: with m = 1 a rebuild of either needs the other.
    hdfs.throttle(1).setDelayPerRead(400);
    hdfs.throttle(2).setDelayPerRead(400);
    try (FSDataInputStream in = fs.open(p)) {
      readExactly(in, 22, 0, 4 * BLOCK, 65536);
      ProactiveReader.Outcome o = ((PoCacheInputStream) in.getWrappedStream()).outcome().snapshot();
      int perBlock = (int) (BLOCK / SUBBLOCK);
      // Block 1 may be rebuilt once found late (its rebuild waits for block 2); block 2 then
      // counts as rescuable by nothing and is streamed.
      assertTrue("decoded " + o.decoded + " subblocks; at most block 1's " + perBlock, o.decoded <= perBlock);
      assertEquals(4 * perBlock, o.substripes);
    } finally {
      hdfs.throttle(1).reset();
      hdfs.throttle(2).reset();
    }
  }

  /**
   * A DataNode that stalls once (longer than the deadline, then at full speed) costs one
   * rebuilt subblock, not its block: a rebuild reads k - 1 subblocks from other
   * DataNodes, so a block is left to parity only after late subblocks in a row. The
   * deadline is 600 ms here and the stall 900 ms (the client is taken as past its first
   * rebuild, so the deadline, not the cold bar, judges its subblocks): the read of the block's first subblock
   * (by the whole-block prefetch, or by the caller, who then hands over to the read-ahead
   * and races that subblock's rest with a rebuild) is late; its second subblock is in on
   * time. (With a block taken over on the first late subblock, all four of block 2's
   * subblocks were decoded.)
   */
  @Test
  public void aSingleStallRebuildsOneSubblockNotItsBlock() throws Exception {
    Path p = new Path("/sequential/stall");
    cachedFile(p, 23);
    try (FileSystem judge = withMinDeadline("600")) {
      ((PoCacheFileSystem) judge).rebuiltOneForTests();
      noPrefetchUnderWay();
      hdfs.throttle(2).stallNextRead(900);
      try (FSDataInputStream in = judge.open(p)) {
        readExactly(in, 23, 0, 4 * BLOCK, 65536);
        ProactiveReader.Outcome o = ((PoCacheInputStream) in.getWrappedStream()).outcome().snapshot();
        assertTrue("at most block 2's first subblock rebuilt, the rest streamed: " + o.decoded, o.decoded <= 1);
      } finally {
        hdfs.throttle(2).reset();
      }
    }
  }

  /**
   * One stall (a collection in a DataNode, a busy core) makes one subblock late: it is
   * rebuilt, and from the next subblock on the caller reads HDFS's stream itself again,
   * not through the read-ahead (its thread and copies) for the rest of the file.
   */
  @Test
  public void afterAStallTheCallerReadsHdfsStreamItselfAgain() throws Exception {
    Path p = new Path("/sequential/stall-back");
    cachedFile(p, 29);
    try (FileSystem judge = withMinDeadline("600")) {
      ((PoCacheFileSystem) judge).rebuiltOneForTests();
      noPrefetchUnderWay();
      hdfs.throttle(1).stallNextRead(900);
      try (FSDataInputStream in = judge.open(p)) {
        readExactly(in, 29, 0, 4 * BLOCK, 4096);
        PoCacheInputStream s = (PoCacheInputStream) in.getWrappedStream();
        ProactiveReader.Outcome o = s.outcome().snapshot();
        assertEquals("the stalled subblock rebuilt", 1, o.decoded);
        assertEquals("reads taken back after it", 1, s.handedBack());
        assertTrue("reading HDFS's stream again", s.readsDirectly());
        assertTrue("read ahead: " + s.streamedBytes(), s.streamedBytes() < 2 * SUBBLOCK);
      } finally {
        hdfs.throttle(1).reset();
      }
    }
  }

  /**
   * A new client's first rebuild costs more than a healthy DataNode's pause (it opens the
   * coder, Redis and the other DataNodes' block readers: most of a second in a task's new
   * JVM on busy cores). So until a rebuild has succeeded through the client, a subblock of
   * its own reads is late alone only past the cold bar (here 3 x the 600 ms deadline): a
   * 900 ms stall is waited out. Past its first rebuild, the same stall is late at the
   * deadline and its subblock rebuilt.
   */
  @Test
  public void aNewClientWaitsOutAStallShorterThanItsFirstRebuildWouldTake() throws Exception {
    Path p = new Path("/sequential/stall-cold");
    cachedFile(p, 43);
    try (FileSystem judge = withMinDeadline("600")) {
      int[] decoded = new int[2];
      for (int i = 0; i < 2; i++) {
        if (i == 1) {
          ((PoCacheFileSystem) judge).rebuiltOneForTests();
        }
        noPrefetchUnderWay();
        hdfs.throttle(1).stallNextRead(900);
        try (FSDataInputStream in = judge.open(p)) {
          readExactly(in, 43, 0, 4 * BLOCK, 4096);
          decoded[i] = ((PoCacheInputStream) in.getWrappedStream()).outcome().snapshot().decoded;
        } finally {
          hdfs.throttle(1).reset();
        }
      }
      assertEquals("subblocks decoded for a 900 ms stall in a new client", 0, decoded[0]);
      assertEquals("and past its first rebuild", 1, decoded[1]);
    }
  }

  /**
   * A DataNode a few times slower than its peers, whose subblocks each arrive under the
   * deadline's floor (600 ms here, each subblock about 350 ms): no subblock is late alone,
   * but the block is, counted over its subblocks in a row with the floor once. The rest of
   * it is left to parity: its last subblocks are rebuilt, not read at the DataNode's pace.
   */
  @Test
  public void aSlowBlockWhoseSubblocksAreEachUnderTheFloorGoesToParity() throws Exception {
    Path p = new Path("/sequential/slow-block");
    cachedFile(p, 31);
    try (FileSystem judge = withMinDeadline("600")) {
      noPrefetchUnderWay();
      hdfs.throttle(1).setBandwidth(SUBBLOCK * 1000L / 350);
      try (FSDataInputStream in = judge.open(p)) {
        readExactly(in, 31, 0, 4 * BLOCK, 4096);
        PoCacheInputStream s = (PoCacheInputStream) in.getWrappedStream();
        Integer decoded = s.decodedPerBlock().get(1L);
        assertTrue("block 1's last subblocks rebuilt: " + s.decodedPerBlock(), decoded != null && decoded >= 2);
      } finally {
        hdfs.throttle(1).reset();
      }
    }
  }

  /**
   * A DataNode this client's own reads keep finding slow (each subblock under the floor, a
   * slow run in every block it serves) while the Manager lists nobody: the verdicts are
   * remembered from one open to the next. After a few reads of the file its block is left
   * to parity from its first byte, not after two slow subblocks each time. (Before, the
   * first subblocks of each block, slow but within the floor, counted as on time and
   * cleared the DataNode's history every read.)
   */
  @Test
  public void aDataNodeSlowInThisClientsOwnReadsLosesItsNextBlocksFromTheirStart() throws Exception {
    Path p = new Path("/sequential/slow-again");
    cachedFile(p, 41);
    int whole = (int) (BLOCK / SUBBLOCK);
    try (FileSystem judge = withMinDeadline("600")) {
      noPrefetchUnderWay();
      hdfs.throttle(1).setBandwidth(SUBBLOCK * 1000L / 350);
      try {
        java.util.List<Integer> decoded = new java.util.ArrayList<>();
        for (int read = 0; read < 6 && (decoded.isEmpty() || decoded.get(decoded.size() - 1) < whole); read++) {
          try (FSDataInputStream in = judge.open(p)) {
            readExactly(in, 41, 0, 4 * BLOCK, 4096);
            decoded.add(((PoCacheInputStream) in.getWrappedStream()).decodedPerBlock().getOrDefault(1L, 0));
          }
        }
        assertTrue("the first read rebuilt block 1's last subblocks: " + decoded, decoded.get(0) >= 2);
        assertEquals("block 1's subblocks rebuilt, read by read: " + decoded, whole,
            (int) decoded.get(decoded.size() - 1));
      } finally {
        hdfs.throttle(1).reset();
      }
    }
  }

  /**
   * A task's new JVM has timed no subblock, so its first deadline (100 ms) is a guess.
   * DataNode 0 serves block 0 steadily at about 160 ms a subblock, slower than the guess
   * but not a straggler: its subblocks are streamed, none rebuilt. (Judged by the guess
   * alone, the first subblock was late at 100 ms, the rebuild from the other DataNodes
   * won, nothing was timed, the second was late too, and block 0 went to parity.)
   */
  @Test
  public void aSteadyDataNodeSlowerThanTheFirstDeadlineIsStreamedByANewClient() throws Exception {
    Path p = new Path("/sequential/steady");
    cachedFile(p, 27);
    hdfs.throttle(0).setBandwidth(SUBBLOCK * 1000L / 160);
    try (FileSystem fresh = FileSystem.newInstance(fs.getUri(), new Configuration(fs.getConf()));
        FSDataInputStream in = fresh.open(p)) {
      readExactly(in, 27, 0, BLOCK, 4096);
      java.util.Map<Long, Integer> decoded = ((PoCacheInputStream) in.getWrappedStream()).decodedPerBlock();
      assertEquals("block 0 streamed: " + decoded, 0, (int) decoded.getOrDefault(0L, 0));
    } finally {
      hdfs.throttle(0).reset();
    }
  }

  /**
   * A new client (a task's JVM, nothing timed yet) whose DataNode takes 200 ms to send the
   * first bytes of a block, past the 100 ms guess, and then serves at full speed streams
   * the block: before any subblock is timed, a subblock without bytes is late only after
   * a second (the cold bar), and one with bytes only if its bytes arrive too slowly. (Before,
   * a subblock with no bytes was late at the guess: subblock 0 was rebuilt from parity,
   * which in a task meant a Redis connect and parity checks for a healthy DataNode.)
   */
  @Test
  public void aDataNodeSlowToStartABlockIsStreamedByANewClient() throws Exception {
    Path p = new Path("/sequential/slow-start");
    cachedFile(p, 29);
    hdfs.throttle(0).setDelayPerRead(200);
    try (FileSystem fresh = FileSystem.newInstance(fs.getUri(), new Configuration(fs.getConf()));
        FSDataInputStream in = fresh.open(p)) {
      readExactly(in, 29, 0, BLOCK, 4096);
      java.util.Map<Long, Integer> decoded = ((PoCacheInputStream) in.getWrappedStream()).decodedPerBlock();
      assertEquals("block 0 streamed: " + decoded, 0, (int) decoded.getOrDefault(0L, 0));
    } finally {
      hdfs.throttle(0).reset();
    }
  }

  /**
   * The straggler list names the wrong DataNode: DataNode 1 is listed but healthy, and
   * DataNode 2, which nobody listed, takes 3 s for every read. Block 1 is left to parity
   * at first sight, and its rebuilds wait on DataNode 2; once a rebuild is late the
   * subblock is streamed as well, the stream wins, and the rest of block 1 is streamed.
   * DataNode 1 read on time no longer counts as slow for this client, so block 2 (on the
   * real straggler) becomes rescuable and is rebuilt. (Before the race, block 1 was
   * rebuilt in full behind the straggler and block 2 streamed at its pace: decoded
   * subblocks {1=4}.)
   */
  @Test
  public void aWronglyListedDataNodeIsStreamedWhenItsRebuildsWaitOnTheRealStraggler() throws Exception {
    Path p = new Path("/sequential/wrong-list");
    cachedFile(p, 25);
    String[] dn = dataNodeAddresses();
    list(dn, dn[1], false); // heartbeats that say DataNode 1 serves at a tenth of the others' rate
    int perBlock = (int) (BLOCK / SUBBLOCK);
    try (FileSystem reader = FileSystem.newInstance(fs.getUri(), fs.getConf())) {
      hdfs.throttle(2).setDelayPerRead(3000);
      try (FSDataInputStream in = reader.open(p)) {
        readExactly(in, 25, 0, 4 * BLOCK, 65536);
        java.util.Map<Long, Integer> decoded = ((PoCacheInputStream) in.getWrappedStream()).decodedPerBlock();
        assertTrue("block 1 (healthy, listed) rebuilt in full: " + decoded,
            decoded.getOrDefault(1L, 0) < perBlock);
        assertTrue("block 2 (the real straggler) not rebuilt: " + decoded, decoded.getOrDefault(2L, 0) >= 1);
      } finally {
        hdfs.throttle(2).reset();
      }
    } finally {
      list(dn, null, false); // off the list again: the other tests share this Manager
    }
  }

  /** The four DataNodes' transfer addresses, as the Manager's list names them; DataNode i holds block i. */
  private static String[] dataNodeAddresses() {
    String[] dn = new String[4];
    for (int i = 0; i < 4; i++) {
      dn[i] = hdfs.dataNode(i).getDatanodeId().getXferAddr();
    }
    return dn;
  }

  /**
   * Heartbeats (and, with {@code byClients}, two clients' read reports) until the Manager lists
   * exactly {@code slow}, on heartbeats and, with {@code byClients}, on client reads too
   * (nothing listed, for null).
   */
  private static void list(String[] dn, String slow, boolean byClients) throws Exception {
    java.util.List<String> want = slow == null ? java.util.Collections.<String>emptyList()
        : java.util.Collections.singletonList(slow);
    GenericTestUtils.waitFor(() -> {
      try {
        java.util.List<ReadReport.Observation> seen = new java.util.ArrayList<>();
        for (int i = 0; i < dn.length; i++) {
          boolean slowOne = dn[i].equals(slow);
          manager.heartbeat(dn[i], slowOne ? 10_000_000L : 100_000_000L + i * 1_000_000L, 1000.0, 100);
          seen.add(new ReadReport.Observation(dn[i], 1 << 20, slowOne && byClients ? 1000.0 : 10.0 + i));
        }
        manager.reportRead(ReadReport.observationsOnly(seen));
        if (byClients) {
          secondReader.reportRead(ReadReport.observationsOnly(seen));
        }
        org.pocache.manager.protocol.PoCacheManagerProtocol.StragglerList l = manager.getStragglers();
        return l.dataNodes.equals(want) && l.byClientReads.equals(byClients ? want
            : java.util.Collections.<String>emptyList());
      } catch (Exception e) {
        return false;
      }
    }, 100, 20_000);
  }

  /**
   * Waits until {@code reader}'s copy of the list shows {@code slow} as the Manager lists it
   * now: listed, and on clients' reads or not. A refresh made while {@link #list} was still
   * confirming the listing shows it on heartbeats alone, and a read started on that copy
   * streams what it should leave to parity until the next refresh.
   */
  private static void awaitListed(PoCacheFileSystem reader, String slow, boolean byClients) throws Exception {
    GenericTestUtils.waitFor(() -> reader.stragglers().contains(slow)
        && reader.stragglersByClientReads().contains(slow) == byClients, 20, 10_000);
  }

  /**
   * A task streams its block from a DataNode nobody has listed yet; halfway through, the
   * Manager lists it on clients' reads (as the reports of the task and of its peers' tasks
   * make it do). The rest of the block is rebuilt from parity instead of streamed from the
   * straggler to the end of the split. (Before, the list was looked at only where a block
   * begins: the task read its whole block at the straggler's pace, 20.9 s for 16 MiB in
   * wordcount.) Listed on its heartbeats alone, the DataNode keeps the block unless the
   * reader has spent most of its time on the block waiting for it and the subblock before
   * did not keep pace by this client's clock (set first by reading the other blocks): under
   * MapReduce load a healthy DataNode's heartbeat now and then looks slow for a few seconds.
   */
  @Test
  public void aDataNodeListedWhileItsBlockIsStreamedLeavesTheRestOfTheBlockToParity() throws Exception {
    Path p = new Path("/sequential/listed-midway");
    cachedFile(p, 31);
    String[] dn = dataNodeAddresses();
    Configuration c = new Configuration(fs.getConf());
    c.set(PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY, "50"); // how often this client refreshes the list
    c.set(PoCacheConfigKeys.READ_DEADLINE_MIN_KEY, "60000"); // nothing is late by this client's own clock
    // {listed on client reads, the reader waits on the DataNode}: taken over midway?
    boolean[][] cases = {{true, false}, {false, false}, {false, true}};
    for (boolean[] k : cases) {
      noPrefetchUnderWay();
      if (k[1]) {
        hdfs.throttle(0).setBandwidth(SUBBLOCK); // a second a subblock: the reader waits on it
      }
      try (PoCacheFileSystem reader = (PoCacheFileSystem) FileSystem.newInstance(fs.getUri(), c);
          FSDataInputStream in = reader.open(p)) {
        try (FSDataInputStream other = reader.open(p)) {
          other.seek(BLOCK); // this client's clock: the other DataNodes' blocks, read on time
          readExactly(other, 31, BLOCK, 3 * BLOCK, 4096);
        }
        readExactly(in, 31, 0, SUBBLOCK, 4096);
        list(dn, dn[0], k[0]);
        awaitListed(reader, dn[0], k[0]);
        readExactly(in, 31, SUBBLOCK, BLOCK - SUBBLOCK, 4096);
        java.util.Map<Long, Integer> decoded = ((PoCacheInputStream) in.getWrappedStream()).decodedPerBlock();
        String what = (k[0] ? "listed on client reads" : "listed on heartbeats")
            + (k[1] ? ", the reader waiting on it" : "") + ": ";
        if (k[0] || k[1]) {
          assertTrue(what + "the rest of block 0 rebuilt: " + decoded, decoded.getOrDefault(0L, 0) >= 1);
        } else {
          assertEquals(what + "block 0 streamed: " + decoded, 0, (int) decoded.getOrDefault(0L, 0));
        }
      } finally {
        hdfs.throttle(0).reset();
        list(dn, null, false);
      }
    }
  }

  /** Reads block 0 of {@code p} through a new stream of {@code reader}: the subblocks of it that were decoded. */
  private static int block0Decoded(FileSystem reader, Path p, long seed) throws IOException {
    try (FSDataInputStream in = reader.open(p)) {
      readExactly(in, seed, 0, BLOCK, 4096);
      return ((PoCacheInputStream) in.getWrappedStream()).decodedPerBlock().getOrDefault(0L, 0);
    }
  }

  /** Bytes each of the first {@code n} DataNodes has served so far (its BytesRead metric). */
  private static long[] dataNodeBytesRead(int n) throws ReflectiveOperationException {
    // The counter itself: its JMX view is cached for seconds.
    java.lang.reflect.Field f = org.apache.hadoop.hdfs.server.datanode.metrics.DataNodeMetrics.class
        .getDeclaredField("bytesRead");
    f.setAccessible(true);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = ((org.apache.hadoop.metrics2.lib.MutableCounterLong) f.get(hdfs.dataNode(i).getMetrics())).value();
    }
    return out;
  }

  /**
   * A whole-file reader of a file whose last block is on a listed straggler: that block is
   * rebuilt from the same subblocks of the blocks before it, which the caller has read
   * already. The rebuilds take copies of the caller's reads (KeptBehind); the DataNodes of
   * those blocks serve them once, not once to the caller and again to each rebuild. The
   * same with reads into a direct ByteBuffer, whose bytes are copied from the buffer.
   */
  @Test
  public void rebuildsOfALaterBlockTakeWhatTheCallerReadFromMemory() throws Exception {
    Path p = new Path("/sequential/kept-behind");
    cachedFile(p, 37);
    String[] dn = dataNodeAddresses();
    Configuration c = new Configuration(fs.getConf());
    c.set(PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY, "50"); // how often this client refreshes the list
    list(dn, dn[3], true);
    try {
      for (boolean direct : new boolean[] {false, true}) {
        noPrefetchUnderWay();
        readOnceEach(p, c, dn, direct);
      }
    } finally {
      list(dn, null, false);
    }
  }

  private static void readOnceEach(Path p, Configuration c, String[] dn, boolean direct) throws Exception {
    String how = direct ? "direct ByteBuffer reads: " : "byte[] reads: ";
    try (PoCacheFileSystem reader = (PoCacheFileSystem) FileSystem.newInstance(fs.getUri(), c)) {
      java.util.Map<Long, Integer> decoded;
      long handed;
      long[] before;
      try (FSDataInputStream in = reader.open(p)) {
        GenericTestUtils.waitFor(() -> reader.stragglers().contains(dn[3]), 20, 10_000);
        before = dataNodeBytesRead(2);
        if (direct) {
          // 4 KiB reads into a 64 KiB buffer drained when full: most reads start mid-buffer.
          java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocateDirect(64 << 10);
          byte[] all = new byte[(int) (4 * BLOCK)];
          int off = 0;
          while (off < all.length) {
            buf.limit(Math.min(buf.capacity(), buf.position() + 4096));
            int n = in.read(buf);
            if (n > 0 && buf.position() < buf.capacity()) {
              continue;
            }
            buf.flip();
            int got = buf.remaining();
            buf.get(all, off, got);
            buf.clear();
            off += got;
            if (n <= 0) {
              break;
            }
          }
          assertEquals(how + "bytes read", all.length, off);
          assertEquals(how + "first wrong byte", -1, DataPattern.firstMismatch(37, 0, all, 0, all.length));
        } else {
          readExactly(in, 37, 0, 4 * BLOCK, 4096);
        }
        decoded = ((PoCacheInputStream) in.getWrappedStream()).decodedPerBlock();
        handed = ((PoCacheInputStream) in.getWrappedStream()).outcome().handedInputBytes;
      }
      // Blocks 0 and 1, read by the caller before block 3's rebuilds, go to them without a copy.
      assertTrue(how + "bytes the caller read handed to the rebuilds: " + handed, handed >= BLOCK);
      long[] after = dataNodeBytesRead(2);
      assertEquals(how + "block 3 rebuilt whole: " + decoded, (int) (BLOCK / SUBBLOCK),
          (int) decoded.getOrDefault(3L, 0));
      // Blocks 0 and 1 only: block 2 may be fetched ahead as well (a whole-block fetch the
      // caller catches up with stops, but its DataNode has sent more by then).
      for (int i = 0; i < 2; i++) {
        long served = after[i] - before[i];
        assertTrue(how + "DataNode " + i + " served its block once, not again to the rebuilds: " + served + " bytes",
            served >= BLOCK && served < BLOCK + BLOCK / 2);
      }
    }
  }

  /**
   * A DataNode the Manager lists on its heartbeats alone while this client reads it at its
   * peers' pace (a DataNode's heartbeat rate includes waiting for its readers, and under
   * load a healthy one's now and then looks slow for a few seconds): once this client has
   * timed subblocks, the listing does not take the DataNode's blocks from their start;
   * its opens stream block 0 and rebuild nothing. The same DataNode slow for this client
   * (two subblocks a second) still gives up the rest of its block.
   */
  @Test
  public void aDataNodeListedOnHeartbeatsAloneKeepsItsBlocksWhileItKeepsPace() throws Exception {
    Path p = new Path("/sequential/listed-healthy");
    cachedFile(p, 37);
    String[] dn = dataNodeAddresses();
    Configuration c = new Configuration(fs.getConf());
    c.set(PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY, "50"); // how often this client refreshes the list
    noPrefetchUnderWay();
    try (PoCacheFileSystem reader = (PoCacheFileSystem) FileSystem.newInstance(fs.getUri(), c)) {
      try (FSDataInputStream in = reader.open(p)) {
        in.seek(BLOCK); // this client's clock: the other DataNodes' blocks, read on time
        readExactly(in, 37, BLOCK, 3 * BLOCK, 4096);
      }
      list(dn, dn[0], false);
      awaitListed(reader, dn[0], false);
      java.util.List<Integer> decoded = new java.util.ArrayList<>();
      for (int i = 0; i < 3; i++) {
        decoded.add(block0Decoded(reader, p, 37));
      }
      assertTrue("the listing lasted", reader.stragglers().contains(dn[0]));
      // One open may meet a pause of this JVM (its DataNodes share it) in a subblock; a block
      // left to parity from its start decodes every subblock of every open until a probe.
      assertTrue("block 0 streamed by at least two of three opens (subblocks decoded per open: " + decoded + ")",
          java.util.Collections.frequency(decoded, 0) >= 2);
      hdfs.throttle(0).setBandwidth(2 * SUBBLOCK);
      int n = block0Decoded(reader, p, 37);
      assertTrue("slow for this client: the rest of block 0 rebuilt: " + n, n >= 2);
    } finally {
      hdfs.throttle(0).reset();
      list(dn, null, false);
    }
  }

  /**
   * The same in new clients, as a wave of tasks opens its splits: no subblock timed yet, a
   * DataNode listed on its heartbeats alone keeps the block while its subblocks, the call
   * that opened the block aside, arrive within the minimum deadline. (Before, a new client
   * left such a DataNode's whole block to parity from its start: under a wave of new tasks
   * on busy cores, healthy DataNodes are listed on their heartbeats in turn.) A DataNode
   * that is slow for this client gives up its block from where it fell behind, in the
   * block's first subblock.
   */
  @Test
  public void aDataNodeListedOnHeartbeatsAloneKeepsItsBlockInANewClient() throws Exception {
    Path p = new Path("/sequential/listed-healthy-new-client");
    cachedFile(p, 41);
    String[] dn = dataNodeAddresses();
    noPrefetchUnderWay();
    try {
      list(dn, dn[0], false);
      java.util.List<Integer> decoded = new java.util.ArrayList<>();
      for (int i = 0; i < 3; i++) {
        try (PoCacheFileSystem reader = (PoCacheFileSystem) FileSystem.newInstance(fs.getUri(), fs.getConf())) {
          decoded.add(block0Decoded(reader, p, 41));
          assertTrue("listed while the client read", reader.stragglers().contains(dn[0]));
        }
      }
      assertTrue("block 0 streamed by at least two of three new clients (subblocks decoded per client: "
          + decoded + ")", java.util.Collections.frequency(decoded, 0) >= 2);
      hdfs.throttle(0).setBandwidth(2 * SUBBLOCK);
      try (PoCacheFileSystem reader = (PoCacheFileSystem) FileSystem.newInstance(fs.getUri(), fs.getConf())) {
        int n = block0Decoded(reader, p, 41);
        assertEquals("slow for this new client: all of block 0 rebuilt, its first subblock from where the"
            + " DataNode fell behind", (int) (BLOCK / SUBBLOCK), n);
      }
    } finally {
      hdfs.throttle(0).reset();
      list(dn, null, false);
    }
  }

  /**
   * A whole-file reader does not fetch ahead a block whose DataNode is listed on its
   * heartbeats alone: a fetch would read all of it at the DataNode's pace, where the
   * caller, reading the block itself when it gets there, judges it by its first subblock.
   * Here the caller waits on block 1's DataNode (2 MiB/s; the deadline is raised so that
   * nothing is judged late), which starts the fetches of the blocks after it: block 3's,
   * and not block 2's, whose DataNode is listed.
   */
  @Test
  public void aBlockOnADataNodeListedOnHeartbeatsAloneIsNotFetchedAhead() throws Exception {
    Path p = new Path("/sequential/listed-not-fetched");
    cachedFile(p, 43);
    String[] dn = dataNodeAddresses();
    Configuration patient = new Configuration(fs.getConf());
    patient.set(PoCacheConfigKeys.READ_DEADLINE_MIN_KEY, "60000");
    noPrefetchUnderWay();
    hdfs.throttle(1).setBandwidth(2L << 20);
    try {
      list(dn, dn[2], false);
      try (PoCacheFileSystem reader = (PoCacheFileSystem) FileSystem.newInstance(fs.getUri(), patient);
          FSDataInputStream in = reader.open(p)) {
        readExactly(in, 43, 0, 4 * BLOCK, 4096);
        PoCacheInputStream s = (PoCacheInputStream) in.getWrappedStream();
        assertTrue("block 3 fetched ahead, block 2 not: " + s.prefetchedBytes(),
            s.prefetchedBytes() >= BLOCK / 2 && s.prefetchedBytes() <= BLOCK + SUBBLOCK);
      }
    } finally {
      hdfs.throttle(1).reset();
      list(dn, null, false);
    }
  }

  /**
   * A stream still open reports what it has read so far with the client's next look at
   * the straggler list, not only when it closes: a task streaming a straggler's block
   * closes its stream when its split is read, and the Manager judges the straggler
   * against what the tasks reading its peers report at the same time.
   */
  @Test
  public void anOpenStreamReportsItsReadsSoFar() throws Exception {
    Path p = new Path("/sequential/report-so-far");
    cachedFile(p, 33);
    Configuration c = new Configuration(fs.getConf());
    c.set(PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY, "50");
    noPrefetchUnderWay();
    try (PoCacheFileSystem reader = (PoCacheFileSystem) FileSystem.newInstance(fs.getUri(), c);
        FSDataInputStream in = reader.open(p)) {
      long before = manager.getReport().getClientObservations();
      readExactly(in, 33, 0, BLOCK, 4096); // DataNode 0's block: a sample's worth (1 MiB)
      GenericTestUtils.waitFor(() -> {
        try {
          reader.stragglers(); // what a read does at each subblock: refreshes the list, reports
          return manager.getReport().getClientObservations() > before;
        } catch (IOException e) {
          return false;
        }
      }, 20, 10_000);
    }
  }

  /**
   * With nothing slow, sequential reads are HDFS's own stream's, on the caller's thread:
   * no read-ahead thread, no copies, every subblock timed and reported. (The deadline is
   * raised so that a pause of this JVM cannot make a subblock late.)
   */
  @Test
  public void withNothingSlowReadsAreHdfsStreamsOwn() throws Exception {
    Path p = new Path("/sequential/direct");
    cachedFile(p, 26);
    Configuration c = new Configuration(fs.getConf());
    c.set(PoCacheConfigKeys.READ_DEADLINE_MIN_KEY, "60000");
    try (FileSystem patient = FileSystem.newInstance(fs.getUri(), c);
        FSDataInputStream in = patient.open(p)) {
      readExactly(in, 26, 0, 4 * BLOCK, 4096);
      PoCacheInputStream s = (PoCacheInputStream) in.getWrappedStream();
      assertTrue("still reading HDFS's stream", s.readsDirectly());
      assertEquals("bytes read ahead", 0, s.streamedBytes());
      ProactiveReader.Outcome o = s.outcome().snapshot();
      assertEquals("subblocks timed and reported", 4 * BLOCK / SUBBLOCK, o.substripes);
      assertEquals(0, o.decoded);
    }
  }

  /**
   * A task reads its split (one block) and a little past its end, to finish its last
   * record. With nothing slow its reads are HDFS's stream's and nothing is read ahead;
   * while the read-ahead serves (here after the block's DataNode stalled past the
   * deadline, until the caller takes its reads back), it takes the next block's first
   * chunk, not a window of it, so the task costs the next block's DataNode (and the task
   * that reads that block) nothing more than HDFS's own stream would.
   */
  @Test
  public void aSplitReaderDoesNotStreamTheNextBlock() throws Exception {
    Path p = new Path("/sequential/split");
    cachedFile(p, 24);
    try (FSDataInputStream in = fs.open(p)) {
      in.seek(BLOCK);
      readExactly(in, 24, BLOCK, BLOCK + 65536, 4096);
      PoCacheInputStream s = (PoCacheInputStream) in.getWrappedStream();
      if (s.readsDirectly()) {
        assertEquals("bytes read ahead while reading HDFS's stream", 0, s.streamedBytes());
      }
    }
    try (FileSystem judge = withMinDeadline("600")) {
      ((PoCacheFileSystem) judge).rebuiltOneForTests();
      try (FSDataInputStream in = judge.open(p)) {
        readExactly(in, 24, 0, BLOCK, 4096); // subblocks timed: the deadline is 600 ms, not a new JVM's second
      }
      noPrefetchUnderWay();
      hdfs.throttle(1).stallNextRead(900);
      try (FSDataInputStream in = judge.open(p)) {
        in.seek(BLOCK);
        readExactly(in, 24, BLOCK, BLOCK + 65536, 4096);
        PoCacheInputStream s = (PoCacheInputStream) in.getWrappedStream();
        assertEquals("the stalled subblock handed the reads to the read-ahead, and it gave them back", 1,
            s.handedBack());
        // A streamer that ran on would not wait here until it reached the block's end.
        GenericTestUtils.waitFor(s::streamerWaiting, 10, 10_000);
        long streamed = s.streamedBytes();
        // At most a chunk (128 KiB) past the caller, and one read of up to a chunk beyond that.
        assertTrue("streamed " + streamed + " bytes for a block and 64 KiB", streamed <= BLOCK + (64 << 10)
            + (256 << 10));
      } finally {
        hdfs.throttle(1).reset();
      }
    }
  }

  /**
   * A caller that reads a file front to back past one block (hdfs dfs -cat) gets the
   * blocks after its own fetched ahead in parallel and read from memory: the bytes are the
   * file's, they count once in the caller's statistics, and the fetches read the later
   * blocks not left to parity (here block 3, fetched while the caller reads block 1, whose
   * DataNode sends 2 MiB/s; the deadline is raised so that block 1 is not judged late),
   * while some DataNode is suspect (here block 2's, listed on clients' reads). Block 2's
   * rebuilds take block 3's pieces from the fetch rather than read them again (and blocks 0
   * and 1's from copies of the caller's reads). With none
   * suspect, the caller's reads are HDFS's stream's alone, and nothing is fetched; with the
   * key at 0 nothing is fetched either.
   */
  @Test
  public void aWholeFileReaderGetsTheNextBlocksFetchedAhead() throws Exception {
    Path p = new Path("/sequential/prefetch");
    cachedFile(p, 28);
    Configuration patient = new Configuration(fs.getConf());
    patient.set(PoCacheConfigKeys.READ_DEADLINE_MIN_KEY, "60000");
    patient.set(PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY, "50"); // how often this client refreshes the list
    try (FileSystem calm = FileSystem.newInstance(fs.getUri(), patient);
        FSDataInputStream in = calm.open(p)) {
      readExactly(in, 28, 0, 4 * BLOCK, 4096);
      assertEquals("nothing suspect: nothing fetched ahead", 0,
          ((PoCacheInputStream) in.getWrappedStream()).prefetchedBytes());
    }
    String[] dn = dataNodeAddresses();
    long[] fetched = {0};
    long[] held = {0};
    hdfs.throttle(1).setBandwidth(2L << 20);
    try (PoCacheFileSystem reader = (PoCacheFileSystem) FileSystem.newInstance(fs.getUri(), patient)) {
      reader.open(p).close(); // the reader's Manager client, which keeps the list
      list(dn, dn[2], true);
      awaitListed(reader, dn[2], true);
      long counted = threadBytesRead(reader, () -> {
        try (FSDataInputStream in = reader.open(p)) {
          readExactly(in, 28, 0, 4 * BLOCK, 4096);
          PoCacheInputStream s = (PoCacheInputStream) in.getWrappedStream();
          fetched[0] = s.prefetchedBytes();
          held[0] = s.outcome().snapshot().heldInputBytes;
          assertEquals("subblocks read", 4 * BLOCK / SUBBLOCK, s.outcome().snapshot().substripes);
        }
        return null;
      });
      assertEquals("bytes counted in the caller's statistics", 4 * BLOCK, counted);
    } finally {
      hdfs.throttle(1).reset();
      list(dn, null, false); // off the list again: the other tests share this Manager
    }
    assertTrue("fetched ahead: " + fetched[0], fetched[0] >= BLOCK && fetched[0] <= 2 * BLOCK);
    // Blocks 0 and 1 from the caller's own reads (kept behind), block 3's from the fetch.
    assertTrue("rebuild inputs taken from memory: " + held[0], held[0] >= 2 * BLOCK + SUBBLOCK && held[0] <= 3 * BLOCK);
    Configuration c = new Configuration(fs.getConf());
    c.set(PoCacheConfigKeys.READ_PREFETCH_KEY, "0");
    try (FileSystem none = FileSystem.newInstance(fs.getUri(), c);
        FSDataInputStream in = none.open(p)) {
      readExactly(in, 28, 0, 4 * BLOCK, 4096);
      assertEquals(0, ((PoCacheInputStream) in.getWrappedStream()).prefetchedBytes());
    }
  }

  /**
   * A sequential read of a cached file asks the NameNode for the file's blocks once, as
   * HDFS's own read does: its fail-fast stream (the caller's direct reads) starts from the
   * blocks the file system's stream was given at the open, and asks the NameNode nothing.
   */
  @Test
  public void aSequentialReadsFailFastStreamStartsFromTheBlocksItWasGiven() throws Exception {
    Path p = new Path("/sequential/locations");
    cachedFile(p, 29);
    try (PoCacheFileSystem own = (PoCacheFileSystem) FileSystem.newInstance(fs.getUri(), fs.getConf())) {
      try (FSDataInputStream in = own.open(p)) {
        readExactly(in, 29, 0, 4 * BLOCK, 64 << 10);
        assertNotNull("the direct reads' own stream", ((PoCacheInputStream) in.getWrappedStream())
            .separateDirectStream());
      }
      assertEquals("the fail-fast client's getBlockLocations calls", 0, own.failFastLocationCalls());
    }
  }

  /** A split reader (its block and a little past it) fetches nothing ahead. */
  @Test
  public void aSplitReaderFetchesNothingAhead() throws Exception {
    Path p = new Path("/sequential/split-prefetch");
    cachedFile(p, 30);
    try (FSDataInputStream in = fs.open(p)) {
      readExactly(in, 30, 0, BLOCK + 100_000, 4096);
      in.seek(BLOCK);
      readExactly(in, 30, BLOCK, BLOCK + 100_000, 4096);
      assertEquals(0, ((PoCacheInputStream) in.getWrappedStream()).prefetchedBytes());
    }
  }

  /** An empty file cached on write opens and reads as HDFS's (a terasort partition file with one reducer). */
  @Test
  public void anEmptyCachedFileReadsLikeHdfs() throws Exception {
    Path p = new Path("/sequential/empty");
    fs.create(p).close();
    try (FSDataInputStream in = fs.open(p)) {
      assertEquals(-1, in.read());
      assertEquals(-1, in.read(new byte[10], 0, 10));
      assertEquals(0, in.getPos());
    }
  }
}
