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
package org.pocache.testkit.redis;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A local Redis Cluster of N masters (no replicas) on free ports: N servers with
 * {@code cluster-enabled yes}, joined with {@code redis-cli --cluster create} when
 * redis-cli sits next to redis-server, else with CLUSTER ADDSLOTS and CLUSTER MEET
 * (the embedded binary comes without redis-cli). Ready when every node reports
 * {@code cluster_state:ok}. {@link #close()} stops them all.
 */
public final class RedisClusterFixture implements AutoCloseable {
  private static final int SLOTS = 16384;
  private final List<RedisServerFixture> nodes = new ArrayList<>();

  public RedisClusterFixture(int masters) throws IOException {
    try {
      for (int i = 0; i < masters; i++) {
        nodes.add(RedisServerFixture.builder().config("cluster-enabled", "yes")
            .config("cluster-config-file", "nodes.conf").config("cluster-node-timeout", "2000").start());
      }
      File cli = new File(nodes.get(0).binary().executable().getParentFile(), "redis-cli");
      if (cli.canExecute()) {
        createWithCli(cli);
      } else {
        createByHand();
      }
      awaitOk();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  public List<RedisServerFixture> nodes() {
    return nodes;
  }

  /** "127.0.0.1:p1,127.0.0.1:p2,..." */
  public String seeds() {
    StringBuilder sb = new StringBuilder();
    for (RedisServerFixture n : nodes) {
      sb.append(sb.length() == 0 ? "" : ",").append(n.host()).append(':').append(n.port());
    }
    return sb.toString();
  }

  private void createWithCli(File cli) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(cli.getPath());
    cmd.add("--cluster");
    cmd.add("create");
    for (RedisServerFixture n : nodes) {
      cmd.add(n.host() + ":" + n.port());
    }
    cmd.add("--cluster-replicas");
    cmd.add("0");
    cmd.add("--cluster-yes");
    File log = new File(nodes.get(0).dir(), "cluster-create.log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException("redis-cli --cluster create failed; see " + log);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private void createByHand() throws IOException {
    int n = nodes.size();
    for (int i = 0; i < n; i++) {
      int from = SLOTS * i / n;
      int to = SLOTS * (i + 1) / n;
      Object[] args = new Object[2 + to - from];
      args[0] = "CLUSTER";
      args[1] = "ADDSLOTS";
      for (int s = from; s < to; s++) {
        args[2 + s - from] = Integer.toString(s);
      }
      try (RespClient c = nodes.get(i).client()) {
        c.call(args);
      }
    }
    try (RespClient c = nodes.get(0).client()) {
      for (int i = 1; i < n; i++) {
        c.call("CLUSTER", "MEET", nodes.get(i).host(), Integer.toString(nodes.get(i).port()));
      }
    }
  }

  private void awaitOk() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      boolean ok = true;
      for (RedisServerFixture node : nodes) {
        try (RespClient c = node.client()) {
          ok &= c.callString("CLUSTER", "INFO").contains("cluster_state:ok");
        }
      }
      if (ok) {
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
    throw new IOException("the Redis cluster did not reach cluster_state:ok within 30 s");
  }

  @Override
  public void close() {
    for (RedisServerFixture n : nodes) {
      n.close();
    }
  }
}
