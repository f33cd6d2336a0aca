package org.pocache.hdfs.datanode;

import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.util.ServicePlugin;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.server.Manager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code dfs.datanode.plugins}: every {@code dfs.pocache.datanode.heartbeat.interval.ms}
 * takes the deltas of the DataNode's BytesRead, TotalReadTime and read-op counters
 * and sends them to the Manager as one service-rate sample. An interval without
 * reads sends nothing (no evidence either way). Any failure (Manager down,
 * metrics not yet registered) is counted and logged at debug level; it never
 * affects the DataNode.
 */
public final class PoCacheDataNodePlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheDataNodePlugin.class);

  private ScheduledExecutorService timer;
  private ManagerClient client;
  private ReadCounters last;
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
      int timeout = PoCacheConfig.getInt(conf, PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_KEY,
          PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_DEFAULT, 1, 600_000);
      InetSocketAddress manager = Manager.connectAddress(conf, FileSystem.getDefaultUri(conf).getHost());
      timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "pocache-datanode-heartbeat");
        t.setDaemon(true);
        return t;
      });
      timer.scheduleWithFixedDelay(() -> beat(dn, conf, manager, timeout), interval, interval, TimeUnit.MILLISECONDS);
      LOG.info("POCache DataNode plugin: service-rate heartbeats every {} ms to the Manager at {}", interval,
          manager);
    } catch (Throwable t) {
      LOG.error("POCache DataNode plugin failed to start; the DataNode runs without it", t);
    }
  }

  private void beat(DataNode dn, Configuration conf, InetSocketAddress manager, int timeout) {
    try {
      DatanodeID id = dn.getDatanodeId();
      ReadCounters now = ReadCounters.read(dn.getMetrics().name());
      if (id == null || now == null) {
        return; // not registered yet
      }
      ReadCounters prev = last;
      last = now;
      if (prev == null || now.bytesRead <= prev.bytesRead) {
        return;
      }
      if (client == null) {
        client = new ManagerClient(manager, conf, timeout);
      }
      client.heartbeat(id.getXferAddr(), now.bytesRead - prev.bytesRead, now.readMillis - prev.readMillis,
          now.readOps - prev.readOps);
      sent.incrementAndGet();
    } catch (Throwable t) {
      failed.incrementAndGet();
      LOG.debug("POCache heartbeat to {} failed", manager, t);
      if (client != null) {
        client.close();
        client = null;
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
    if (client != null) {
      client.close();
    }
  }

  @Override
  public void close() {
    stop();
  }
}
