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
package org.pocache.hdfs.namenode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.hdfs.datanode.PoCacheDataNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerAddresses;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.redis.RedisServerFixture;
import org.pocache.testkit.redis.RespClient;

/**
 * Two nameservices (each NameNode with its own Manager) sharing one Redis, read and
 * written through a client-side ViewFs mount table whose links name the NameNodes'
 * addresses: each file goes to its own nameservice's Manager, reads are proactive, and
 * two files with the same path (and, the namespaces being alike, the same inode id) in
 * the two nameservices never share parity: their keys are under each nameservice's prefix.
 */
public class TestFederation {
  private static final long BLOCK = 256 << 10;
  private static final long FILE = 4 * BLOCK;

  @Test
  public void viewFsOverTwoNameservicesKeepsTheirParityApart() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start()) {
      Configuration conf = new Configuration();
      conf.setBoolean(PoCacheConfigKeys.ENABLED_KEY, true);
      conf.set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName());
      conf.set("dfs.datanode.plugins", PoCacheDataNodePlugin.class.getName());
      conf.set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port());
      conf.set(PoCacheConfigKeys.MANAGER_TICK_KEY, "100");
      conf.set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(64 << 10));
      conf.set(PoCacheConfigKeys.PARITY_SECRET_KEY, "1:" + java.util.Base64.getEncoder().encodeToString(
          "a federation's secret, of 32+ bytes".getBytes(StandardCharsets.US_ASCII)));
      conf.set("dfs.namenode.fs-limits.min-block-size", "0");
      conf.set(ManagerAddresses.keyFor("ns1", null), "127.0.0.1:" + FreePorts.pick());
      conf.set(ManagerAddresses.keyFor("ns2", null), "127.0.0.1:" + FreePorts.pick());
      File base = new File(System.getProperty("test.build.data", "target/test-data"), "fed-" + System.nanoTime());
      MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, base)
          .nnTopology(MiniDFSNNTopology.simpleFederatedTopology(2)).numDataNodes(5).build();
      try {
        cluster.waitActive();
        Configuration client = new Configuration(cluster.getConfiguration(0));
        URI ns1 = cluster.getURI(0);
        URI ns2 = cluster.getURI(1);
        client.set("fs.viewfs.mounttable.fed.link./one", ns1 + "/data");
        client.set("fs.viewfs.mounttable.fed.link./two", ns2 + "/data");
        client.set("fs.defaultFS", "viewfs://fed/");
        client.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
        client.setBoolean("fs.hdfs.impl.disable.cache", true);
        client.setBoolean("fs.viewfs.impl.disable.cache", true);

        List<java.net.InetSocketAddress> m1 = ManagerAddresses.of(client, ns1);
        List<java.net.InetSocketAddress> m2 = ManagerAddresses.of(client, ns2);
        assertEquals(1, m1.size());
        assertNotEquals("each nameservice has its own Manager", m1, m2);
        try (ManagerClient one = new ManagerClient(m1, client, 5000);
             ManagerClient two = new ManagerClient(m2, client, 5000);
             FileSystem view = FileSystem.get(client)) {
          for (ManagerClient m : new ManagerClient[] {one, two}) {
            GenericTestUtils.waitFor(() -> {
              try {
                return m.getReport().isRedisHealthy();
              } catch (IOException e) {
                return false;
              }
            }, 50, 30_000);
          }
          // The same path in both nameservices, different contents.
          write(view, new Path("/one/same"), 1);
          write(view, new Path("/two/same"), 2);
          ParityDescriptor d1 = awaitParity(one, "/data/same");
          ParityDescriptor d2 = awaitParity(two, "/data/same");
          System.out.printf("/one/same: file id %d under '%s'; /two/same: file id %d under '%s'%n", d1.getFileId(),
              d1.getKeyPrefix(), d2.getFileId(), d2.getKeyPrefix());
          assertNotEquals("the nameservices' parity keys are apart", d1.getKeyPrefix(), d2.getKeyPrefix());
          try (RespClient c = redis.client()) {
            assertTrue(c.call("EXISTS", d1.getKeyPrefix() + "{" + d1.getFileId() + "}:" + d1.getGeneration()
                + ":0:0:0").equals(1L));
            assertTrue(c.call("EXISTS", d2.getKeyPrefix() + "{" + d2.getFileId() + "}:" + d2.getGeneration()
                + ":0:0:0").equals(1L));
          }
          // Reads through the mount table: right bytes, proactive (parity fetched with the data).
          long before = proactiveOpens(view);
          byte[] buf = new byte[(int) FILE];
          for (int round = 0; round < 3; round++) {
            read(view, new Path("/one/same"), 1, buf);
            read(view, new Path("/two/same"), 2, buf);
          }
          long proactive = proactiveOpens(view) - before;
          System.out.printf("6 reads through ViewFs, %d proactive%n", proactive);
          assertEquals(6, proactive);
          assertTrue(one.getReport().getHits() > 0 && two.getReport().getHits() > 0);
        }
      } finally {
        cluster.shutdown();
      }
    }
  }

  /** Proactive opens summed over the POCache file systems under the mount table. */
  private static long proactiveOpens(FileSystem view) {
    long n = 0;
    for (FileSystem child : view.getChildFileSystems()) {
      if (child instanceof PoCacheFileSystem) {
        n += ((PoCacheFileSystem) child).proactiveOpens();
      }
    }
    return n;
  }

  private static ParityDescriptor awaitParity(ManagerClient m, String path) throws Exception {
    GenericTestUtils.waitFor(() -> {
      try {
        return m.getDescriptor(path).hasParity();
      } catch (IOException e) {
        return false;
      }
    }, 50, 20_000);
    return m.getDescriptor(path).getParity();
  }

  private static void write(FileSystem fs, Path p, long seed) throws IOException {
    byte[] buf = new byte[64 << 10];
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, BLOCK)) {
      for (long pos = 0; pos < FILE; pos += buf.length) {
        DataPattern.fill(seed, pos, buf, 0, buf.length);
        out.write(buf);
      }
    }
  }

  private static void read(FileSystem fs, Path p, long seed, byte[] buf) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, buf);
    }
    assertEquals(p + ": first wrong byte", -1, DataPattern.firstMismatch(seed, 0, buf, 0, buf.length));
  }
}
