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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/** Where clients, DataNodes and NameNodes find the Managers, from HDFS's own keys. */
public class TestManagerAddresses {
  private static Configuration conf() {
    Configuration c = new Configuration(false);
    c.set("dfs.nameservices", "ns1,ns2");
    c.set("dfs.ha.namenodes.ns1", "a,b");
    c.set("dfs.namenode.rpc-address.ns1.a", "10.0.0.1:8020");
    c.set("dfs.namenode.rpc-address.ns1.b", "10.0.0.2:8020");
    c.set("dfs.namenode.rpc-address.ns2", "10.0.0.3:8020");
    return c;
  }

  private static InetSocketAddress at(String host, int port) {
    return new InetSocketAddress(host, port);
  }

  @Test
  public void anHaNameserviceHasOneManagerPerNameNodeOnItsHost() {
    List<InetSocketAddress> m = ManagerAddresses.of(conf(), URI.create("hdfs://ns1"));
    assertEquals(Arrays.asList(at("10.0.0.1", 8047), at("10.0.0.2", 8047)), m);
  }

  @Test
  public void perNameNodeKeysWin() {
    Configuration c = conf();
    c.set("dfs.pocache.manager.address.ns1.b", "10.0.0.9:9999");
    c.set("dfs.pocache.manager.address", "0.0.0.0:7000");
    assertEquals(Arrays.asList(at("10.0.0.1", 7000), at("10.0.0.9", 9999)),
        ManagerAddresses.of(c, URI.create("hdfs://ns1")));
    assertEquals(at("10.0.0.9", 9999).getPort(), ManagerAddresses.bindAddress(c, "ns1", "b").getPort());
    assertEquals(7000, ManagerAddresses.bindAddress(c, "ns1", "a").getPort());
  }

  @Test
  public void aNameNodeAddressFindsItsNameservice() {
    // ViewFs links of a federation name NameNodes by address.
    assertEquals(Arrays.asList(at("10.0.0.3", 8047)), ManagerAddresses.of(conf(), URI.create("hdfs://10.0.0.3:8020")));
    assertEquals(Arrays.asList(at("10.0.0.1", 8047), at("10.0.0.2", 8047)),
        ManagerAddresses.of(conf(), URI.create("hdfs://10.0.0.2:8020")));
    Configuration c = conf();
    c.set("dfs.pocache.manager.address.ns2", "10.0.0.3:8050");
    assertEquals(Arrays.asList(at("10.0.0.3", 8050)), ManagerAddresses.of(c, URI.create("hdfs://10.0.0.3:8020")));
  }

  @Test
  public void aPlainNameNodeUsesTheGenericKey() {
    assertEquals(Arrays.asList(at("nn.example", 8047)),
        ManagerAddresses.of(new Configuration(false), URI.create("hdfs://nn.example:8020")));
    Configuration c = new Configuration(false);
    c.set("dfs.pocache.manager.address", "manager.example:9000");
    assertEquals(Arrays.asList(at("manager.example", 9000)), ManagerAddresses.of(c, URI.create("hdfs://nn:8020")));
  }

  @Test
  public void dataNodesReportToEveryManagerOfEveryNameservice() {
    assertEquals(Arrays.asList(at("10.0.0.1", 8047), at("10.0.0.2", 8047), at("10.0.0.3", 8047)),
        ManagerAddresses.all(conf()));
    Configuration c = conf();
    c.set("dfs.internal.nameservices", "ns2");
    assertEquals(Arrays.asList(at("10.0.0.3", 8047)), ManagerAddresses.all(c));
  }

  @Test
  public void aFileSystemWithoutANameNodeNeedsAManagerHost() {
    Configuration c = new Configuration(false);
    try {
      ManagerAddresses.of(c, URI.create("file:///"));
      fail("resolved a Manager without a host");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("fs.defaultFS")
          && e.getMessage().contains("dfs.pocache.manager.address is 0.0.0.0:8047"));
    }
    c.set("dfs.pocache.manager.address", "manager.example:9000");
    assertEquals(Arrays.asList(at("manager.example", 9000)), ManagerAddresses.of(c, URI.create("file:///")));
  }

  @Test
  public void aNameNodeWithoutAnAddressIsNamedInTheError() {
    Configuration c = conf();
    c.unset("dfs.namenode.rpc-address.ns1.b");
    try {
      ManagerAddresses.of(c, URI.create("hdfs://ns1"));
      fail("resolved without an address");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("dfs.namenode.rpc-address.ns1.b")
          && e.getMessage().contains("dfs.pocache.manager.address.ns1.b"));
    }
  }
}
