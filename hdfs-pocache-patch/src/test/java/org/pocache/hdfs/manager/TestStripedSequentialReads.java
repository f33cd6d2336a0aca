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

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.testkit.DataPattern;

/**
 * Sequential reads of an erasure-coded file whose parity is cached: each block group's
 * first chunk (whole substripes, about 8 MiB) goes through the proactive reader, the rest
 * of the group through HDFS's striped stream while nothing is slow, and by chunks once a
 * DataNode of the group is suspect or a row comes late, so that a stalled cell is decoded
 * from the parity instead of holding up its row; seeks, skips and reads into ByteBuffers
 * see the file's bytes across both; with the key off, the reads are HDFS's striped
 * stream's.
 */
public class TestStripedSequentialReads {
  private static final String POLICY = "RS-3-2-64k";
  /** About 15 MiB (under the test Manager's 16 MiB per file), ending in a partial row. */
  private static final long LENGTH = 20 * 3 * ManagerCluster.BLOCK - 12_345;
  /** Substripes of a chunk: 8 MiB of rows of three 64 KiB cells. */
  private static final int CHUNK_SUBSTRIPES = (8 << 20) / (3 * 64 << 10);
  /** Substripes of the file: one per row. */
  private static final long SUBSTRIPES = (LENGTH + (3 * 64 << 10) - 1) / (3 * 64 << 10);
  /** Internal blocks of 256 KiB: block groups of 768 KiB, each read as one chunk. */
  private static final long SMALL = ManagerCluster.BLOCK;
  /** Internal blocks of 8 MiB: the file is one block group, its first chunk and 7 MiB after. */
  private static final long LARGE = 8 << 20;

