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
package org.pocache.hdfs.datanode;

import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.util.ServicePlugin;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ManagerAddresses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.pocache.cache.DaemonThreads;

/**
 * {@code dfs.datanode.plugins}: every {@code dfs.pocache.datanode.heartbeat.interval.ms}
 * sends the Manager one service-rate sample of the DataNode's reads in that interval:
 * the packets its reads sent and the mean time a packet took to go out (disk and
 * network, as the socket drained), so a slow read counts while it runs, not only
 * when it ends (a 16 MB block at 1 MB/s ends once in 16 s); where reads do not use
 * transferTo, the deltas of BytesRead and TotalReadTime of the reads that ended. An
 * interval without reads sends nothing (no evidence either way). A heartbeat waits up to
 * two intervals for the Manager and a failed one is folded into the next. Any failure (Manager down,
 * metrics not yet registered) is counted and logged at debug level; it never
 * affects the DataNode.
 */
public final class PoCacheDataNodePlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheDataNodePlugin.class);

  private ScheduledExecutorService timer;
  /** One per Manager: each NameNode of each nameservice this DataNode serves. */
  private volatile java.util.List<Target> targets = java.util.Collections.emptyList();
  private ReadCounters last;
  private long lastAtNanos;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  @Override
  public void start(Object service) {
    try {
      DataNode dn = (DataNode) service;
      Configuration conf = dn.getConf();
      if (!PoCacheConfig.isEnabled(conf)) {
        LOG.info("POCache is disabled ({}=false); the DataNode plugin stays idle", PoCacheConfigKeys.ENABLED_KEY);
        return;
      }
      int interval = PoCacheConfig.getInt(conf, PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY,
          PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_DEFAULT, 10, 3_600_000);
      // Heartbeats run on a thread of their own that no read waits for, so they wait up to
      // two intervals for the Manager rather than the read path's short timeout, and skip no
      // period after a failure: a straggler's heartbeat stuck behind its own backlog for
      // a few seconds is the very sample the Manager needs, and under the read path's
      // rules it was dropped and the next ones skipped for ten seconds.
      int timeout = Math.max(2 * interval, PoCacheConfig.getInt(conf, PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_KEY,
          PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_DEFAULT, 1, 600_000));
      java.util.List<InetSocketAddress> managers = ManagerAddresses.all(conf);
      Configuration c = new Configuration(conf);
      c.setInt(PoCacheConfigKeys.MANAGER_BREAKER_OPEN_KEY, 0);
      java.util.List<Target> t = new java.util.ArrayList<>();
      for (InetSocketAddress m : managers) {
        t.add(new Target(m, c, timeout));
      }
      targets = t;
      timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("pocache-datanode-heartbeat"));
      timer.scheduleWithFixedDelay(() -> beat(dn), interval, interval, TimeUnit.MILLISECONDS);
      LOG.info("POCache DataNode plugin: service-rate heartbeats every {} ms to the Manager{} at {}", interval,
          managers.size() == 1 ? "" : "s", managers.size() == 1 ? managers.get(0) : managers);
    } catch (Throwable t) {
      LOG.error("POCache DataNode plugin failed to start; the DataNode runs without it", t);
    }
  }

  private void beat(DataNode dn) {
    try {
      DatanodeID id = dn.getDatanodeId();
      ReadCounters now = ReadCounters.read(dn.getMetrics().name());
      if (id == null || now == null) {
        return; // not registered yet
      }
      ReadCounters prev = last;
      long at = System.nanoTime();
      long intervalNanos = at - lastAtNanos;
      if (prev == null) {
        last = now;
        lastAtNanos = at;
        return;
      }
      long bytes;
      double millis;
      long packets = now.packets >= 0 && prev.packets >= 0 ? now.packets - prev.packets : 0;
      if (packets > 0) {
        // The pace of every read that sent data this interval, finished or not. Packets
        // of concurrent reads overlap: their summed time past the interval is not the
        // DataNode's, or four readers sharing a healthy link would look four times slower.
        bytes = packets * ReadCounters.PACKET_BYTES;
        millis = Math.min(packets * now.nanosPerPacket, intervalNanos) / 1e6;
      } else if (now.bytesRead > prev.bytesRead) {
        // Reads without transferTo (encrypted transfer, transferTo off): whole reads that ended.
        bytes = now.bytesRead - prev.bytesRead;
        millis = now.readMillis - prev.readMillis;
      } else {
        millis = 0;
        bytes = 0;
      }
      if (!(millis > 0)) {
        last = now;
        lastAtNanos = at;
        return;
      }
      last = now;
      lastAtNanos = at;
      for (Target t : targets) {
        t.offer(id.getXferAddr(), bytes, millis, now.readOps - prev.readOps);
      }
    } catch (Throwable t) {
      failed.incrementAndGet();
      LOG.debug("POCache heartbeat sample not taken", t);
    }
  }

  /**
   * The heartbeats to one Manager, sent on a thread of their own, so that a Manager that
   * does not answer (a NameNode that is down) delays no other. A sample that was not
   * delivered is folded into the next one to the same Manager, up to {@link #MAX_FOLDED}
   * intervals (then dropped: the Manager has been away too long for it to matter).
   */
  private final class Target {
    private static final int MAX_FOLDED = 5;
    private final InetSocketAddress address;
    private final Configuration conf;
    private final int timeout;
    private final java.util.concurrent.ExecutorService sender;
    /** Made on the sender thread at the first send. */
    private ManagerClient client;
    private long bytes;
    private double millis;
    private long ops;
    private int folded;
    /** Raised when undelivered samples are dropped: a send of what was taken before then takes nothing off. */
    private long dropped;
    private boolean queued;

    Target(InetSocketAddress address, Configuration conf, int timeout) {
      this.address = address;
      this.conf = conf;
      this.timeout = timeout;
      this.sender = Executors.newSingleThreadExecutor(DaemonThreads.named("pocache-heartbeat-" + address.getPort()));
    }

    void offer(String dataNode, long b, double ms, long o) {
      synchronized (this) {
        if (folded >= MAX_FOLDED) {
          bytes = 0;
          millis = 0;
          ops = 0;
          folded = 0;
          dropped++;
        }
        bytes += b;
        millis += ms;
        ops += o;
        folded++;
        if (queued) {
          return; // the sender is still busy with an earlier one: this is sent with it
        }
        queued = true;
      }
      try {
        sender.execute(() -> send(dataNode));
      } catch (java.util.concurrent.RejectedExecutionException stopped) {
        // the plugin is stopping
      }
    }

    private void send(String dataNode) {
      long b;
      double ms;
      long o;
      long drops;
      synchronized (this) {
        b = bytes;
        ms = millis;
        o = ops;
        drops = dropped;
        queued = false;
      }
      try {
        if (client == null) {
          client = new ManagerClient(address, conf, timeout);
        }
        client.heartbeat(dataNode, b, ms, o);
        synchronized (this) {
          // What was sent is taken off what has gathered since, unless that was dropped while
          // the send waited on a Manager that was away (taken off then, it would go negative).
          if (dropped == drops) {
            bytes -= b;
            millis -= ms;
            ops -= o;
          }
          folded = 0;
        }
        sent.incrementAndGet();
      } catch (Throwable t) {
        failed.incrementAndGet();
        LOG.debug("POCache heartbeat to {} failed", address, t);
      }
    }

    void stop() {
      sender.shutdownNow();
      ManagerClient c = client;
      if (c != null) {
        c.close();
      }
    }
  }

  /** Heartbeats sent and failed so far. */
  public long sent() {
    return sent.get();
  }

  public long failed() {
    return failed.get();
  }

  @Override
  public void stop() {
    if (timer != null) {
      timer.shutdownNow();
    }
    for (Target t : targets) {
      t.stop();
    }
  }

  @Override
  public void close() {
    stop();
  }
}
