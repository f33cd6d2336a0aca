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
package org.pocache.hdfs;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.test.GenericTestUtils;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.server.Manager;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * POCache as an operator runs it, in one JVM: a MiniDFSCluster whose NameNode hosts
 * the Manager (plugin), a real redis-server, and clients with {@code fs.hdfs.impl} =
 * {@link PoCacheFileSystem}. The shared fixture of the client and Manager tests:
 * {@link #cachedPinnedFile} writes block i on DataNode i and has the Manager's fill
 * worker cache the parity, {@link #client} opens a POCache client with extra keys.
 * Closing it closes every client it made, then HDFS, then Redis.
 */
public final class PoCacheMiniCluster implements AutoCloseable {
  public final RedisServerFixture redis;
  public final MiniHdfs hdfs;
  /** The Manager's RPC port. */
  public final int port;
  private final List<java.io.Closeable> opened = new ArrayList<>();
  private ManagerClient manager;

  /** Keys and DataNodes; {@link #start} starts Redis, HDFS and the Manager and waits until it serves. */
  public static final class Builder {
    private int dataNodes = 4;
    private boolean awaitServing = true;
    private final Map<String, String> keys = new LinkedHashMap<>();

    private Builder() {
      keys.put(PoCacheConfigKeys.ENABLED_KEY, "true");
      keys.put("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName());
      keys.put(PoCacheConfigKeys.MANAGER_TICK_KEY, "100");
      keys.put("dfs.namenode.fs-limits.min-block-size", "0");
    }

    public Builder dataNodes(int n) {
      dataNodes = n;
      return this;
    }

    /** Whether {@link #start} waits until the Manager serves (default); not for tests of a Manager that cannot. */
    public Builder awaitServing(boolean wait) {
      awaitServing = wait;
      return this;
    }

    /** A key for every daemon and client of the cluster (hdfs-site.xml, as it were). */
    public Builder set(String key, String value) {
      keys.put(key, value);
      return this;
    }

    public PoCacheMiniCluster start() throws Exception {
      int port = FreePorts.pick();
      RedisServerFixture redis = RedisServerFixture.builder().start();
      MiniHdfs hdfs = null;
      try {
        MiniHdfs.Builder b = MiniHdfs.builder().dataNodes(dataNodes)
            .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + port)
            .set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port());
        for (Map.Entry<String, String> e : keys.entrySet()) {
          b.set(e.getKey(), e.getValue());
        }
        hdfs = b.start();
        PoCacheMiniCluster c = new PoCacheMiniCluster(redis, hdfs, port);
        boolean hosted = keys.get("dfs.namenode.plugins").contains(PoCacheNameNodePlugin.class.getName());
        if (hosted && c.plugin().manager() == null) {
          throw new IllegalStateException("the POCache Manager did not start in the NameNode (port " + port
              + "); the NameNode log above says why");
        }
        if (hosted && awaitServing) {
          c.waitUntilServing();
        }
        return c;
      } catch (Exception | Error e) {
        try {
          if (hdfs != null) {
            hdfs.close();
          }
        } finally {
          redis.close();
        }
        throw e;
      }
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  private PoCacheMiniCluster(RedisServerFixture redis, MiniHdfs hdfs, int port) {
    this.redis = redis;
    this.hdfs = hdfs;
    this.port = port;
  }

  public InetSocketAddress managerAddress() {
    return new InetSocketAddress("127.0.0.1", port);
  }

  /** A client of the Manager, shared by the test and closed with the cluster. */
  public synchronized ManagerClient manager() throws IOException {
    if (manager == null) {
      manager = new ManagerClient(managerAddress(), hdfs.conf(), 5000);
    }
    return manager;
  }

  /** Waits until the Manager serves descriptors (Redis connected, index rebuilt). */
  public void waitUntilServing() throws Exception {
    ManagerClient m = manager();
    GenericTestUtils.waitFor(() -> {
      try {
        return m.getReport().isRedisHealthy();
      } catch (IOException e) {
        return false;
      }
    }, 20, 30_000);
  }

  /** The Manager inside the NameNode. */
  public Manager managerInProcess() {
    return plugin().manager();
  }

  /** The NameNode's POCache plugin. */
  @SuppressWarnings("unchecked")
  public PoCacheNameNodePlugin plugin() {
    try {
      java.lang.reflect.Field f = NameNode.class.getDeclaredField("plugins");
      f.setAccessible(true); // Hadoop keeps its plugins private; tests need ours
      for (Object p : (List<Object>) f.get(hdfs.cluster().getNameNode())) {
        if (p instanceof PoCacheNameNodePlugin) {
          return (PoCacheNameNodePlugin) p;
        }
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    throw new IllegalStateException("no POCache plugin in the NameNode");
  }

  /** A client FileSystem with fs.hdfs.impl = PoCacheFileSystem (a new instance), plus {@code extra} key-value pairs. */
  public PoCacheFileSystem client(String... extra) throws IOException {
    Configuration conf = new Configuration(hdfs.conf());
    conf.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    for (int i = 0; i + 1 < extra.length; i += 2) {
      conf.set(extra[i], extra[i + 1]);
    }
    PoCacheFileSystem fs = (PoCacheFileSystem) FileSystem.get(hdfs.fs().getUri(), conf);
    synchronized (this) {
      opened.add(fs);
    }
    return fs;
  }

  /**
   * Writes {@code blocks} blocks of {@code blockSize} with block i on DataNode i
   * (replication 1, contents {@code DataPattern} of {@code seed}) and has the Manager's
   * fill worker cache its parity; returns the descriptor readers will get.
   */
  public ParityDescriptor cachedPinnedFile(Path p, long blockSize, int blocks, long seed) throws Exception {
    hdfs.writePinnedFile(p, blockSize, blocks, seed);
    ManagerClient m = manager();
    m.prefetch(p.toUri().getPath());
    awaitParity(m, p, 20_000);
    return m.getDescriptor(p.toUri().getPath()).getParity();
  }

  /** Waits until the Manager serves parity for {@code p} (a fill or a reader's fill committed). */
  public static void awaitParity(ManagerClient m, Path p, int timeoutMillis) throws Exception {
    GenericTestUtils.waitFor(() -> {
      try {
        return m.getDescriptor(p.toUri().getPath()).hasParity();
      } catch (IOException e) {
        return false;
      }
    }, 20, timeoutMillis);
  }

  @Override
  public void close() throws IOException {
    try {
      List<java.io.Closeable> all;
      synchronized (this) {
        all = new ArrayList<>(opened);
        if (manager != null) {
          all.add(manager);
        }
      }
      for (java.io.Closeable c : all) {
        c.close();
      }
    } finally {
      try {
        hdfs.close();
      } finally {
        redis.close();
      }
    }
  }
}
