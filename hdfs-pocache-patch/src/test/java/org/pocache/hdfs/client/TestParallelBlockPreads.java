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
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.EOFException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.PoCacheMiniCluster;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.hdfs.MiniHdfs;

/**
 * Positional reads of a replicated file the Manager keeps no parity for
 * (dfs.pocache.read.parallel.blocks): a read across blocks asks every block's DataNode
 * at once, returns the file's bytes, and counts them on the caller's thread as HDFS's
 * stream does; reads within a block, and every read with the key off, are HDFS's own.
 */
public class TestParallelBlockPreads {
  private static final long BLOCK = 1 << 20;
  private static PoCacheMiniCluster cluster;
  private static MiniHdfs hdfs;

  @BeforeClass
  public static void start() throws Exception {
    // A cache smaller than one file's parity: the Manager admits nothing, every file is read without parity.
    cluster = PoCacheMiniCluster.builder().dataNodes(4)
        .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(BLOCK / 2)).start();
    hdfs = cluster.hdfs;
  }

  @AfterClass
  public static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  public void aReadAcrossBlocksAsksEveryBlocksDataNodeAtOnce() throws Exception {
    Path p = new Path("/parallel/across");
    hdfs.writePinnedFile(p, BLOCK, 4, 61);
    PoCacheFileSystem fs = cluster.client();
    FileSystem.Statistics stats = FileSystem.getStatistics("hdfs", PoCacheFileSystem.class);
    try (FSDataInputStream in = fs.open(p)) {
      assertTrue("no parity, a stream of HDFS's: " + in.getClass(), in instanceof ParallelBlockPreads);
      long[] started = new long[4];
      for (int i = 0; i < 4; i++) {
        started[i] = hdfs.throttle(i).readsStarted();
      }
      // DataNode 0 holds the first block's read for 5 s; HDFS's stream would not ask for the others before it.
      hdfs.throttle(0).stallNextRead(5000);
      byte[] buf = new byte[(int) (4 * BLOCK)];
      long[] counted = new long[1];
      CompletableFuture<Void> read = CompletableFuture.runAsync(() -> {
        long before = stats.getThreadStatistics().getBytesRead();
        try {
          in.readFully(0, buf);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        counted[0] = stats.getThreadStatistics().getBytesRead() - before;
      });
      try {
        GenericTestUtils.waitFor(() -> hdfs.throttle(1).readsStarted() > started[1]
            && hdfs.throttle(2).readsStarted() > started[2] && hdfs.throttle(3).readsStarted() > started[3], 10, 4000);
      } catch (TimeoutException e) {
        fail("blocks 1-3 were not asked for while block 0's read was held");
      }
      read.get(60, TimeUnit.SECONDS);
      assertEquals("first wrong byte", -1, DataPattern.firstMismatch(61, 0, buf, 0, buf.length));
      assertEquals("bytes counted on the reading thread", buf.length, counted[0]);
      assertEquals(1, fs.parallelBlockReads());
    } finally {
      hdfs.throttle(0).reset();
    }
  }

  @Test
  public void readsWithinABlockAndPastTheEndAreHdfsOwn() throws Exception {
    Path p = new Path("/parallel/within");
    hdfs.writePinnedFile(p, BLOCK, 3, 62);
    PoCacheFileSystem fs = cluster.client();
    try (FSDataInputStream in = fs.open(p)) {
      byte[] buf = new byte[1000];
      in.readFully(BLOCK + 5, buf);
      assertEquals(-1, DataPattern.firstMismatch(62, BLOCK + 5, buf, 0, buf.length));
      assertEquals("a read within one block", 0, fs.parallelBlockReads());
      // Across the last two blocks and short of the end: all of it, as HDFS's positional read gives.
      byte[] tail = new byte[(int) (2 * BLOCK)];
      assertEquals(2 * BLOCK - 10, in.read(BLOCK + 10, tail, 0, tail.length));
      assertEquals(-1, DataPattern.firstMismatch(62, BLOCK + 10, tail, 0, (int) (2 * BLOCK - 10)));
      assertEquals(1, fs.parallelBlockReads());
      try {
        in.readFully(BLOCK, new byte[(int) (2 * BLOCK + 1)]);
        fail("a read past the end succeeded");
      } catch (EOFException expected) {
        // HDFS's own error
      }
      assertEquals(-1, in.read(3 * BLOCK, buf, 0, buf.length));
    }
  }

  @Test
  public void withTheKeyOffTheStreamIsHdfsOwn() throws Exception {
    Path p = new Path("/parallel/off");
    hdfs.writePinnedFile(p, BLOCK, 2, 63);
    PoCacheFileSystem fs = cluster.client(PoCacheConfigKeys.READ_PARALLEL_BLOCKS_KEY, "false");
    try (FSDataInputStream in = fs.open(p)) {
      assertSame(HdfsDataInputStream.class, in.getClass());
      byte[] buf = new byte[(int) (2 * BLOCK)];
      in.readFully(0, buf);
      assertEquals(-1, DataPattern.firstMismatch(63, 0, buf, 0, buf.length));
      assertEquals(0, fs.parallelBlockReads());
    }
  }
}
