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

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * Parity is used only with the blocks it was made from. The race: a reader's Manager
 * lookup returns the descriptor of the file at a path, then, before the NameNode
 * answers the reader's open, the path is overwritten with a file of the same length.
 * The stream reads the new file's blocks; the descriptor describes the old file's
 * parity. With the new file's DataNode slow, rebuilding from that parity would return
 * the old file's bytes (for a one-block file the other pieces are virtual zeros, so
 * no checksum of another piece can notice). The reader must see the new bytes.
 */
public class TestStaleDescriptors {
  private static final long BLOCK = 1 << 20;
  private static RedisServerFixture redis;
  private static MiniHdfs hdfs;
  private static ManagerClient manager;
  /** Set by the test: what to do after the Manager answered a lookup and before HDFS's open. */
  static volatile Path overwriteOnOpen;
  static volatile long overwriteSeed;

  /** A PoCacheFileSystem whose HDFS open is delayed until after the Manager's lookup, then races an overwrite. */
  public static class RacingFileSystem extends PoCacheFileSystem {
    @Override
    FSDataInputStream openInHdfs(Path f, int bufferSize) throws IOException {
      Path p = overwriteOnOpen;
      if (p != null) {
        try {
          // The lookup runs beside this open: wait until the Manager has answered it...
          GenericTestUtils.waitFor(() -> hits() > hitsBeforeOpen, 10, 20_000);
          // ...then the path gets a new file of the same length before the NameNode answers.
          hdfs.writePinnedFile(p, BLOCK, 1, overwriteSeed);
        } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
          throw new IOException(e);
        }
      }
      return super.openInHdfs(f, bufferSize);
    }
  }

  private static volatile long hitsBeforeOpen;

  private static long hits() {
    try {
      return manager.getReport().getHits();
    } catch (IOException e) {
      return -1;
    }
  }

  @BeforeClass
  public static void start() throws Exception {
    int port = FreePorts.pick();
    redis = RedisServerFixture.builder().start();
    hdfs = MiniHdfs.builder().dataNodes(4)
        .set(PoCacheConfigKeys.ENABLED_KEY, "true")
        .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
        .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + port)
        .set(PoCacheConfigKeys.MANAGER_TICK_KEY, "100")
        .set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port())
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(256 << 10))
        .start();
    manager = new ManagerClient(new InetSocketAddress("127.0.0.1", port), hdfs.conf(), 5000);
  }

  @AfterClass
  public static void stop() throws Exception {
    if (manager != null) {
      manager.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  private static void cachedFile(Path p, long seed) throws Exception {
    hdfs.writePinnedFile(p, BLOCK, 1, seed);
    manager.prefetch(p.toString());
    GenericTestUtils.waitFor(() -> {
      try {
        return manager.getDescriptor(p.toString()).hasParity();
      } catch (Exception e) {
        return false;
      }
    }, 50, 20_000);
  }

  @Test
  public void anOverwriteBetweenLookupAndOpenReadsTheNewFile() throws Exception {
    Configuration c = new Configuration(hdfs.conf());
    c.set("fs.hdfs.impl", RacingFileSystem.class.getName());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    Path p = new Path("/stale/overwritten");
    try (FileSystem fs = FileSystem.get(hdfs.fs().getUri(), c)) {
      for (int round = 0; round < 3; round++) {
        long oldSeed = 100 + 2 * round;
        long newSeed = oldSeed + 1;
        cachedFile(p, oldSeed);
        hitsBeforeOpen = hits();
        overwriteSeed = newSeed;
        overwriteOnOpen = p;
        hdfs.throttle(0).setDelayPerRead(300); // the new block's DataNode (block 0 is pinned to DataNode 0)
        byte[] positional = new byte[(int) BLOCK];
        byte[] sequential = new byte[(int) BLOCK];
        try (FSDataInputStream in = fs.open(p)) {
          overwriteOnOpen = null;
          in.readFully(0, positional);
          in.seek(0);
          in.readFully(sequential);
        } finally {
          overwriteOnOpen = null;
          hdfs.throttle(0).reset();
        }
        assertEquals("round " + round + ": a positional read returned bytes of the overwritten file",
            -1, DataPattern.firstMismatch(newSeed, 0, positional, 0, positional.length));
        assertEquals("round " + round + ": a sequential read returned bytes of the overwritten file",
            -1, DataPattern.firstMismatch(newSeed, 0, sequential, 0, sequential.length));
      }
      assertTrue("the stale descriptor was noticed", ((PoCacheFileSystem) fs).staleDescriptors() >= 3);
    }
  }
}
