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

import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.PoCacheMiniCluster;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ReadReport;

/**
 * A user who sends the Manager invented read reports over its RPC (a healthy DataNode
 * served 2 MiB in 100 s, the others 64 MiB in 0.1 s, one report every 200 ms) does not
 * get that DataNode listed: client reads list a DataNode only when two clients (users
 * on hosts) each see it slow. The same reports from a second user do list it, so the
 * Manager does listen to clients.
 */
public class TestForgedReadReports {
  @Test
  public void oneUsersForgedSlowReportsListNobody() throws Exception {
    // No DataNode plugin: no heartbeats to vouch for the victim, client reads decide alone.
    try (PoCacheMiniCluster c = PoCacheMiniCluster.builder().dataNodes(4).start();
         ManagerClient mallory = clientOf("mallory", c);
         ManagerClient trudy = clientOf("trudy", c)) {
      List<String> dn = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        dn.add(c.hdfs.dataNode(i).getDatanodeId().getXferAddr());
      }
      String victim = dn.get(2);
      List<ReadReport.Observation> forged = new ArrayList<>();
      for (String d : dn) {
        forged.add(d.equals(victim) ? new ReadReport.Observation(d, 2 << 20, 100_000)
            : new ReadReport.Observation(d, 64 << 20, 100));
      }
      long before = mallory.getReport().getClientObservations();
      for (int call = 0; call < 40; call++) { // 8 s: the attack listed the victim within 3 s before
        mallory.reportRead(ReadReport.observationsOnly(forged));
        assertEquals("listed after " + (call + 1) + " forged reports of one user", Collections.emptyList(),
            mallory.getStragglers().dataNodes);
        Thread.sleep(200); // the attack's own pace, not a wait for a condition
      }
      assertEquals("the reports were taken in", before + 40 * dn.size(), mallory.getReport().getClientObservations());
      GenericTestUtils.waitFor(() -> {
        try {
          mallory.reportRead(ReadReport.observationsOnly(forged));
          trudy.reportRead(ReadReport.observationsOnly(forged));
          return mallory.getStragglers().dataNodes.equals(Collections.singletonList(victim));
        } catch (Exception e) {
          return false;
        }
      }, 200, 20_000);
    }
  }

  private static ManagerClient clientOf(String user, PoCacheMiniCluster c) throws Exception {
    return UserGroupInformation.createRemoteUser(user).doAs((PrivilegedExceptionAction<ManagerClient>) () ->
        new ManagerClient(c.managerAddress(), c.hdfs.conf(), 5000));
  }
}
