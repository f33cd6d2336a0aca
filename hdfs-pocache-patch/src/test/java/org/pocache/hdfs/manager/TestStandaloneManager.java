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
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.namenode.StandaloneManager;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;

/**
 * The Manager beside an untouched NameNode (no plugin): it learns files through
 * NameNode RPCs, as a proxy user for each caller, so the NameNode still decides
 * who may read what.
 */
public class TestStandaloneManager {
  @Test
  public void servesDescriptorsThroughNameNodeRpcs() throws Exception {
    String me = UserGroupInformation.getCurrentUser().getShortUserName();
    Map<String, String> extra = new HashMap<>();
    extra.put("dfs.namenode.plugins", ""); // the NameNode cannot be touched
    extra.put("hadoop.proxyuser." + me + ".hosts", "*");
    extra.put("hadoop.proxyuser." + me + ".groups", "*");
    try (ManagerCluster c = ManagerCluster.start(4, extra)) {
      Configuration conf = new Configuration(c.hdfs.conf());
      try (StandaloneManager standalone = new StandaloneManager(conf); ManagerClient m = c.client()) {
        GenericTestUtils.waitFor(() -> standalone.manager().cache().ready(), 50, 10_000);
        assertEquals(c.port, standalone.manager().address().getPort());
        Path p = new Path("/standalone/a");
        ParityDescriptor written = c.writeCached(m, p, 4 * ManagerCluster.BLOCK, 1);
        ParityDescriptor d = m.getDescriptor(p.toString()).getParity();
        assertEquals(written.getGeneration(), d.getGeneration());
        assertTrue(c.parityExists(d));

        c.hdfs.fs().setPermission(new Path("/standalone"), new FsPermission((short) 0755));
        c.hdfs.fs().setPermission(p, new FsPermission((short) 0600));
        UserGroupInformation bob = UserGroupInformation.createRemoteUser("bob");
        try {
          bob.doAs((PrivilegedExceptionAction<Object>) () -> {
            try (ManagerClient asBob = c.client()) {
              return asBob.getDescriptor(p.toString());
            }
          });
          fail("bob got the descriptor of a 0600 file through the standalone Manager");
        } catch (AccessControlException e) {
          assertTrue(e.getMessage(), e.getMessage().contains("user=bob"));
        }
      }
    }
  }
}
