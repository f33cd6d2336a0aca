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
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.hdfs.DataNodeReadMetrics;
import org.pocache.testkit.hdfs.DataNodeThrottle;

/**
 * Proactive reads of an erasure-coded file read each data piece from its internal
 * block, asking the DataNode for that range only (a run of rows of cells is one
 * request), and leave a piece to HDFS's striped stream when that fails.
 */
public class TestStripedReads {
  private static final String POLICY = "RS-3-2-64k";
  /** Two block groups of RS-3-2 with 256 KiB internal blocks: 4 rows of 64 KiB cells each. */
  private static final long LENGTH = 2 * 3 * ManagerCluster.BLOCK;

  /**
   * With 4 substripes in flight, a whole-file read asks each data internal block once:
   * 2 groups x 3 requests, and the DataNodes send the file's bytes and their checksums,
   * nothing more. HDFS's positional read of one cell would have asked for the rest of
   * the internal block each time (24 requests, and bytes sent past what was read).
   */
  @Test
  public void piecesAreReadFromTheirInternalBlocksOneRequestPerRun() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped/runs", 81);
      try (PoCacheFileSystem fs = c.pocacheClient(PoCacheConfigKeys.READ_INFLIGHT_KEY, "4")) {
        DataNodeReadMetrics.Snapshot[] before = snapshots(c);
        byte[] buf = new byte[(int) LENGTH];
        try (FSDataInputStream in = fs.open(p)) {
          in.readFully(0, buf);
        }
        assertEquals(-1, DataPattern.firstMismatch(81, 0, buf, 0, buf.length));
        // DataXceiver counts a read once the client acknowledged it, its bytes a moment before
        // its op: wait for all the bytes and the 6 ops (the assertions say what came instead).
        try {
          GenericTestUtils.waitFor(() -> {
            long[] s = served(c, before);
            return s[0] >= LENGTH && s[1] >= 6;
          }, 20, 10_000);
        } catch (java.util.concurrent.TimeoutException e) {
          // fall through
        }
        long[] served = served(c, before);
        assertEquals("block read requests (" + served[0] + " bytes)", 6, served[1]);
        assertTrue("the DataNodes sent more than the file and its checksums: " + served[0] + " bytes",
            served[0] <= LENGTH + LENGTH / 512 * 4);
        assertEquals(8, fs.readSubstripes());
        assertEquals(0, fs.stripedStreamReads());
        assertEquals(1, fs.proactiveOpens());
      }
    }
  }

  /**
   * A DataNode that is down fails its direct read; the piece is read through HDFS's
   * striped stream instead (which decodes it from the file's parity blocks), counted,
   * and the bytes are the file's.
   */
  @Test
  public void aDeadDataNodesPiecesGoThroughHdfsStripedStream() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped/dead", 82);
      List<int[]> groups = c.hdfs.dataNodesOfBlockGroups(p);
      int dead = groups.get(0)[0];
      assertTrue("internal block 0 has no location", dead >= 0);
      c.hdfs.cluster().stopDataNode(dead);
      try (PoCacheFileSystem fs = c.pocacheClient()) {
        byte[] buf = new byte[(int) LENGTH];
        try (FSDataInputStream in = fs.open(p)) {
          in.readFully(0, buf);
        }
        long bad = DataPattern.firstMismatch(82, 0, buf, 0, buf.length);
        assertEquals("first wrong byte (DataNode " + dead + " down; " + fs.stripedStreamReads() + " pieces through"
            + " HDFS's striped stream, " + fs.decodedSubstripes() + " of " + fs.readSubstripes()
            + " substripes decoded, " + fs.fallbacks() + " fallbacks)", -1L, bad);
        assertEquals(1, fs.proactiveOpens());
        assertTrue("no piece went through HDFS's striped stream", fs.stripedStreamReads() >= 1);
      }
    }
  }

  /**
   * Pieces a dead DataNode held go through HDFS's striped stream, which decodes them with
   * one decoder per stream that is not safe for concurrent use: several threads reading
   * one stream at once, each with its substripes in flight, still get the file's bytes
   * (every read through the stream is serialized on it).
   */
  @Test
  public void concurrentReadsOfOneStreamWithADeadDataNodeGiveTheFile() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped/dead-concurrent", 84);
      int dead = c.hdfs.dataNodesOfBlockGroups(p).get(0)[0];
      assertTrue("internal block 0 has no location", dead >= 0);
      c.hdfs.cluster().stopDataNode(dead);
      try (PoCacheFileSystem fs = c.pocacheClient(PoCacheConfigKeys.READ_INFLIGHT_KEY, "8")) {
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
          // The decoder's tables are built at a stream's first decode: a fresh stream each round.
          for (int round = 0; round < 8; round++) {
            try (FSDataInputStream in = fs.open(p)) {
              List<java.util.concurrent.Future<Long>> reads = new java.util.ArrayList<>();
              for (int t = 0; t < 4; t++) {
                reads.add(threads.submit(() -> {
                  byte[] buf = new byte[(int) LENGTH];
                  in.readFully(0, buf);
                  return DataPattern.firstMismatch(84, 0, buf, 0, buf.length);
                }));
              }
              for (java.util.concurrent.Future<Long> r : reads) {
                assertEquals("round " + round + ": first wrong byte (" + fs.stripedStreamReads()
                    + " pieces through HDFS's striped stream)", -1L, (long) r.get());
              }
            }
          }
        } finally {
          threads.shutdownNow();
        }
        assertTrue("no piece went through HDFS's striped stream", fs.stripedStreamReads() >= 1);
      }
    }
  }

  /**
   * A run of rows tells a lagging piece by its first row: with nothing suspect (parity
   * deferred) and one DataNode stalled, the run's parity is asked for once the other
   * pieces have their first cell, before any of them has its whole run (the DataNodes
   * send at 1 MiB/s, so a run of four 64 KiB cells takes four times its first). Asked
   * only once pieces arrived whole, as before, the trace shows parity after an arrival.
   */
  @Test
  public void aLaggingPieceIsToldByItsFirstRow() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped/first-row", 83);
      List<int[]> groups = c.hdfs.dataNodesOfBlockGroups(p);
      int stalled = groups.get(0)[1];
      assertTrue("internal block 1 has no location", stalled >= 0);
      c.hdfs.setAllBandwidth(1 << 20);
      c.hdfs.throttle(stalled).setDelayPerRead(5000);
      org.apache.log4j.Logger trace = org.apache.log4j.Logger.getLogger("org.pocache.hdfs.client.ProactiveReader");
      org.apache.log4j.Level level = trace.getLevel();
      trace.setLevel(org.apache.log4j.Level.DEBUG);
      GenericTestUtils.LogCapturer log = GenericTestUtils.LogCapturer.captureLogs(
          org.slf4j.LoggerFactory.getLogger("org.pocache.hdfs.client.ProactiveReader"));
      try (PoCacheFileSystem fs = c.pocacheClient(PoCacheConfigKeys.READ_INFLIGHT_KEY, "4")) {
        byte[] buf = new byte[(int) ManagerCluster.BLOCK * 3];
        try (FSDataInputStream in = fs.open(p)) {
          in.readFully(0, buf); // block group 0: one run of 4 rows
        }
        assertEquals(-1, DataPattern.firstMismatch(83, 0, buf, 0, buf.length));
      } finally {
        log.stopCapturing();
        trace.setLevel(level);
      }
      String line = null;
      for (String l : log.getOutput().split("\n")) {
        if (l.contains("fetch stripe 0 substripes 0-3")) {
          line = l;
        }
      }
      assertTrue("no trace of the run: " + log.getOutput(), line != null);
      java.util.regex.Matcher asked = java.util.regex.Pattern.compile("parity asked@([0-9.]+)").matcher(line);
      assertTrue("the parity was never asked for: " + line, asked.find());
      double askedAt = Double.parseDouble(asked.group(1));
      java.util.regex.Matcher arrived = java.util.regex.Pattern.compile("arrived@([0-9.]+)").matcher(line);
      while (arrived.find()) {
        assertTrue("parity asked for after a piece arrived whole: " + line,
            askedAt < Double.parseDouble(arrived.group(1)));
      }
      assertTrue("the stalled piece was not decoded: " + line, line.contains("DECODED"));
    }
  }

  /**
   * A decoded piece's read still running once it is late (by the measure that marks its
   * DataNode slow) stops and closes its connection, so the straggler stops taking the
   * rest of its internal block from disk: at 64 KiB/s the whole 256 KiB would take it 4 s
   * after the read returned.
   */
  @Test
  public void aLateReadOfADecodedPieceStops() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped/stop", 84);
      int straggler = c.hdfs.dataNodesOfBlockGroups(p).get(0)[1];
      assertTrue("internal block 1 has no location", straggler >= 0);
      DataNodeThrottle slow = c.hdfs.throttle(straggler);
      slow.setBandwidth(64 << 10);
      long before = slow.bytesTaken();
      try (PoCacheFileSystem fs = c.pocacheClient(PoCacheConfigKeys.READ_INFLIGHT_KEY, "4")) {
        byte[] buf = new byte[(int) ManagerCluster.BLOCK * 3];
        try (FSDataInputStream in = fs.open(p)) {
          in.readFully(0, buf); // block group 0: one run of 4 rows, internal block 1 decoded
        }
        assertEquals(-1, DataPattern.firstMismatch(84, 0, buf, 0, buf.length));
        // The straggler's read has ended once it takes nothing more for a second and a half.
        long[] last = {-1};
        GenericTestUtils.waitFor(() -> {
          long now = slow.bytesTaken();
          boolean still = now == last[0];
          last[0] = now;
          return still;
        }, 1500, 30_000);
      }
      long taken = slow.bytesTaken() - before;
      assertTrue("the straggler took " + taken + " bytes of its " + ManagerCluster.BLOCK + "-byte internal block",
          taken > 0 && taken < ManagerCluster.BLOCK);
    }
  }

  private static Path writeCached(ManagerCluster c, String name, long seed) throws Exception {
    Path p = new Path(name);
    assertEquals(4, c.writeCachedStriped(POLICY, p, seed, LENGTH, ManagerCluster.BLOCK).getSubstripesPerStripe());
    return p;
  }

  private static DataNodeReadMetrics.Snapshot[] snapshots(ManagerCluster c) {
    DataNodeReadMetrics.Snapshot[] s = new DataNodeReadMetrics.Snapshot[c.hdfs.dataNodeCount()];
    for (int i = 0; i < s.length; i++) {
      s[i] = c.hdfs.readMetrics(i);
    }
    return s;
  }

  /** What all DataNodes served since {@code before}: bytes (checksums included) and block read requests. */
  private static long[] served(ManagerCluster c, DataNodeReadMetrics.Snapshot[] before) {
    long[] sum = new long[2];
    for (int i = 0; i < before.length; i++) {
      DataNodeReadMetrics.Snapshot d = c.hdfs.readMetrics(i).minus(before[i]);
      sum[0] += d.bytesRead;
      sum[1] += d.readBlockOps;
    }
    return sum;
  }
}
