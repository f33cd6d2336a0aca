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

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.ServicePlugin;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerAddresses;
import org.pocache.manager.server.Manager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.TokenIdentifier;

/**
 * {@code dfs.namenode.plugins}: starts the POCache Manager inside the NameNode
 * when {@code dfs.pocache.enabled} is true. The Manager sees the namespace through
 * the NameNode's own RPC server ({@link ClientProtocolNamespace}). Any failure, at start or later, is
 * contained and logged: the NameNode never goes down because of POCache.
 *
 * <p>In an HA pair both NameNodes load the plugin; each Manager listens on
 * {@code dfs.pocache.manager.address.<ns>.<nn>} (else {@code dfs.pocache.manager.address})
 * and serves only while its NameNode is active.
 */
public final class PoCacheNameNodePlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheNameNodePlugin.class);
  private volatile Manager manager;
  private volatile StripePlacementPolicy placement;

  @Override
  public void start(Object service) {
    try {
      NameNode nn = (NameNode) service;
      Configuration conf = nn.getConf();
      if (!PoCacheConfig.isEnabled(conf)) {
        LOG.info("POCache is disabled ({}=false); the Manager is not started", PoCacheConfigKeys.ENABLED_KEY);
        return;
      }
      // Called on the Manager's RPC handler threads, the NameNode's RPC server checks
      // permissions as the Manager RPC's caller; on its own threads, as the NameNode.
      // The NameNode closes its namesystem before it stops plugins: housekeeping in between
      // would fail on it, so the namespace says when it is going away.
      // Under Kerberos, tasks (which hold HDFS delegation tokens, not tickets) authenticate
      // to the Manager with the NameNode's own tokens, checked by its secret manager.
      SecretManager<? extends TokenIdentifier> tokens =
          org.apache.hadoop.security.UserGroupInformation.isSecurityEnabled() ? delegationTokens(nn) : null;
      String[] ids = haIds(conf);
      Configuration own = new Configuration(conf);
      java.net.InetSocketAddress bind = ManagerAddresses.bindAddress(conf, ids[0], ids[1]);
      own.set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, bind.getHostString() + ":" + bind.getPort());
      if (ids[0] != null) {
        // Nameservices share a Redis without sharing inode ids: each has its own key space.
        own.set(PoCacheConfigKeys.REDIS_KEY_PREFIX_KEY, keyPrefixOf(conf, ids[0]));
      }
      boolean ha = ids[1] != null;
      if (ha) {
        warnIfSecretNotShared(conf, ids);
      }
      manager = Manager.start(own, new ClientProtocolNamespace(nn::getRpcServer,
          () -> nn.getNamesystem() != null && nn.getNamesystem().isRunning(), id -> pathOf(nn, id)), tokens,
          nn::isActiveState);
      LOG.info("POCache Manager listening on {}{}", manager.address(), ha ? " for NameNode " + ids[1] + " of "
          + ids[0] + "; it serves while that NameNode is active"
          : ids[0] != null ? " for nameservice " + ids[0] : "");
      keepNewBlocksOffStragglers(nn, manager);
    } catch (Throwable t) {
      LOG.error("POCache Manager failed to start; the NameNode continues without it", t);
    }
  }

  /**
   * This NameNode's nameservice and, in an HA pair, its NameNode id (each null when there
   * is none), as HDFS itself finds them: from {@code dfs.nameservice.id} and
   * {@code dfs.ha.namenode.id}, or by matching the listed addresses to this host.
   */
  private static String[] haIds(Configuration conf) {
    String ns = null;
    String nnId = null;
    try {
      ns = org.apache.hadoop.hdfs.DFSUtil.getNamenodeNameServiceId(conf);
      if (ns != null && org.apache.hadoop.hdfs.HAUtil.isHAEnabled(conf, ns)) {
        nnId = org.apache.hadoop.hdfs.HAUtil.getNameNodeId(conf, ns);
      }
    } catch (RuntimeException | LinkageError e) {
      LOG.warn("POCache cannot tell this NameNode's nameservice and HA id ({}); its Manager listens on {}",
          e.toString(), PoCacheConfigKeys.MANAGER_ADDRESS_KEY);
    }
    return new String[] {ns, nnId};
  }

  /**
   * The Redis key prefix of nameservice {@code ns}'s parity and index:
   * {@code dfs.pocache.redis.key.prefix.<ns>} if set, else {@code dfs.pocache.redis.key.prefix}
   * followed by {@code <ns>:}. Both NameNodes of an HA pair use the same; clients take it
   * from the descriptors.
   */
  static String keyPrefixOf(Configuration conf, String ns) {
    String own = conf.getTrimmed(PoCacheConfigKeys.REDIS_KEY_PREFIX_KEY + "." + ns, "");
    return !own.isEmpty() ? own : conf.getTrimmed(PoCacheConfigKeys.REDIS_KEY_PREFIX_KEY,
        PoCacheConfigKeys.REDIS_KEY_PREFIX_DEFAULT) + ns + ":";
  }

  /**
   * The two Managers of an HA pair open each other's parity only under a secret both are
   * given: one made at start would make every failover drop the cache. Said once at WARN.
   */
  private static void warnIfSecretNotShared(Configuration conf, String[] ids) {
    String protection = conf.getTrimmed(PoCacheConfigKeys.PARITY_PROTECTION_KEY, "");
    boolean none = "none".equalsIgnoreCase(protection);
    boolean file = !conf.getTrimmed(PoCacheConfigKeys.PARITY_SECRET_FILE_KEY, "").isEmpty();
    boolean secret;
    try {
      char[] c = conf.getPassword(PoCacheConfigKeys.PARITY_SECRET_KEY);
      secret = c != null && c.length > 0;
    } catch (java.io.IOException e) {
      secret = false;
    }
    if (!none && !file && !secret) {
      LOG.warn("POCache: NameNode {} of {} is one of an HA pair but no parity secret is configured ({} or {}): each"
          + " Manager makes its own, cannot open the other's parity, and a failover drops the cache. Give both"
          + " NameNodes the same secret", ids[1], ids[0], PoCacheConfigKeys.PARITY_SECRET_FILE_KEY,
          PoCacheConfigKeys.PARITY_SECRET_KEY);
    }
  }

  /** With {@link StripePlacementPolicy} as this NameNode's placement, it reads the Manager's straggler list. */
  private void keepNewBlocksOffStragglers(NameNode nn, Manager m) {
    try {
      Object policy = nn.getNamesystem().getBlockManager().getBlockPlacementPolicy();
      if (policy instanceof StripePlacementPolicy) {
        org.pocache.manager.server.StragglerMonitor list = m.stragglers();
        placement = (StripePlacementPolicy) policy;
        placement.avoidStragglers(() -> list.getStragglers().dataNodes);
        LOG.info("POCache stripe placement keeps new blocks off the DataNodes on the straggler list");
      }
    } catch (RuntimeException | LinkageError e) {
      LOG.warn("POCache stripe placement does not see the straggler list ({}); new blocks may land on stragglers",
          e.toString());
    }
  }

  /** The inode's full path, from the NameNode's directory under its read lock; null if it is gone. */
  private static String pathOf(NameNode nn, long id) {
    org.apache.hadoop.hdfs.server.namenode.FSNamesystem fsn = nn.getNamesystem();
    if (fsn == null) {
      return null;
    }
    fsn.readLock();
    try {
      org.apache.hadoop.hdfs.server.namenode.INode inode = fsn.getFSDirectory().getInode(id);
      return inode == null ? null : inode.getFullPathName();
    } finally {
      fsn.readUnlock();
    }
  }

  /**
   * The NameNode's delegation token secret manager (package-private in FSNamesystem, so
   * reached reflectively), or null, said once, if this Hadoop has none to offer: tasks
   * then fall back to plain HDFS reads.
   */
  @SuppressWarnings("unchecked")
  private static SecretManager<? extends TokenIdentifier> delegationTokens(NameNode nn) {
    try {
      java.lang.reflect.Method m = nn.getNamesystem().getClass().getDeclaredMethod("getDelegationTokenSecretManager");
      m.setAccessible(true);
      return (SecretManager<? extends TokenIdentifier>) m.invoke(nn.getNamesystem());
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.info("POCache Manager accepts Kerberos tickets but not HDFS delegation tokens ({}): tasks read without"
          + " parity", e.toString());
      return null;
    }
  }

  /** The running Manager, or null. */
  public Manager manager() {
    return manager;
  }

  @Override
  public void stop() {
    Manager m = manager;
    manager = null;
    StripePlacementPolicy p = placement;
    placement = null;
    if (p != null) {
      p.avoidStragglers(null);
    }
    if (m != null) {
      try {
        m.close();
      } catch (Throwable t) {
        LOG.warn("POCache Manager did not stop cleanly", t);
      }
    }
  }

  @Override
  public void close() {
    stop();
  }
}
