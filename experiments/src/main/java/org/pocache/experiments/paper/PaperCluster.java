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
package org.pocache.experiments.paper;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.hdfs.datanode.PoCacheDataNodePlugin;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * The in-process cluster of the experiments: a redis-server, a MiniDFSCluster whose
 * NameNode runs the Manager and whose DataNodes heartbeat to it, every DataNode's reads
 * paced at one "disk" bandwidth. Stock HDFS and POCache clients are two FileSystems on
 * the same cluster, which differ only in {@code fs.hdfs.impl}.
 */
final class PaperCluster implements AutoCloseable {
  final RedisServerFixture redis;
  final MiniHdfs hdfs;
  final int managerPort;
  final FileSystem plain;
  final FileSystem pocache;
  /** Made by {@link #client}, closed with the cluster. */
  private final List<FileSystem> clients = new java.util.ArrayList<>();

  private PaperCluster(int dataNodes, int k, Map<String, String> extra) throws IOException {
    managerPort = FreePorts.pick();
    RedisServerFixture r = RedisServerFixture.builder().start();
    MiniHdfs h = null;
    try {
      MiniHdfs.Builder b = MiniHdfs.builder().dataNodes(dataNodes)
          .set(PoCacheConfigKeys.REDIS_HOSTS_KEY, r.host() + ":" + r.port())
          .set(PoCacheConfigKeys.ENABLED_KEY, "true")
          .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
          .set("dfs.datanode.plugins", PoCacheDataNodePlugin.class.getName())
          .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + managerPort);
      // POCache at its shipped defaults but for the keys below, which the run prints.
      Map<String, String> changed = new java.util.LinkedHashMap<>();
      if (!Integer.toString(k).equals(PoCacheConfigKeys.CODE_K_DEFAULT)) {
        changed.put(PoCacheConfigKeys.CODE_K_KEY, Integer.toString(k));
      }
      // HDFS's, in both modes alike: a close retries completeFile after 400 ms when the
      // block report is late, a random +400 ms on single writes.
      changed.put("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
      changed.putAll(extra);
      System.out.println("Keys changed from the defaults: " + changed);
      for (Map.Entry<String, String> e : changed.entrySet()) {
        b.set(e.getKey(), e.getValue());
      }
      h = b.start();
      Configuration pc = h.conf();
      pc.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
      plain = FileSystem.newInstance(h.fs().getUri(), h.conf());
      pocache = FileSystem.newInstance(h.fs().getUri(), pc);
    } catch (IOException | RuntimeException e) {
      if (h != null) {
        h.close();
      }
      r.close();
      throw e;
    }
    redis = r;
    hdfs = h;
  }

  static Builder builder() {
    return new Builder();
  }

  static final class Builder {
    private int dataNodes = 5;
    private int k = 4;
    private final Map<String, String> extra = new LinkedHashMap<>();

    Builder dataNodes(int n) {
      dataNodes = n;
      return this;
    }

    Builder k(int n) {
      k = n;
      return this;
    }

    Builder set(String key, String value) {
      extra.put(key, value);
      return this;
    }

    PaperCluster start() throws IOException {
      return new PaperCluster(dataNodes, k, extra);
    }
  }

  ManagerClient manager() throws IOException {
    return new ManagerClient(new InetSocketAddress("127.0.0.1", managerPort), hdfs.conf(), 10_000);
  }

  /** Asks the Manager to fill each file's parity (an operator's -prefetch) and waits until all are cached. */
  void cache(List<Path> files) throws IOException {
    try (ManagerClient m = manager()) {
      org.pocache.experiments.BaselineDriver.awaitParity(m, files);
    }
  }

  /** A POCache client of its own, with {@code keyValues} (key, value, ...) set over the cluster's conf. */
  FileSystem client(String... keyValues) throws IOException {
    Configuration pc = new Configuration(hdfs.conf());
    pc.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      pc.set(keyValues[i], keyValues[i + 1]);
    }
    FileSystem fs = FileSystem.newInstance(hdfs.fs().getUri(), pc);
    clients.add(fs);
    return fs;
  }

  @Override
  public void close() throws IOException {
    try {
      for (FileSystem fs : clients) {
        fs.close();
      }
      plain.close();
      pocache.close();
      hdfs.close();
    } finally {
      redis.close();
    }
  }
}
