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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
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
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * Proactive reads through PoCacheFileSystem: a 4-block file, block i on DataNode i,
 * parity filled by the Manager's fill worker. With DataNode 2 stalling every read,
 * a whole-file positional read decodes its piece from parity and returns the
 * file's true bytes; a corrupted parity value is detected and the read waits for
 * the data instead; an uncached file is read exactly like vanilla HDFS.
 */
public class TestProactiveReads {
  private static final long BLOCK = 1 << 20;
  private static final int SUBBLOCK = 256 << 10;
  private static PoCacheMiniCluster cluster;
  private static RedisServerFixture redis;
  private static MiniHdfs hdfs;
  private static ManagerClient manager;
  private static FileSystem fs;

  @BeforeClass
  public static void start() throws Exception {
    cluster = PoCacheMiniCluster.builder().dataNodes(4)
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(SUBBLOCK))
        .set(PoCacheConfigKeys.CSAC_ADMISSION_KEY, "cache-upon-access")
        // The proactive reader itself, also while nothing is suspect (lazy reads: aLazyRead...).
        .set(PoCacheConfigKeys.READ_PROACTIVE_KEY, "suspected")
        .start();
    redis = cluster.redis;
    hdfs = cluster.hdfs;
    manager = cluster.manager();
    fs = cluster.client();
  }

  @AfterClass
  public static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Writes block i on DataNode i and has the Manager fill its parity. */
  /** A FileSystem of its own whose positional reads are lazy, with a deadline never under {@code ms} milliseconds. */
  private static FileSystem lazyReader(String ms) throws java.io.IOException {
    Configuration c = new Configuration(fs.getConf());
    c.set(PoCacheConfigKeys.READ_PROACTIVE_KEY, "lazy");
    c.set(PoCacheConfigKeys.READ_DEADLINE_MIN_KEY, ms);
    return FileSystem.newInstance(hdfs.fs().getUri(), c);
  }

  private static ParityDescriptor cachedFile(Path p, long seed) throws Exception {
    return cluster.cachedPinnedFile(p, BLOCK, 4, seed);
  }

  /** Flips payload bytes of every parity value of the file behind the store's back. */
  private static void corruptEveryParityValue(ParityDescriptor d) throws Exception {
    for (int j = 0; j < BLOCK / SUBBLOCK; j++) {
      String key = "pocache:{" + d.getFileId() + "}:" + d.getGeneration() + ":0:" + j + ":0";
      redis.client().call("SETRANGE", key, "200", "garbage!");
    }
  }

  private static ProactiveReader.Outcome readWhole(Path p, long seed) throws Exception {
    return readWhole(fs, p, seed);
  }

  /** Reads the four-block file whole with one positional read, checks its bytes; the reader's outcome. */
  static ProactiveReader.Outcome readWhole(FileSystem fs, Path p, long seed) throws Exception {
    byte[] buf = new byte[(int) (4 * BLOCK)];
    try (FSDataInputStream in = fs.open(p)) {
      assertTrue("not a POCache stream", in.getWrappedStream() instanceof PoCacheInputStream);
      in.readFully(0, buf);
      assertEquals("first wrong byte", -1, DataPattern.firstMismatch(seed, 0, buf, 0, buf.length));
      return ((PoCacheInputStream) in.getWrappedStream()).outcome().snapshot();
    }
  }

  /**
   * dfs.pocache.read.proactive lazy (the default): with nothing suspect a whole-file
   * positional read is HDFS's own, on the caller's thread, and the proactive reader
   * fetches nothing; a DataNode that turns slow has its block's read stopped at the
   * deadline, and the rest of the read is proactive: the slow piece comes from parity.
   */
  @Test
  public void aLazyReadIsHdfsOwnUntilABlockIsLate() throws Exception {
    Path p = new Path("/proactive/lazy");
    cachedFile(p, 19);
    try (FileSystem lazy = lazyReader("100")) {
      ProactiveReader.Outcome calm = readWhole(lazy, p, 19);
      assertEquals("substripes read", 4, calm.substripes);
      assertEquals("of them by HDFS's own read", 4, calm.lazy);
      assertEquals("parity GETs", 0, calm.parityFetches);
      hdfs.throttle(2).setBandwidth(1 << 20); // its 1 MiB block takes a second
      long t0 = System.nanoTime();
      ProactiveReader.Outcome slow = readWhole(lazy, p, 19);
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertTrue("block 2's rest decoded from parity: " + slow.decoded, slow.decoded >= 1);
      assertTrue("read proactively after block 2 was late: " + slow.lazy, slow.lazy < 4);
      assertTrue("the read waited for the slow block: " + ms + " ms", ms < 900);
    } finally {
      hdfs.throttle(2).reset();
    }
  }

  /**
   * Lazy positional reads are HDFS's own while the client's CPU sets the pace; when the
   * DataNodes do (every one of them slow here: 4 MiB/s, a 256 KiB subblock in about 60 ms),
   * a read of several blocks reads them at once, proactively, as stock HDFS cannot.
   */
  @Test
  public void aReadOfSeveralBlocksFromSlowDataNodesReadsThemAtOnce() throws Exception {
    Path p = new Path("/proactive/parallel");
    cachedFile(p, 23);
    for (int i = 0; i < 4; i++) {
      hdfs.throttle(i).setBandwidth(4 << 20);
    }
    try (FileSystem lazy = lazyReader("5000")) {
      ProactiveReader.Outcome first = readWhole(lazy, p, 23);
      assertEquals("the first read, nothing timed yet, is HDFS's own", 4, first.lazy);
      ProactiveReader.Outcome next = readWhole(lazy, p, 23);
      assertEquals("substripes read", 4, next.substripes);
      assertEquals("read at once, not block after block", 0, next.lazy);
      assertEquals("nothing decoded: no DataNode lagged its peers", 0, next.decoded);
    } finally {
      for (int i = 0; i < 4; i++) {
        hdfs.throttle(i).reset();
      }
    }
  }

  @Test
  public void parallelReadsPayOnlyForSeveralBlocksFromSlowDataNodes() {
    SubblockTimes times = new SubblockTimes();
    int sub = 1 << 20;
    long block = 16L << 20;
    assertFalse("nothing timed", LazyPreads.parallelPays(0, 64 << 20, block, sub, times));
    times.learn(1_300_000); // 1 MiB in 1.3 ms: the page cache, the client's CPU decides
    assertFalse(LazyPreads.parallelPays(0, 64 << 20, block, sub, times));
    for (int i = 0; i < 20; i++) {
      times.learn(8_000_000); // 128 MiB/s
    }
    assertTrue(LazyPreads.parallelPays(0, 64 << 20, block, sub, times));
    assertTrue("two blocks", LazyPreads.parallelPays(block - 1, 2, block, sub, times));
    assertFalse("one block", LazyPreads.parallelPays(block, 4 << 20, block, sub, times));
  }

  @Test
  public void aStalledDataNodeIsMaskedByParity() throws Exception {
    Path p = new Path("/proactive/masked");
    cachedFile(p, 11);
    // A FileSystem of its own: no history or backlog of earlier tests' stalls skips a piece.
    FileSystem fs = FileSystem.newInstance(hdfs.fs().getUri(), TestProactiveReads.fs.getConf());
    long observations = manager.getReport().getClientObservations();
    ProactiveReader.Outcome healthy = readWhole(fs, p, 11);
    assertEquals(4, healthy.substripes); // 1 MiB blocks / 256 KiB subblocks
    // The read report carries how long each DataNode took for its 1 MiB. On a busy
    // machine parity can beat a healthy DataNode to a piece; that DataNode's read is
    // still running when the report leaves, so its 1 MiB goes with a later report.
    long expected = observations + 4 - Math.min(4, healthy.decoded);
    GenericTestUtils.waitFor(() -> {
      try {
        return manager.getReport().getClientObservations() >= expected;
      } catch (Exception e) {
        return false;
      }
    }, 50, 10_000);
    long before = manager.getReport().getStragglerHits();
    hdfs.throttle(2).setDelayPerRead(3000);
    try {
      ProactiveReader.Outcome masked = readWhole(fs, p, 11);
      assertEquals(4, masked.substripes);
      assertEquals("every substripe's piece on the stalled DataNode decoded", 4, masked.decoded);
      assertFalse(masked.parityCorrupt || masked.parityMissing || masked.cacheError);
    } finally {
      hdfs.throttle(2).reset();
    }
    // The read report reaches the Manager.
    GenericTestUtils.waitFor(() -> {
      try {
        return manager.getReport().getStragglerHits() > before;
      } catch (Exception e) {
        return false;
      }
    }, 50, 10_000);
    fs.close();
  }

  /**
   * With no DataNode suspected of being slow, a read asks for the parity only if a
   * piece lags behind its peers; with dfs.pocache.read.proactive = always, every read
   * asks for it with the data.
   */
  @Test
  public void aReadWithNothingSuspectAsksForParityOnlyWhenAPieceLags() throws Exception {
    Path p = new Path("/proactive/lazy");
    cachedFile(p, 19);
    // Nothing suspect: a DataNode an earlier test's straggler left on the Manager's list
    // would have every read ask for the parity at once, as it should.
    GenericTestUtils.waitFor(() -> {
      try {
        return manager.getStragglers().dataNodes.isEmpty();
      } catch (java.io.IOException e) {
        return false;
      }
    }, 100, 120_000);
    int reads = 5;
    int withoutParity = 0;
    try (FileSystem own = FileSystem.newInstance(hdfs.fs().getUri(), fs.getConf())) {
      for (int r = 0; r < reads; r++) {
        ProactiveReader.Outcome o = readWhole(own, p, 19);
        withoutParity += o.parityFetches == 0 ? 1 : 0; // a busy machine can make a healthy piece lag
      }
    }
    assertTrue(withoutParity + " of " + reads + " healthy reads left the parity in Redis", withoutParity > 0);
    Configuration always = new Configuration(fs.getConf());
    always.set(PoCacheConfigKeys.READ_PROACTIVE_KEY, "always");
    try (FileSystem own = FileSystem.newInstance(hdfs.fs().getUri(), always)) {
      for (int r = 0; r < reads; r++) {
        assertEquals("one GET per run of substripes", 1, readWhole(own, p, 19).parityFetches);
      }
    }
  }

  @Test
  public void corruptParityIsNeverServed() throws Exception {
    Path p = new Path("/proactive/corrupt");
    ParityDescriptor d = cachedFile(p, 12);
    corruptEveryParityValue(d);
    hdfs.throttle(1).setDelayPerRead(500); // make parity the faster source, if it were trusted
    try {
      ProactiveReader.Outcome o = readWhole(p, 12);
      assertTrue(o.parityCorrupt);
      assertEquals(0, o.decoded);
    } finally {
      hdfs.throttle(1).reset();
    }
    // The Manager drops the file's parity on the report.
    GenericTestUtils.waitFor(() -> {
      try {
        ParityDescriptor now = manager.getDescriptor(p.toString()).getParity();
        return now == null || now.getGeneration() != d.getGeneration();
      } catch (Exception e) {
        return false;
      }
    }, 50, 10_000);
  }

  /**
   * A direct read passes its bytes on to the caller's buffer as they come, not all at its
   * end: with the parity unusable (corrupt) the read waits for a slow DataNode's piece
   * (4 s for its 1 MiB), and that piece's first bytes are in the caller's buffer seconds
   * before the read ends (all at once when it ends, without streaming).
   */
  @Test
  public void aDirectReadPassesItsBytesOnAsTheyCome() throws Exception {
    Path p = new Path("/proactive/streamed");
    ParityDescriptor d = cachedFile(p, 23);
    corruptEveryParityValue(d);
    byte[] buf = new byte[(int) (4 * BLOCK)];
    AtomicBoolean done = new AtomicBoolean();
    java.util.concurrent.atomic.AtomicLong endedAt = new java.util.concurrent.atomic.AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    hdfs.throttle(3).setBandwidth(256 << 10); // its 1 MiB piece takes about 4 s
    try (FileSystem own = FileSystem.newInstance(hdfs.fs().getUri(), fs.getConf())) {
      Thread reader = new Thread(() -> {
        try (FSDataInputStream in = own.open(p)) {
          in.readFully(0, buf);
          endedAt.set(System.nanoTime());
        } catch (Throwable t) {
          failure.set(t);
        } finally {
          done.set(true);
        }
      });
      reader.start();
      int firstBytes = DirectBlockReads.STREAM_BYTES;
      GenericTestUtils.waitFor(() -> done.get()
          || DataPattern.firstMismatch(23, 3 * BLOCK, buf, (int) (3 * BLOCK), firstBytes) < 0, 10, 30_000);
      long seenAt = System.nanoTime();
      reader.join(60_000);
      assertTrue(done.get());
      if (failure.get() != null) {
        throw new AssertionError("the read failed", failure.get());
      }
      long before = (endedAt.get() - seenAt) / 1_000_000;
      assertTrue("the slow piece's first " + firstBytes + " bytes were in the caller's buffer only " + before
          + " ms before the read ended", before >= 1000);
      assertEquals("first wrong byte", -1, DataPattern.firstMismatch(23, 0, buf, 0, buf.length));
    } finally {
      hdfs.throttle(3).reset();
    }
  }

  /**
   * A stalled DataNode's piece is rebuilt row by row as the other pieces' rows arrive,
   * not all at once after the last of them: with the other DataNodes at 2 MiB/s (their
   * 1 MiB pieces take half a second, a row every 125 ms), every row of the stalled piece
   * is decoded ahead, and the bytes are the file's.
   */
  @Test
  public void aStalledPieceIsDecodedRowByRowAsTheOthersArrive() throws Exception {
    Path p = new Path("/proactive/ahead");
    cachedFile(p, 29);
    try (FileSystem own = FileSystem.newInstance(hdfs.fs().getUri(), fs.getConf())) {
      hdfs.throttle(1).setDelayPerRead(3000);
      for (int i : new int[] {0, 2, 3}) {
        hdfs.throttle(i).setBandwidth(2 << 20);
      }
      ProactiveReader.Outcome o = readWhole(own, p, 29);
      assertEquals("the stalled piece's 4 substripes decoded", 4, o.decoded);
      assertEquals("decoded ahead, while the other pieces were on their way", 4, o.decodedAhead);
    } finally {
      for (int i = 0; i < 4; i++) {
        hdfs.throttle(i).reset();
      }
    }
  }

  @Test
  public void sequentialReadsRebuildTheLateDataNodesPieces() throws Exception {
    Path p = new Path("/proactive/sequential");
    cachedFile(p, 14);
    hdfs.throttle(2).setDelayPerRead(3000);
    try (FSDataInputStream in = fs.open(p)) {
      byte[] buf = new byte[(int) (4 * BLOCK)];
      int off = 0;
      for (int n; off < buf.length && (n = in.read(buf, off, Math.min(100_000, buf.length - off))) > 0; ) {
        off += n;
        assertEquals(off, in.getPos());
      }
      assertEquals(buf.length, off);
      assertEquals(-1, in.read());
      assertEquals(-1, DataPattern.firstMismatch(14, 0, buf, 0, buf.length));
      ProactiveReader.Outcome o = ((PoCacheInputStream) in.getWrappedStream()).outcome().snapshot();
      assertEquals("block 2's four subblocks rebuilt instead of awaited", 4, o.decoded);
    } finally {
      hdfs.throttle(2).reset();
    }
  }

  /**
   * A DataNode whose abandoned reads end far later than their peers' is skipped (its
   * bandwidth not spent on bytes parity replaces); once it recovers, a probe finds it
   * on time and it is read again. A second reader, a FileSystem made for another user,
   * reads the file too: the Manager lists a DataNode on client reads only when two
   * clients find it slow (this cluster runs no DataNode plugin, so no heartbeats bear one
   * client out).
   */
  @Test
  public void aPersistentStragglerIsSkippedUntilAProbeFindsItRecovered() throws Exception {
    Path p = new Path("/proactive/skip");
    cachedFile(p, 17);
    try (PoCacheFileSystem own = (PoCacheFileSystem) FileSystem.newInstance(hdfs.fs().getUri(), fs.getConf());
         PoCacheFileSystem second = org.apache.hadoop.security.UserGroupInformation.createRemoteUser("second-reader")
             .doAs((java.security.PrivilegedExceptionAction<PoCacheFileSystem>) () ->
                 (PoCacheFileSystem) FileSystem.newInstance(hdfs.fs().getUri(), fs.getConf()))) {
      byte[] buf = new byte[(int) (4 * BLOCK)];
      hdfs.throttle(2).setDelayPerRead(800);
      try {
        long deadline = System.currentTimeMillis() + 45_000;
        while (own.skippedPieces() == 0) {
          assertTrue("DataNode 2 never skipped", System.currentTimeMillis() < deadline);
          for (PoCacheFileSystem reader : java.util.Arrays.asList(own, second)) {
            try (FSDataInputStream in = reader.open(p)) {
              in.readFully(0, buf);
            }
            assertEquals(-1, DataPattern.firstMismatch(17, 0, buf, 0, buf.length));
          }
          // Abandoned reads end, judged late.
          GenericTestUtils.waitFor(() -> own.readThreadsBusy() == 0 && second.readThreadsBusy() == 0, 10, 10_000);
        }
      } finally {
        hdfs.throttle(2).reset();
      }
      // Recovered: within a probe interval a read of DataNode 2 is on time, and skipping stops.
      long deadline = System.currentTimeMillis() + 30_000;
      int quiet = 0;
      while (quiet < 3) {
        assertTrue("DataNode 2 still skipped after it recovered", System.currentTimeMillis() < deadline);
        long before = own.skippedPieces();
        try (FSDataInputStream in = own.open(p)) {
          in.readFully(0, buf);
        }
        assertEquals(-1, DataPattern.firstMismatch(17, 0, buf, 0, buf.length));
        quiet = own.skippedPieces() == before ? quiet + 1 : 0;
      }
    }
  }

  /**
   * A DataNode that takes 10 s per read, under 4 readers making 8 whole-file reads
   * each: every read is answered from parity, and the reads sent to that DataNode stay
   * bounded (a backlog of {@link SlowSources#MAX_BACKLOG} abandoned reads stops more)
   * instead of one per read piling up in the read pool until it runs dry.
   */
  @Test
  public void aDataNodeThatDoesNotAnswerGetsABoundedBacklog() throws Exception {
    Path p = new Path("/proactive/backlog");
    cachedFile(p, 18);
    int readers = 4;
    int reads = 8;
    try (PoCacheFileSystem own = (PoCacheFileSystem) FileSystem.newInstance(hdfs.fs().getUri(), fs.getConf())) {
      long before = hdfs.throttle(2).readsStarted();
      hdfs.throttle(2).setDelayPerRead(10_000);
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(readers);
      try {
        List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
        for (int r = 0; r < readers; r++) {
          done.add(pool.submit(() -> {
            byte[] buf = new byte[(int) (4 * BLOCK)];
            for (int i = 0; i < reads; i++) {
              try (FSDataInputStream in = own.open(p)) {
                in.readFully(0, buf);
              }
              assertEquals(-1, DataPattern.firstMismatch(18, 0, buf, 0, buf.length));
            }
            return null;
          }));
        }
        for (java.util.concurrent.Future<?> f : done) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
        hdfs.throttle(2).reset();
      }
      long sent = hdfs.throttle(2).readsStarted() - before;
      System.out.println("a DataNode taking 10 s per read: " + sent + " of " + readers * reads
          + " whole-file reads sent it a read; " + own.skippedPieces() + " pieces left to parity");
      assertTrue(sent + " reads sent to the stalled DataNode", sent <= readers + SlowSources.MAX_BACKLOG);
    }
  }

  /**
   * Short positional reads (inside one subblock, or across a subblock edge) race a rebuild
   * once a DataNode is suspect. While none is, a short read is HDFS's own, on the caller's
   * thread: the first read of a DataNode nobody suspected waits for it, and its lateness
   * makes the DataNode suspect for the reads after it.
   */
  @Test
  public void shortPreadsOfALateDataNodeAreRebuilt() throws Exception {
    Path p = new Path("/proactive/short-preads");
    cachedFile(p, 16);
    try (FSDataInputStream in = fs.open(p)) {
      PoCacheInputStream s = (PoCacheInputStream) in.getWrappedStream();
      byte[] b = new byte[4096];
      in.readFully(3 * BLOCK + 100, b); // healthy: direct, and teaches the reader the usual time
      assertEquals(-1, DataPattern.firstMismatch(16, 3 * BLOCK + 100, b, 0, b.length));
      assertEquals(0, s.outcome().snapshot().decoded);
      hdfs.throttle(2).setDelayPerRead(3000);
      try {
        in.readFully(2 * BLOCK + 100, b); // nobody suspects block 2's DataNode yet: HDFS's read, waited for
        assertEquals(-1, DataPattern.firstMismatch(16, 2 * BLOCK + 100, b, 0, b.length));
        assertEquals("the unsuspected DataNode's read was waited for", 0, s.outcome().snapshot().decoded);
        in.readFully(2 * BLOCK + SUBBLOCK + 777, b); // inside one subblock of block 2, now suspect
        assertEquals(-1, DataPattern.firstMismatch(16, 2 * BLOCK + SUBBLOCK + 777, b, 0, b.length));
        assertEquals(1, s.outcome().snapshot().decoded);
        byte[] edge = new byte[10_000];
        long at = 2 * BLOCK + 2 * SUBBLOCK - 5000; // the end of one subblock and the start of the next
        assertEquals(edge.length, in.read(at, edge, 0, edge.length));
        assertEquals(-1, DataPattern.firstMismatch(16, at, edge, 0, edge.length));
        ProactiveReader.Outcome o = s.outcome().snapshot();
        assertEquals("both parts rebuilt", 3, o.decoded);
        assertFalse(o.parityCorrupt || o.parityMissing || o.cacheError);
      } finally {
        hdfs.throttle(2).reset();
      }
    }
  }

  @Test
  public void degradedStreamsSeekSkipAndReportLikeHdfs() throws Exception {
    Path p = new Path("/proactive/seek");
    cachedFile(p, 15);
    try (FSDataInputStream in = fs.open(p)) {
      assertTrue(in.getWrappedStream() instanceof PoCacheInputStream);
      assertEquals(4 * BLOCK, in.available());
      in.seek(BLOCK + 12345);
      byte[] b = new byte[70_000];
      in.readFully(b);
      assertEquals(-1, DataPattern.firstMismatch(15, BLOCK + 12345, b, 0, b.length));
      assertEquals(BLOCK + 12345 + b.length, in.getPos());
      assertEquals(1000, in.skip(1000));
      int x = in.read();
      byte[] one = new byte[1];
      DataPattern.fill(15, BLOCK + 12345 + b.length + 1000, one, 0, 1);
      assertEquals(one[0] & 0xff, x);
      // ByteBuffer reads, direct and heap, straight from the current subblock.
      for (java.nio.ByteBuffer bb : new java.nio.ByteBuffer[] {
          java.nio.ByteBuffer.allocateDirect(3 * SUBBLOCK / 2), java.nio.ByteBuffer.allocate(3 * SUBBLOCK / 2)}) {
        long at = in.getPos();
        while (bb.hasRemaining()) {
          assertTrue(in.read(bb) > 0);
        }
        bb.flip();
        byte[] got = new byte[bb.remaining()];
        bb.get(got);
        assertEquals(-1, DataPattern.firstMismatch(15, at, got, 0, got.length));
        assertEquals(at + got.length, in.getPos());
      }
      assertEquals(0, in.read(java.nio.ByteBuffer.allocateDirect(0)));
      in.seek(4 * BLOCK);
      assertEquals(-1, in.read(java.nio.ByteBuffer.allocateDirect(10)));
      assertEquals(-1, in.read());
      assertEquals(0, in.available());
      try {
        in.seek(4 * BLOCK + 1);
        org.junit.Assert.fail("seek past the end accepted");
      } catch (java.io.EOFException expected) {
        // as DFSInputStream
      }
    }
  }

  @Test
  public void uncachedFilesReadLikeVanilla() throws Exception {
    Path p = new Path("/proactive/plain");
    hdfs.writePinnedFile(p, BLOCK, 2, 13);
    try (FSDataInputStream in = fs.open(p)) {
      // Not cached at open time (the open itself may start a fill for next time).
      assertFalse(in.getWrappedStream() instanceof PoCacheInputStream);
      byte[] buf = new byte[(int) (2 * BLOCK)];
      in.readFully(buf);
      assertEquals(-1, DataPattern.firstMismatch(13, 0, buf, 0, buf.length));
    }
  }
}
