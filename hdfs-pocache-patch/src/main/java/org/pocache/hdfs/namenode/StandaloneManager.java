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

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.server.Manager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Manager beside a NameNode that cannot be touched ({@code pocache manager}).
 * It sees HDFS through NameNode RPCs: as itself for its own work, and as a proxy
 * user for each caller, so the NameNode checks the caller's permissions. The
 * NameNode must let the Manager's user impersonate
 * ({@code hadoop.proxyuser.<user>.hosts} / {@code .groups} in core-site.xml), just
 * as for HttpFS.
 */
public final class StandaloneManager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StandaloneManager.class);
  private static final int MAX_CLIENTS = 1024;

  private final Configuration conf;
  private final URI fsUri;
  private final DFSClient own;
  private final Map<String, DFSClient> perUser = new ConcurrentHashMap<>();
  private final Manager manager;

  /** Connects to the default file system's NameNode and starts the Manager. */
  public StandaloneManager(Configuration conf) throws IOException {
    this.conf = conf;
    this.fsUri = FileSystem.getDefaultUri(conf);
    if (!"hdfs".equals(fsUri.getScheme())) {
      throw new IllegalArgumentException("fs.defaultFS must be an hdfs:// URI for the standalone Manager, got "
          + fsUri);
    }
    this.own = new DFSClient(fsUri, conf);
    Manager m;
    try {
      m = Manager.start(conf, new ClientProtocolNamespace(this::namenodeForCaller));
    } catch (IOException | RuntimeException e) {
      own.close();
      throw e;
    }
    this.manager = m;
  }

  public Manager manager() {
    return manager;
  }

  /** The NameNode as the current Manager RPC's caller (a proxy user), or as the Manager itself. */
  private ClientProtocol namenodeForCaller() throws IOException {
    UserGroupInformation caller = Server.getRemoteUser();
    UserGroupInformation me = UserGroupInformation.getLoginUser();
    if (caller == null || caller.getShortUserName().equals(me.getShortUserName())) {
      return own.getNamenode();
    }
    String user = caller.getShortUserName();
    DFSClient c = perUser.get(user);
    if (c == null) {
      if (perUser.size() >= MAX_CLIENTS) {
        closeUserClients();
      }
      UserGroupInformation proxy = UserGroupInformation.createProxyUser(user, me);
      try {
        c = proxy.doAs((PrivilegedExceptionAction<DFSClient>) () -> new DFSClient(fsUri, conf));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while connecting to the NameNode as " + user, e);
      }
      DFSClient raced = perUser.putIfAbsent(user, c);
      if (raced != null) {
        c.close();
        c = raced;
      }
    }
    return c.getNamenode();
  }

  private void closeUserClients() {
    for (DFSClient c : perUser.values()) {
      try {
        c.close();
      } catch (IOException e) {
        LOG.debug("closing a proxy-user client", e);
      }
    }
    perUser.clear();
  }

  @Override
  public void close() throws IOException {
    manager.close();
    closeUserClients();
    own.close();
  }

  /** {@code pocache manager [generic options]}: runs until stopped (SIGTERM or Ctrl-C). */
  public static void main(String[] args) throws Exception {
    Configuration conf = new HdfsConfiguration();
    String[] rest = new org.apache.hadoop.util.GenericOptionsParser(conf, args).getRemainingArgs();
    if (rest.length != 0) {
      System.err.println("Usage: pocache manager [generic options]");
      System.exit(2);
    }
    if (!PoCacheConfig.isEnabled(conf)) {
      System.err.println("pocache manager: " + PoCacheConfigKeys.ENABLED_KEY + " is false; nothing to do");
      System.exit(1);
    }
    StandaloneManager s;
    try {
      if (UserGroupInformation.isSecurityEnabled()) {
        org.apache.hadoop.security.UserGroupInformation.setConfiguration(conf);
        if (conf.getTrimmed(PoCacheConfigKeys.MANAGER_KEYTAB_KEY, "").isEmpty()
            || conf.getTrimmed(PoCacheConfigKeys.MANAGER_KERBEROS_PRINCIPAL_KEY, "").isEmpty()) {
          throw new IllegalArgumentException("under Kerberos a standalone Manager needs "
              + PoCacheConfigKeys.MANAGER_KERBEROS_PRINCIPAL_KEY + " and " + PoCacheConfigKeys.MANAGER_KEYTAB_KEY);
        }
        org.apache.hadoop.security.SecurityUtil.login(conf, PoCacheConfigKeys.MANAGER_KEYTAB_KEY,
            PoCacheConfigKeys.MANAGER_KERBEROS_PRINCIPAL_KEY,
                java.net.InetAddress.getLocalHost().getCanonicalHostName());
      }
      s = new StandaloneManager(conf);
    } catch (IllegalArgumentException e) {
      System.err.println("pocache manager: " + e.getMessage());
      System.exit(1);
      return;
    }
    System.out.println("POCache Manager (standalone) listening on " + s.manager().address() + " for "
        + s.fsUri);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        s.close();
      } catch (IOException e) {
        LOG.warn("POCache Manager did not stop cleanly", e);
      }
      stopped.countDown();
    }, "pocache-manager-shutdown"));
    stopped.await();
  }
}
