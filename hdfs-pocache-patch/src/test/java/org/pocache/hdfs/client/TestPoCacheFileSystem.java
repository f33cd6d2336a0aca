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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.hdfs.MiniHdfs;

/**
 * The client hook: an application that gets its FileSystem from a configuration
 * with fs.hdfs.impl set gets PoCacheFileSystem, and with POCache off it reads and
 * writes exactly what HDFS does.
 */
public class TestPoCacheFileSystem {
  private static final long BLOCK = 1 << 20;
  private static MiniHdfs hdfs;

  @BeforeClass
  public static void startCluster() throws Exception {
    hdfs = MiniHdfs.builder().dataNodes(3).start();
  }

  @AfterClass
  public static void stopCluster() throws Exception {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  private static Configuration hookedConf(String enabled) {
    Configuration conf = hdfs.conf();
    conf.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
    if (enabled != null) {
      conf.set("dfs.pocache.enabled", enabled);
    }
    return conf;
  }

  @Test
  public void configurationSelectsItAndDataIsUnchanged() throws Exception {
    for (String enabled : new String[] {null, "false", "true"}) {
      Path p = new Path("/hook/file-" + enabled);
      long length = 3 * BLOCK + 4321;
      hdfs.writePinnedFile(p, BLOCK, length, 77, b -> new int[] {b % 3});
      try (FileSystem fs = FileSystem.newInstance(hdfs.fs().getUri(), hookedConf(enabled))) {
        assertTrue(fs.getClass().getName(), fs instanceof PoCacheFileSystem);
        assertEquals("true".equals(enabled), ((PoCacheFileSystem) fs).isPoCacheEnabled());
        assertEquals(length, fs.getFileStatus(p).getLen());

        byte[] seq = new byte[(int) length];
        try (FSDataInputStream in = fs.open(p)) {
          in.readFully(seq);
          assertEquals(-1, in.read());
        }
        assertEquals(-1, DataPattern.firstMismatch(77, 0, seq, 0, seq.length));

        // Concurrent preads on one stream, one per block.
        byte[] par = new byte[(int) length];
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (FSDataInputStream in = fs.open(p)) {
          List<Future<?>> reads = new ArrayList<>();
          for (long pos = 0; pos < length; pos += BLOCK) {
            final long at = pos;
            final int len = (int) Math.min(BLOCK, length - pos);
            reads.add(pool.submit(() -> {
              in.readFully(at, par, (int) at, len);
              return null;
            }));
          }
          for (Future<?> f : reads) {
            f.get();
          }
        } finally {
          pool.shutdownNow();
        }
        assertEquals(-1, DataPattern.firstMismatch(77, 0, par, 0, par.length));

        Path copy = new Path("/hook/written-through-" + enabled);
        try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(copy)) {
          out.write(seq);
        }
        byte[] back = new byte[(int) length];
        try (FSDataInputStream in = hdfs.fs().open(copy)) {
          in.readFully(back);
        }
        assertEquals(-1, DataPattern.firstMismatch(77, 0, back, 0, back.length));
      }
    }
  }

  @Test
  public void aBadSwitchValueFailsNamingTheKey() throws Exception {
    try (FileSystem fs = FileSystem.newInstance(hdfs.fs().getUri(), hookedConf("yes-please"))) {
      fail("initialized with dfs.pocache.enabled=yes-please: " + fs);
    } catch (IllegalArgumentException e) {
      assertEquals("dfs.pocache.enabled must be true or false, got 'yes-please'", e.getMessage());
    }
  }
}
