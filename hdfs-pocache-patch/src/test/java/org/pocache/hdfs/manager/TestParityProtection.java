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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.cache.ParityProtection;
import org.pocache.cache.RedisParityStore;
import org.pocache.cache.RedisSettings;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * Parity protection (privacy) against an attacker who holds the Redis password, as
 * every client does, and may read the attacked file, so holds its file key too: a
 * value he writes with valid CRCs, sealed under the file key, is not read back; what
 * Redis holds reveals neither a short file's bytes nor the cached paths.
 */
public class TestParityProtection {
  private static final long BLOCK = 1 << 20;
  private static final int SUBBLOCK = 256 << 10;
  private static RedisServerFixture redis;
  private static MiniHdfs hdfs;
  private static ManagerClient manager;
  private static FileSystem fs;

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
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(SUBBLOCK))
        .set(PoCacheConfigKeys.CSAC_ADMISSION_KEY, "cache-upon-access")
        .set(PoCacheConfigKeys.PARITY_PROTECTION_KEY, "privacy")
        // The one-block file below is filled on its first lookup, with no straggler listed.
        .set(PoCacheConfigKeys.CACHE_READ_MIN_BLOCKS_KEY, "1")
        .start();
    manager = new ManagerClient(new InetSocketAddress("127.0.0.1", port), hdfs.conf(), 5000);
    GenericTestUtils.waitFor(() -> {
      try {
        return manager.getReport().isRedisHealthy();
      } catch (Exception e) {
        return false;
      }
    }, 50, 10_000);
    Configuration c = new Configuration(hdfs.conf());
    c.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    fs = FileSystem.get(hdfs.fs().getUri(), c);
  }

  @AfterClass
  public static void stop() throws Exception {
    for (AutoCloseable a : new AutoCloseable[] {fs, manager, hdfs, redis}) {
      if (a != null) {
        a.close();
      }
    }
  }

  private static ParityDescriptor cachedFile(Path p, long seed) throws Exception {
    hdfs.writePinnedFile(p, BLOCK, 4, seed);
    manager.prefetch(p.toString());
    GenericTestUtils.waitFor(() -> {
      try {
        return manager.getDescriptor(p.toString()).hasParity();
      } catch (Exception e) {
        return false;
      }
    }, 50, 20_000);
    return manager.getDescriptor(p.toString()).getParity();
  }

  @Test
  public void aReaderCannotForgeTheParityOfAFileHeMayRead() throws Exception {
    Path p = new Path("/protected/shared");
    ParityDescriptor d = cachedFile(p, 21);
    // What bob, a reader of the file, holds: its descriptor with the file key and digests.
    assertEquals(ParityProtection.PRIVACY, d.getProtection());
    assertEquals(32, d.getSealKey().length);
    assertTrue(d.getValueDigests().length > 0);

    // He wants block 2 to read as his bytes: the true file with block 2 replaced, encoded
    // under the file's code and sealed under its key, data CRCs and all.
    byte[] evil = new byte[(int) (4 * BLOCK)];
    DataPattern.fill(21, 0, evil, 0, evil.length);
    Arrays.fill(evil, (int) (2 * BLOCK), (int) (3 * BLOCK), (byte) 'X');
    Path staged = new Path("/protected/bobs-bytes");
    try (FSDataOutputStream out = hdfs.fs().create(staged)) {
      out.write(evil);
    }
    try (RedisParityStore store = RedisParityStore.connect(RedisSettings.from(hdfs.conf()::get))) {
      ParityUploader.upload(hdfs.fs(), staged, d, evil.length, store);
    }

    // DataNode 2 stalls, so parity is the faster source of block 2 for carol's read.
    hdfs.throttle(2).setDelayPerRead(500);
    try {
      byte[] buf = new byte[evil.length];
      try (FSDataInputStream in = fs.open(p)) {
        in.readFully(0, buf);
      }
      assertEquals("first byte that is not HDFS's", -1, DataPattern.firstMismatch(21, 0, buf, 0, buf.length));
    } finally {
      hdfs.throttle(2).reset();
    }
    // The Manager was told the values were bad and drops them.
    GenericTestUtils.waitFor(() -> {
      try {
        ParityDescriptor now = manager.getDescriptor(p.toString()).getParity();
        return now == null || now.getGeneration() != d.getGeneration();
      } catch (Exception e) {
        return false;
      }
    }, 50, 10_000);
  }

  @Test
  public void redisHoldsNeitherAShortFilesBytesNorItsPath() throws Exception {
    // One block of one repeated byte: unprotected, its parity is that byte times a
    // constant, so the value would show a long run of one byte.
    Path p = new Path("/protected/alice-private-notes");
    byte[] data = new byte[(int) BLOCK];
    Arrays.fill(data, (byte) 'A');
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(data);
    }
    GenericTestUtils.waitFor(() -> {
      try {
        return manager.getDescriptor(p.toString()).hasParity();
      } catch (Exception e) {
        return false;
      }
    }, 50, 20_000);
    ParityDescriptor d = manager.getDescriptor(p.toString()).getParity();
    try (org.pocache.testkit.redis.RespClient r = redis.client()) {
      byte[] value = (byte[]) r.call("GET", "pocache:{" + d.getFileId() + "}:" + d.getGeneration() + ":0:0:0");
      assertNotNull(value);
      assertEquals("a run of equal bytes survived in the stored value", 0, longRuns(value, 32));
      @SuppressWarnings("unchecked")
      List<Object> index = (List<Object>) r.call("HGETALL", "pocache:manager-index");
      assertFalse(index.isEmpty());
      for (Object o : index) {
        String s = new String((byte[]) o, StandardCharsets.ISO_8859_1);
        assertFalse("the index lists a cached path in clear: " + s, s.contains("alice-private-notes"));
      }
    }
    // And the owner still reads it.
    byte[] back = new byte[data.length];
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, back);
    }
    assertArrayEquals(data, back);
  }

  private static int longRuns(byte[] v, int len) {
    int runs = 0;
    int run = 1;
    for (int i = 1; i < v.length; i++) {
      run = v[i] == v[i - 1] ? run + 1 : 1;
      if (run == len) {
        runs++;
      }
    }
    return runs;
  }
}
