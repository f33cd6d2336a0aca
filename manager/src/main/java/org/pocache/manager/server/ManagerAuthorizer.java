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
package org.pocache.manager.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Set;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.pocache.manager.PoCacheConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may do what on the Manager's RPCs, beyond the NameNode's own permission checks
 * on paths: operators' commands, DataNode heartbeats and the end of a reservation.
 * A call from inside the Manager's process (no RPC caller) may do anything.
 */
final class ManagerAuthorizer {
  private static final Logger LOG = LoggerFactory.getLogger(ManagerAuthorizer.class);

  private final String managerUser;
  private final AccessControlList admins;
  private final AccessControlList dataNodeUsers;
  private final String superGroup;
  private final Namespace namespace;
  /** The DataNodes the NameNode has registered (refreshed each tick), or null if unknown. */
  private volatile Set<String> registered;
  private boolean loggedNoDataNodeList;

  ManagerAuthorizer(ManagerSettings s, Namespace namespace) {
    try {
      managerUser = UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException ex) {
      throw new IllegalStateException("cannot tell which user the Manager runs as", ex);
    }
    admins = new AccessControlList(s.admins);
    dataNodeUsers = new AccessControlList(s.dataNodeUsers);
    superGroup = s.superGroup;
    this.namespace = namespace;
  }

  /** The short name of the RPC caller, or null for a call from inside the Manager's process. */
  static String callerName() {
    UserGroupInformation caller = Server.getRemoteUser();
    return caller == null ? null : caller.getShortUserName();
  }

  /** The RPC caller's full name (whom the NameNode checks), or null for a call from inside the Manager. */
  static String callerFullName() {
    UserGroupInformation caller = Server.getRemoteUser();
    return caller == null ? null : caller.getUserName();
  }

  /** The RPC caller's short name, or null if it is the Manager itself (in process or as its user). */
  String otherCaller() {
    String c = callerName();
    return c == null || c.equals(managerUser) ? null : c;
  }

  /**
   * The RPC caller as one client of the straggler list: its user (short name, as
   * authenticated) and the address it called from; null for an in-process call.
   */
  static String callerAndHost() {
    UserGroupInformation caller = Server.getRemoteUser();
    if (caller == null) {
      return null;
    }
    InetAddress from = Server.getRemoteIp();
    return caller.getShortUserName() + "@" + (from == null ? "?" : from.getHostAddress());
  }

  /** The registered DataNodes, or null while the NameNode will not list them. */
  Set<String> registeredDataNodes() {
    return registered;
  }

  /** Housekeeping thread: refreshes the registered DataNodes. */
  void refreshDataNodes() {
    try {
      registered = namespace.dataNodes();
    } catch (IOException | RuntimeException e) {
      if (registered != null || !loggedNoDataNodeList) {
        loggedNoDataNodeList = true;
        LOG.info("POCache Manager cannot list the registered DataNodes ({}); heartbeats and read reports are not"
            + " checked against them", e.toString().split("\n")[0]);
      }
      registered = null;
    }
  }

  /**
   * A heartbeat is taken only from the DataNode it names: the caller must be the
   * Manager's user or listed in {@code dfs.pocache.manager.datanode.users}, call from
   * an address of that DataNode, and the DataNode must be one the NameNode has
   * registered (when the Manager can list them).
   */
  void checkDataNodeCaller(String dataNode) throws IOException {
    UserGroupInformation caller = Server.getRemoteUser();
    if (caller == null) {
      return; // in-process
    }
    if (!caller.getShortUserName().equals(managerUser) && !dataNodeUsers.isUserAllowed(caller)) {
      throw new AccessControlException("user " + caller.getShortUserName() + " may not send DataNode heartbeats:"
          + " not the Manager's user (" + managerUser + ") and not in " + PoCacheConfigKeys.MANAGER_DATANODE_USERS_KEY);
    }
    int colon = dataNode == null ? -1 : dataNode.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("heartbeat names DataNode '" + dataNode + "', not host:port");
    }
    InetAddress from = Server.getRemoteIp();
    if (from != null && !sameHost(dataNode.substring(0, colon), from)) {
      throw new AccessControlException("a heartbeat for DataNode " + dataNode + " came from " + from.getHostAddress()
          + ", not from that DataNode");
    }
    Set<String> known = registered;
    if (known != null && !known.contains(dataNode)) {
      throw new AccessControlException(dataNode + " is not a DataNode the NameNode has registered");
    }
  }

  private static boolean sameHost(String host, InetAddress from) {
    try {
      for (InetAddress a : InetAddress.getAllByName(host)) {
        // From loopback: a DataNode on this host (any of its addresses) calling over lo.
        if (a.equals(from) || from.isLoopbackAddress()
            && (a.isLoopbackAddress() || NetworkInterface.getByInetAddress(a) != null)) {
          return true;
        }
      }
    } catch (UnknownHostException | SocketException e) {
      // no address: no match
    }
    return false;
  }

  /** Only the user who made a reservation, or the Manager's own user, may commit or abort it. */
  void checkOwner(CacheIndex.Entry e) throws AccessControlException {
    String caller = callerName();
    if (caller == null || e.owner == null || caller.equals(e.owner) || caller.equals(managerUser)) {
      return;
    }
    throw new AccessControlException("user " + caller + " may not end reservation " + e.reservationId
        + ": it belongs to " + e.owner);
  }

  /** Operators' commands: the Manager's user, the HDFS superuser group, or {@code dfs.pocache.manager.admins}. */
  void checkAdmin(String op) throws AccessControlException {
    UserGroupInformation caller = Server.getRemoteUser();
    if (caller == null) {
      return; // an in-process call
    }
    if (caller.getShortUserName().equals(managerUser) || admins.isUserAllowed(caller)) {
      return;
    }
    for (String g : caller.getGroupNames()) {
      if (g.equals(superGroup)) {
        return;
      }
    }
    throw new AccessControlException("user " + caller.getShortUserName() + " may not " + op + ": not the Manager's"
        + " user (" + managerUser + "), not in " + superGroup + " and not in " + PoCacheConfigKeys.MANAGER_ADMINS_KEY);
  }
}
