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
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.Collections;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.testkit.DataPattern;

/**
 * The write path: files written through PoCacheFileSystem get their parity encoded
 * incrementally and committed on close; every value equals an independent
 * encoding of the finished file. With Redis gone mid-write, the HDFS write still
 * succeeds with the right bytes and caching is abandoned.
 */
public class TestWritePath {
  @Test
  public void writtenFilesAreCachedWithExactParity() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client();
         // Files of one block too, to check their encoding (by default they are cached only when read).
         PoCacheFileSystem fs = c.pocacheClient(PoCacheConfigKeys.WRITE_MIN_BLOCKS_KEY, "1")) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      long[] lengths = {5 * ManagerCluster.BLOCK + 1000, 4 * ManagerCluster.BLOCK, 777,
          ManagerCluster.SUBBLOCK * 3 + 5, 8 * ManagerCluster.BLOCK};
      for (int f = 0; f < lengths.length; f++) {
        Path p = new Path("/write/f" + f);
        // Small chunks go through the encoder's subblock buffer; whole aligned
        // subblocks are folded from the writer's own array; the last file mixes both.
        int chunk = f < 3 ? 1 + f * 4097 : f == 3 ? ManagerCluster.SUBBLOCK : 3 * ManagerCluster.SUBBLOCK + 123;
        write(fs, p, lengths[f], 40 + f, chunk);
        ParityDescriptor d = m.getDescriptor(p.toString()).getParity();
        assertTrue(p + " not cached", d != null);
        assertEquals(lengths[f], d.getLength());
        assertTrue(c.assertParityMatchesIndependentEncoding(p, d) >= 1);
      }
      assertEquals(lengths.length, fs.cachedWrites());
      assertEquals(0, fs.abandonedWrites());
      // And the written file reads back proactively with a stalled DataNode.
      Path p = new Path("/write/f0");
      byte[] buf = new byte[(int) lengths[0]];
      try (FSDataInputStream in = fs.open(p)) {
        in.readFully(0, buf);
      }
      assertEquals(-1, DataPattern.firstMismatch(40, 0, buf, 0, buf.length));
    }
  }

  /**
   * A replicated file shorter than two blocks has a block of parity for less than two
   * blocks of data: it is not cached on write (a file of one block and a few bytes, as a
   * reducer's output often is, included), and is cached when read (here with
   * dfs.pocache.cache.read.min.blocks = 1; by default only while a straggler holds one of its
   * blocks, see TestCacheService). The Manager is asked
   * only once a file is past its first block, which was held until then. A file of two full
   * blocks is cached on write, its parity encoded from the held first block.
   */
  @Test
  public void filesShorterThanTwoBlocksAreCachedWhenReadNotOnWrite() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4,
        Collections.singletonMap(PoCacheConfigKeys.CACHE_READ_MIN_BLOCKS_KEY, "1"));
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path one = new Path("/write/one-block");
      Path oneAndABit = new Path("/write/one-block-and-a-bit");
      Path two = new Path("/write/two-blocks");
      write(fs, one, ManagerCluster.BLOCK, 61, 10_007);
      write(fs, oneAndABit, ManagerCluster.BLOCK + 1, 63, 10_007);
      write(fs, two, 2 * ManagerCluster.BLOCK, 62, 10_007);
      assertFalse(one + " cached on write", m.getDescriptor(one.toString()).hasParity());
      assertFalse(oneAndABit + " cached on write", m.getDescriptor(oneAndABit.toString()).hasParity());
      ParityDescriptor d = m.getDescriptor(two.toString()).getParity();
      assertTrue(two + " not cached", d != null);
      assertTrue(c.assertParityMatchesIndependentEncoding(two, d) >= 1);
      assertEquals("one block is held and never reaches the Manager; the others are admitted once past it",
          2, fs.cachedWrites());
      assertEquals(2, fs.shortWrites());
      assertEquals(0, fs.abandonedWrites());
      byte[] buf = new byte[(int) ManagerCluster.BLOCK + 1];
      try (FSDataInputStream in = fs.open(oneAndABit)) {
        in.readFully(0, buf);
      }
      assertEquals(-1, DataPattern.firstMismatch(63, 0, buf, 0, buf.length));
      org.pocache.hdfs.PoCacheMiniCluster.awaitParity(m, oneAndABit, 10_000); // the read filled it
      assertTrue(c.assertParityMatchesIndependentEncoding(oneAndABit,
          m.getDescriptor(oneAndABit.toString()).getParity()) >= 1);
    }
  }

  /**
   * A job's staging files (job.split, job.xml, ...) are left to HDFS: not cached on
   * write, and read without a Manager lookup, so they are never admitted when read.
   */
  @Test
  public void stagingFilesAreNeitherCachedOnWriteNorLookedUpOnRead() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path split = new Path("/user/alice/.staging/job_1_0001/job.split");
      write(fs, split, 2 * ManagerCluster.BLOCK + 887, 64, 10_007);
      assertEquals("a write under .staging asked the Manager", 0, fs.cachedWrites());
      long lookups = m.getReport().getHits() + m.getReport().getMisses();
      for (int r = 0; r < 2; r++) {
        byte[] buf = new byte[887];
        try (FSDataInputStream in = fs.open(split)) {
          in.readFully(2 * ManagerCluster.BLOCK, buf);
        }
        assertEquals(-1, DataPattern.firstMismatch(64, 2 * ManagerCluster.BLOCK, buf, 0, buf.length));
      }
      assertEquals("reads under .staging asked the Manager", lookups,
          m.getReport().getHits() + m.getReport().getMisses());
      assertEquals(0, fs.proactiveOpens());
      // A client configured otherwise that asks anyway is not admitted.
      org.pocache.manager.protocol.DescriptorLookup asked = m.getDescriptor(split.toString(), true);
      assertFalse(asked.hasParity());
      assertFalse(asked.hasFill());
      assertTrue(asked.getDecision(), asked.getDecision().contains(PoCacheConfigKeys.EXCLUDE_DIRS_KEY));
    }
  }

  @Test
  public void redisGoneMidWriteNeverFailsTheWrite() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/write/redis-gone");
      long length = 6 * ManagerCluster.BLOCK + 123;
      try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, ManagerCluster.BLOCK)) {
        byte[] chunk = new byte[10_000];
        for (long pos = 0; pos < length; ) {
          int n = (int) Math.min(chunk.length, length - pos);
          DataPattern.fill(50, pos, chunk, 0, n);
          out.write(chunk, 0, n);
          pos += n;
          if (pos >= 2 * ManagerCluster.BLOCK && c.redis.isRunning()) {
            c.redis.stop();
          }
        }
      }
      assertEquals(1, fs.cachedWrites());
      assertEquals(1, fs.abandonedWrites());
      byte[] buf = new byte[(int) length];
      try (FSDataInputStream in = c.hdfs.fs().open(p)) {
        in.readFully(0, buf);
      }
      assertEquals(-1, DataPattern.firstMismatch(50, 0, buf, 0, buf.length));
      assertFalse(m.getDescriptor(p.toString()).hasParity());
    }
  }

  /** An erasure-coded file is encoded a row of cells at a time while it is written. */
  @Test
  public void erasureCodedFilesAreCachedRowByRow() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap());
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      c.hdfs.enableErasureCodingPolicy("RS-3-2-64k");
      Path dir = new Path("/write/ec");
      c.hdfs.fs().mkdirs(dir);
      c.hdfs.fs().setErasureCodingPolicy(dir, "RS-3-2-64k");
      long group = 3 * ManagerCluster.BLOCK;
      long[] lengths = {2 * group + 5000, 2 * 3 * (64 << 10), 777};
      for (int f = 0; f < lengths.length; f++) {
        Path p = new Path(dir, "f" + f);
        write(fs, p, lengths[f], 70 + f, 10_007);
        ParityDescriptor d = m.getDescriptor(p.toString()).getParity();
        assertTrue(p + " not cached", d != null);
        assertEquals(ParityDescriptor.Layout.STRIPED, d.getLayout());
        assertEquals(3, d.getK());
        assertEquals(64 << 10, d.getSubblockBytes());
        assertEquals(lengths[f], d.getLength());
        assertTrue(c.assertParityMatchesIndependentEncoding(p, d) >= 1);
        byte[] buf = new byte[(int) lengths[f]];
        try (FSDataInputStream in = fs.open(p)) {
          in.readFully(0, buf);
        }
        assertEquals(-1, DataPattern.firstMismatch(70 + f, 0, buf, 0, buf.length));
      }
      assertEquals(lengths.length, fs.cachedWrites());
      assertEquals(0, fs.abandonedWrites());
    }
  }

  /**
   * hflush/hsync are HDFS's (the flushed bytes are visible to readers at once; the
   * parity stays private until close); append and truncate change the file, and the
   * Manager stops serving its parity.
   */
  @Test
  public void hflushPassesThroughAppendAndTruncateInvalidate() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/write/flushed");
      long half = 2 * ManagerCluster.BLOCK + 100;
      byte[] chunk = new byte[(int) half];
      try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, ManagerCluster.BLOCK)) {
        assertTrue(out.hasCapability("hflush"));
        assertTrue(out.hasCapability("hsync"));
        DataPattern.fill(60, 0, chunk, 0, chunk.length);
        out.write(chunk);
        out.hflush();
        byte[] seen = new byte[chunk.length];
        try (FSDataInputStream in = c.hdfs.fs().open(p)) {
          in.readFully(0, seen); // visible before close, as with HDFS's own stream
        }
        assertEquals(-1, DataPattern.firstMismatch(60, 0, seen, 0, seen.length));
        assertFalse("parity served before close", m.getDescriptor(p.toString()).hasParity());
        DataPattern.fill(60, half, chunk, 0, chunk.length);
        out.write(chunk);
        out.hsync();
      }
      ParityDescriptor d = m.getDescriptor(p.toString()).getParity();
      assertEquals(2 * half, d.getLength());
      assertTrue(c.assertParityMatchesIndependentEncoding(p, d) >= 1);

      try (FSDataOutputStream out = fs.append(p)) {
        DataPattern.fill(60, 2 * half, chunk, 0, 1000);
        out.write(chunk, 0, 1000);
      }
      assertFalse("parity served after append", m.getDescriptor(p.toString()).hasParity());
      byte[] all = new byte[(int) (2 * half + 1000)];
      try (FSDataInputStream in = fs.open(p)) {
        in.readFully(0, all);
      }
      assertEquals(-1, DataPattern.firstMismatch(60, 0, all, 0, all.length));

      Path q = new Path("/write/truncated");
      write(fs, q, 3 * ManagerCluster.BLOCK, 61, 8192);
      assertTrue(m.getDescriptor(q.toString()).hasParity());
      assertTrue("truncate at a block boundary is immediate", fs.truncate(q, 2 * ManagerCluster.BLOCK));
      assertFalse("parity served after truncate", m.getDescriptor(q.toString()).hasParity());
      byte[] rest = new byte[(int) (2 * ManagerCluster.BLOCK)];
      try (FSDataInputStream in = fs.open(q)) {
        in.readFully(0, rest);
      }
      assertEquals(-1, DataPattern.firstMismatch(61, 0, rest, 0, rest.length));
    }
  }

  /**
   * A record writer's small calls (single bytes, a few hundred bytes) are gathered before
   * they reach HDFS and the encoder: hflush and hsync pass on what is gathered first, so
   * readers see every byte written before them; the parity matches the file; a write after
   * close fails as HDFS's does.
   */
  @Test
  public void smallWritesReachHdfsByEachFlushAndTheirParityIsExact() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/write/records");
      long length = 2 * ManagerCluster.BLOCK + 12345;
      byte[] all = new byte[(int) length];
      DataPattern.fill(62, 0, all, 0, all.length);
      FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, ManagerCluster.BLOCK);
      int pos = 0;
      int flushes = 0;
      java.util.Random sizes = new java.util.Random(62);
      while (pos < all.length) {
        if (sizes.nextInt(4) == 0) {
          out.write(all[pos++]);
          continue;
        }
        int n = Math.min(all.length - pos, 1 + sizes.nextInt(300));
        out.write(all, pos, n);
        pos += n;
        if (pos > (flushes + 1) * ManagerCluster.BLOCK / 2 && pos < all.length) {
          flushes++;
          if (flushes % 2 == 0) {
            out.hsync();
          } else {
            out.hflush();
          }
          byte[] seen = new byte[pos];
          try (FSDataInputStream in = c.hdfs.fs().open(p)) {
            in.readFully(0, seen); // every byte written before the flush
          }
          assertEquals("bytes visible after flush " + flushes, -1,
              DataPattern.firstMismatch(62, 0, seen, 0, seen.length));
        }
      }
      assertEquals(length, out.getPos());
      out.close();
      try {
        out.write(1);
        fail("a write after close went through");
      } catch (IOException expected) {
        // as HDFS's own stream
      }
      ParityDescriptor d = m.getDescriptor(p.toString()).getParity();
      assertEquals(length, d.getLength());
      assertTrue(c.assertParityMatchesIndependentEncoding(p, d) >= 1);
      byte[] back = new byte[(int) length];
      try (FSDataInputStream in = c.hdfs.fs().open(p)) {
        in.readFully(0, back);
      }
      assertEquals(-1, DataPattern.firstMismatch(62, 0, back, 0, back.length));
      assertEquals(0, fs.abandonedWrites());
    }
  }

  /**
   * When HDFS fails the file at close (here: deleted while written), the caller gets
   * HDFS's error and the file's reservation is handed back at once, not left to expire.
   */
  @Test
  public void aFileHdfsFailsAtCloseGivesUpItsReservation() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/write/deleted");
      byte[] record = new byte[100];
      FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, ManagerCluster.BLOCK);
      for (long pos = 0; pos < 2 * ManagerCluster.BLOCK + 5000; pos += record.length) {
        DataPattern.fill(63, pos, record, 0, record.length);
        out.write(record); // gathered: some are still in the stream at close
      }
      assertEquals("the file was admitted", 1, m.getReport().getReservations());
      assertTrue(c.hdfs.fs().delete(p, false));
      try {
        out.close();
        fail("closed a file deleted while written");
      } catch (IOException expected) {
        // HDFS's own error
      }
      assertEquals("reservation left open", 0, m.getReport().getReservations());
      assertEquals(1, fs.abandonedWrites());
    }
  }

  private static void write(PoCacheFileSystem fs, Path p, long length, long seed, int chunkSize) throws Exception {
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, ManagerCluster.BLOCK)) {
      byte[] chunk = new byte[chunkSize];
      for (long pos = 0; pos < length; ) {
        int n = (int) Math.min(chunk.length, length - pos);
        DataPattern.fill(seed, pos, chunk, 0, n);
        out.write(chunk, 0, n);
        pos += n;
      }
      assertEquals(length, out.getPos());
    }
  }
}
