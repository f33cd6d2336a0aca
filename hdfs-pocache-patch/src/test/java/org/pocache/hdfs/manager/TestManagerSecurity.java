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
package org.pocache.hdfs.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AuthorizationException;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.manager.protocol.DescriptorLookup;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.server.ManagerPolicyProvider;

/**
 * With hadoop.security.authorization and a service ACL, a user outside the ACL is
 * refused by Hadoop IPC; a user inside it still gets only descriptors of files
 * the NameNode lets them read, and no operator commands.
 */
public class TestManagerSecurity {
  @Test
  public void serviceAclAndFilePermissionsApply() throws Exception {
    String me = UserGroupInformation.getCurrentUser().getShortUserName();
    Map<String, String> conf = new HashMap<>();
    conf.put(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, "true");
    conf.put(ManagerPolicyProvider.ACL_KEY, me + ",bob");
    conf.put(ManagerPolicyProvider.DATANODE_ACL_KEY, me); // the DataNodes run as the test's user
    try (ManagerCluster c = ManagerCluster.start(4, conf); ManagerClient owner = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path secret = new Path("/secure/secret");
      Path open = new Path("/secure/open");
      c.writeCached(owner, secret, 4 * ManagerCluster.BLOCK, 1);
      c.writeCached(owner, open, 4 * ManagerCluster.BLOCK, 2);
      c.hdfs.fs().setPermission(new Path("/secure"), new FsPermission((short) 0755));
      c.hdfs.fs().setPermission(secret, new FsPermission((short) 0600));
      c.hdfs.fs().setPermission(open, new FsPermission((short) 0644));
      assertTrue(owner.getDescriptor(secret.toString()).hasParity());

      // Not in the ACL: refused before any Manager code runs.
      try {
        as("mallory", c, m -> m.getStragglers());
        fail("mallory was served");
      } catch (AuthorizationException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("mallory"));
      }

      // In the ACL, but the NameNode says bob may not read the secret file.
      try {
        as("bob", c, m -> m.getDescriptor(secret.toString()));
        fail("bob got the descriptor of a 0600 file he does not own");
      } catch (AccessControlException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("user=bob") && e.getMessage().contains("READ"));
      }
      // bob may use the Manager, but the DataNodes' protocol has its own ACL.
      try {
        as("bob", c, m -> {
          m.heartbeat(c.hdfs.dataNode(0).getDatanodeId().getXferAddr(), 1 << 20, 60_000, 1);
          return null;
        });
        fail("bob sent a DataNode heartbeat");
      } catch (AuthorizationException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("bob")
            && e.getMessage().contains("PoCacheDataNodeProtocol"));
      }
      DescriptorLookup r = as("bob", c, m -> m.getDescriptor(open.toString()));
      assertTrue(r.getDecision(), r.hasParity());
      assertEquals(open.toString(), r.getParity().getPath());

      // Operator commands need the Manager's user, the superuser group or dfs.pocache.manager.admins.
      try {
        as("bob", c, m -> m.evict(open.toString()));
        fail("bob evicted");
      } catch (AccessControlException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("user bob may not evict"));
      }
      assertTrue(owner.getDescriptor(open.toString()).hasParity());
      assertFalse(owner.evict(open.toString()).contains("not cached"));
    }
  }

  private interface Call<T> {
    T run(ManagerClient m) throws IOException;
  }

  private static <T> T as(String user, ManagerCluster c, Call<T> call) throws Exception {
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    try {
      return ugi.doAs((PrivilegedExceptionAction<T>) () -> {
        try (ManagerClient m = c.client()) {
          return call.run(m);
        }
      });
    } catch (java.lang.reflect.UndeclaredThrowableException e) {
      throw (Exception) e.getCause();
    }
  }
}