  @Test
  public void aStalledCellIsDecodedNotWaitedFor() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped-seq/stalled", 91, SMALL);
      int stalled = c.hdfs.dataNodesOfBlockGroups(p).get(0)[1];
      assertTrue("internal block 1 has no location", stalled >= 0);
      c.hdfs.throttle(stalled).setDelayPerRead(5000);
      try (PoCacheFileSystem fs = c.pocacheClient()) {
        try (FSDataInputStream in = fs.open(p)) {
          readOnTo(in, 91, LENGTH, 4096);
        }
        assertEquals(1, fs.proactiveOpens());
        assertTrue("no substripe was read through the proactive reader", fs.readSubstripes() > 0);
        assertTrue("the stalled cells were waited for, not decoded (" + fs.readSubstripes() + " substripes read)",
            fs.decodedSubstripes() > 0);
      }
    }
  }

  @Test
  public void seeksSkipsAndByteBufferReadsSeeTheFile() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped-seq/jumps", 92, 4 << 20);
      try (PoCacheFileSystem fs = c.pocacheClient(); FSDataInputStream in = fs.open(p)) {
        Random r = new Random(92);
        for (int i = 0; i < 40; i++) {
          long at = i % 10 == 9 ? LENGTH - 1 - r.nextInt(1000) : (long) (r.nextDouble() * LENGTH);
          int len = 1 + r.nextInt(300_000);
          switch (i % 4) {
            case 0:
              in.seek(at);
              break;
            case 1:
              in.seek(0);
              assertEquals(at, in.skip(at));
              break;
            default:
              in.seek(at);
              break;
          }
          assertEquals(at, in.getPos());
          int want = (int) Math.min(len, LENGTH - at);
          byte[] got = new byte[want];
          if (i % 4 == 2) {
            ByteBuffer b = i % 8 == 2 ? ByteBuffer.allocateDirect(want) : ByteBuffer.allocate(want);
            while (b.hasRemaining()) {
              assertTrue("EOF before " + want + " bytes at " + at, in.read(b) > 0);
            }
            b.flip();
            b.get(got);
          } else {
            in.readFully(got);
          }
          assertEquals("read at " + at, -1, DataPattern.firstMismatch(92, at, got, 0, want));
          assertEquals(at + want, in.getPos());
        }
        in.seek(LENGTH);
        assertEquals(-1, in.read());
        assertEquals(-1, in.read(new byte[10], 0, 10));
        in.seek(LENGTH - 1);
        int last = in.read();
        byte[] one = new byte[1];
        DataPattern.fill(92, LENGTH - 1, one, 0, 1);
        assertEquals(one[0] & 0xff, last);
      }
    }
  }

  @Test
  public void aDeadDataNodeStillGivesTheFile() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped-seq/dead", 93, 4 << 20);
      c.hdfs.cluster().stopDataNode(c.hdfs.dataNodesOfBlockGroups(p).get(0)[0]);
      try (PoCacheFileSystem fs = c.pocacheClient(); FSDataInputStream in = fs.open(p)) {
        readOnTo(in, 93, LENGTH, 64 << 10);
      }
    }
  }

  @Test
  public void withTheKeyOffSequentialReadsAreHdfsStripedStreams() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped-seq/off", 94, SMALL);
      try (PoCacheFileSystem fs = c.pocacheClient(PoCacheConfigKeys.READ_STRIPED_SEQUENTIAL_KEY, "false")) {
        try (FSDataInputStream in = fs.open(p)) {
          readOnTo(in, 94, LENGTH, 4096);
        }
        assertEquals(1, fs.proactiveOpens());
        assertEquals(0, fs.readSubstripes());
      }
      try (PoCacheFileSystem fs = c.pocacheClient()) {
        try (FSDataInputStream in = fs.open(p)) {
          readOnTo(in, 94, LENGTH, 4096);
        }
        assertTrue("the default read no substripe through the proactive reader", fs.readSubstripes() > 0);
      }
    }
  }

  @Test
  public void withNothingSlowAGroupAfterItsFirstChunkIsHdfsStreams() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped-seq/healthy", 95, LARGE);
      warmUp(c, p);
      // Nothing is slow here, and no read is judged late before 5 s: a pause of the test's
      // JVM on shared cores (the whole suite running) once made a row late.
      try (PoCacheFileSystem fs = c.pocacheClient(PoCacheConfigKeys.READ_DEADLINE_MIN_KEY, "5000")) {
        try (FSDataInputStream in = fs.open(p)) {
          readOnTo(in, 95, LENGTH, 4096);
        }
        assertEquals("substripes through the proactive reader, of " + SUBSTRIPES, CHUNK_SUBSTRIPES,
            fs.readSubstripes());
        assertEquals(0, fs.decodedSubstripes());
      }
    }
  }

  /**
   * A seek into the middle of a chunk while nothing is slow (a task's split starting
   * anywhere): HDFS's stream serves the bytes up to the next chunk boundary, and the chunk
   * there judges the group; no chunk reads the bytes before the caller's position.
   */
  @Test
  public void aSeekIntoAChunkIsHdfsStreamsUpToTheNextBoundary() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped-seq/seek", 97, LARGE);
      warmUp(c, p);
      long chunk = (long) CHUNK_SUBSTRIPES * (3 * 64 << 10);
      long from = chunk / 2 + 1000;
      try (PoCacheFileSystem fs = c.pocacheClient(PoCacheConfigKeys.READ_DEADLINE_MIN_KEY, "5000")) {
        try (FSDataInputStream in = fs.open(p)) {
          in.seek(from);
          byte[] upTo = new byte[(int) (chunk - from)];
          in.readFully(upTo);
          assertEquals(-1, DataPattern.firstMismatch(97, from, upTo, 0, upTo.length));
          readOnTo(in, 97, LENGTH, 4096);
        }
        // The file is one block group of two chunks: the second judged it.
        assertEquals("substripes through the proactive reader, of " + SUBSTRIPES, SUBSTRIPES - CHUNK_SUBSTRIPES,
            fs.readSubstripes());
        assertEquals(0, fs.decodedSubstripes());
      }
    }
  }

  /**
   * A DataNode that stalls once the group's first chunk was read makes a row of HDFS's
   * stream late: the next chunk judges the group, its stalled cell is decoded, and the rest
   * of the group goes by chunks.
   */
  @Test
  public void aDataNodeThatStallsLaterIsLeftToParityByItsLateRow() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap())) {
      Path p = writeCached(c, "/striped-seq/later", 96, LARGE);
      warmUp(c, p);
      int stalled = c.hdfs.dataNodesOfBlockGroups(p).get(0)[1];
      assertTrue("internal block 1 has no location", stalled >= 0);
      try (PoCacheFileSystem fs = c.pocacheClient()) {
        try (FSDataInputStream in = fs.open(p)) {
          // Exactly the first chunk: HDFS's stream opens its block readers at the next read,
          // after the stall begins (a reader opened before it would stream the rest of its
          // internal block undelayed, the DataNode's delay being per block read).
          byte[] first = new byte[CHUNK_SUBSTRIPES * (3 * 64 << 10)];
          in.readFully(first);
          assertEquals(-1, DataPattern.firstMismatch(96, 0, first, 0, first.length));
          c.hdfs.throttle(stalled).setDelayPerRead(3000);
          readOnTo(in, 96, LENGTH, 4096);
        }
        assertTrue("the group's rows after the stall were not read by chunks: " + fs.readSubstripes() + " of "
            + SUBSTRIPES, fs.readSubstripes() > CHUNK_SUBSTRIPES);
        assertTrue("the stalled cells were waited for, not decoded", fs.decodedSubstripes() > 0);
      }
    }
  }

  /**
   * Reads a byte of {@code p} through a FileSystem of its own: a JVM's first chunk (new
   * connections, classes and coder) judges nothing alone, and its group's second chunk
   * would judge instead.
   */
  private static void warmUp(ManagerCluster c, Path p) throws Exception {
    try (PoCacheFileSystem fs = c.pocacheClient(); FSDataInputStream in = fs.open(p)) {
      assertTrue(in.read() >= 0);
    }
  }

  /** Reads {@code in} from its position to the end with {@code read(byte[])} calls of {@code size}, checking each. */
  private static void readOnTo(FSDataInputStream in, long seed, long length, int size) throws Exception {
    byte[] buf = new byte[size];
    long pos = in.getPos();
    for (int n; (n = in.read(buf, 0, buf.length)) > 0; pos += n) {
      assertEquals("read at " + pos, -1, DataPattern.firstMismatch(seed, pos, buf, 0, n));
    }
    assertEquals(length, pos);
  }

  private static Path writeCached(ManagerCluster c, String name, long seed, long blockSize) throws Exception {
    Path p = new Path(name);
    c.writeCachedStriped(POLICY, p, seed, LENGTH, blockSize);
    return p;
  }
}
