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
package org.pocache.manager.protocol;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;

/**
 * Where the Managers of a file system are, from the same keys HDFS's clients use to
 * find its NameNodes. A Manager runs in each NameNode that loads the plugin, so:
 * <ul>
 *   <li>{@code hdfs://host:port} (one NameNode): {@code dfs.pocache.manager.address},
 *       a wildcard host meaning {@code host};</li>
 *   <li>{@code hdfs://ns} where {@code dfs.ha.namenodes.ns} lists NameNodes {@code nn1,nn2}:
 *       one Manager per NameNode, in that order, each at
 *       {@code dfs.pocache.manager.address.ns.nn1} if set, else at the port of
 *       {@code dfs.pocache.manager.address} on the host of
 *       {@code dfs.namenode.rpc-address.ns.nn1} (a non-wildcard host there is used as
 *       it is);</li>
 *   <li>{@code hdfs://ns} of a nameservice with one NameNode: the same with
 *       {@code dfs.pocache.manager.address.ns} and {@code dfs.namenode.rpc-address.ns};</li>
 *   <li>{@code hdfs://host:port} that is the RPC address of a NameNode of a listed
 *       nameservice (ViewFs links of a federation name them so): that nameservice's.</li>
 * </ul>
 * Only the active NameNode's Manager serves; {@link ManagerClient} tries them in turn.
 */
public final class ManagerAddresses {
  private ManagerAddresses() {
  }

  /** The key that names the Manager of NameNode {@code nn} of nameservice {@code ns} (nn may be null). */
  public static String keyFor(String ns, String nn) {
    return PoCacheConfigKeys.MANAGER_ADDRESS_KEY + "." + ns + (nn == null ? "" : "." + nn);
  }

  /**
   * The Managers of the file system at {@code fs}, in the order its NameNodes are listed.
   *
   * @throws IllegalArgumentException naming a key that is not host:port
   */
  public static List<InetSocketAddress> of(Configuration conf, URI fs) {
    String host = fs.getHost();
    List<InetSocketAddress> out = new ArrayList<>();
    if (host == null) {
      // No NameNode in the URI (file:///, say): only a Manager address that names its host works.
      out.add(ManagerClient.connectAddress(conf, host));
      return out;
    }
    String ns = host;
    Collection<String> nns = conf.getTrimmedStringCollection("dfs.ha.namenodes." + ns);
    boolean single = nns.isEmpty() && fs.getPort() <= 0 && conf.get("dfs.namenode.rpc-address." + ns) != null;
    if (nns.isEmpty() && !single && fs.getPort() > 0) {
      // A NameNode's own address (a ViewFs link to hdfs://host:port, say): its nameservice's Managers.
      ns = nameserviceOf(conf, host, fs.getPort());
      if (ns != null) {
        nns = conf.getTrimmedStringCollection("dfs.ha.namenodes." + ns);
        single = nns.isEmpty();
      }
    }
    if (!nns.isEmpty()) {
      for (String nn : nns) {
        out.add(resolve(conf, ns, nn));
      }
    } else if (single) {
      out.add(resolve(conf, ns, null));
    } else {
      out.add(ManagerClient.connectAddress(conf, host));
    }
    return out;
  }

  /** The nameservice one of whose NameNodes has RPC address host:port, or null. */
  private static String nameserviceOf(Configuration conf, String host, int port) {
    for (String ns : nameservices(conf)) {
      Collection<String> nns = conf.getTrimmedStringCollection("dfs.ha.namenodes." + ns);
      if (nns.isEmpty()) {
        nns = java.util.Collections.singletonList(null);
      }
      for (String nn : nns) {
        String rpc = conf.getTrimmed("dfs.namenode.rpc-address." + ns + (nn == null ? "" : "." + nn), "");
        if (sameAddress(rpc, host, port)) {
          return ns;
        }
      }
    }
    return null;
  }

  private static boolean sameAddress(String hostPort, String host, int port) {
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0 || !hostPort.substring(colon + 1).equals(Integer.toString(port))) {
      return false;
    }
    String h = hostPort.substring(0, colon);
    if (h.equalsIgnoreCase(host)) {
      return true;
    }
    try {
      return java.net.InetAddress.getByName(h).equals(java.net.InetAddress.getByName(host));
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private static Collection<String> nameservices(Configuration conf) {
    Collection<String> nss = conf.getTrimmedStringCollection("dfs.internal.nameservices");
    return nss.isEmpty() ? conf.getTrimmedStringCollection("dfs.nameservices") : nss;
  }

  /**
   * Every Manager a DataNode of this configuration serves blocks for: each NameNode of
   * each nameservice in {@code dfs.internal.nameservices} (else {@code dfs.nameservices}),
   * else the default file system's.
   */
  public static List<InetSocketAddress> all(Configuration conf) {
    Collection<String> nss = nameservices(conf);
    Set<InetSocketAddress> out = new LinkedHashSet<>();
    if (nss.isEmpty()) {
      out.addAll(of(conf, org.apache.hadoop.fs.FileSystem.getDefaultUri(conf)));
    }
    for (String ns : nss) {
      out.addAll(of(conf, URI.create("hdfs://" + ns)));
    }
    return new ArrayList<>(out);
  }

  /**
   * The address the Manager of NameNode {@code nn} of {@code ns} listens on: its own key
   * if set, else {@code dfs.pocache.manager.address}. Either may be null (no nameservice).
   */
  public static InetSocketAddress bindAddress(Configuration conf, String ns, String nn) {
    if (ns != null) {
      String key = keyFor(ns, nn);
      if (conf.getTrimmed(key, "").length() > 0) {
        return PoCacheConfig.getAddress(conf, key, null);
      }
      if (nn != null && conf.getTrimmed(keyFor(ns, null), "").length() > 0) {
        return PoCacheConfig.getAddress(conf, keyFor(ns, null), null);
      }
    }
    return PoCacheConfig.getAddress(conf, PoCacheConfigKeys.MANAGER_ADDRESS_KEY,
        PoCacheConfigKeys.MANAGER_ADDRESS_DEFAULT);
  }

  /** The Manager of NameNode {@code nn} (null: the only one) of nameservice {@code ns}, for callers. */
  private static InetSocketAddress resolve(Configuration conf, String ns, String nn) {
    InetSocketAddress a = bindAddress(conf, ns, nn);
    String host = a.getHostString();
    if (host.equals("0.0.0.0") || host.equals("::")) {
      String rpcKey = "dfs.namenode.rpc-address." + ns + (nn == null ? "" : "." + nn);
      String rpc = conf.getTrimmed(rpcKey, "");
      int colon = rpc.lastIndexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(rpcKey + " must be host:port to find the POCache Manager of NameNode "
            + (nn == null ? ns : nn + " of " + ns) + " (or set " + keyFor(ns, nn) + "), got '" + rpc + "'");
      }
      host = rpc.substring(0, colon);
    }
    return NetUtils.createSocketAddr(host, a.getPort());
  }
}
