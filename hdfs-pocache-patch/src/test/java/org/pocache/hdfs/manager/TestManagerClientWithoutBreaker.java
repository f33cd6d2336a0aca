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

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;

/**
 * DataNode heartbeats use a Manager client without a breaker: every call tries the
 * Manager, and a Manager that does not answer is still said once at WARN, not only at
 * DEBUG. Commits are asked again when unanswered, whatever the breaker says.
 */
public class TestManagerClientWithoutBreaker {
  /**
   * A commit whose answer does not arrive is asked again (the Manager acknowledges a
   * repeated commit), past the breaker its own first failure opened; an abort is not.
   */
  @Test
  public void aCommitWithoutAnAnswerIsAskedAgainPastTheBreaker() throws Exception {
    Configuration conf = new Configuration();
    try (ManagerClient m = new ManagerClient(new InetSocketAddress("127.0.0.1", 1), conf, 500)) {
      try {
        m.commit(1, 2, 3, 4, new byte[0]);
        fail("a Manager on port 1 answered");
      } catch (IOException expected) {
        // refused, three times
      }
      assertEquals(ManagerClient.COMMIT_ATTEMPTS, m.unansweredCalls());
      assertEquals(0, m.skippedCalls());
      try {
        m.abort(1, "test");
        fail("a Manager on port 1 answered");
      } catch (IOException expected) {
        // the breaker is open: not asked
      }
      assertEquals(ManagerClient.COMMIT_ATTEMPTS, m.unansweredCalls());
      assertEquals(1, m.skippedCalls());
    }
  }

  @Test
  public void aManagerThatDoesNotAnswerIsWarnedOnceWithoutABreaker() throws Exception {
    Configuration conf = new Configuration();
    conf.setInt(PoCacheConfigKeys.MANAGER_BREAKER_OPEN_KEY, 0);
    org.apache.log4j.Logger.getLogger(ManagerClient.class).setLevel(org.apache.log4j.Level.INFO);
    GenericTestUtils.LogCapturer log = GenericTestUtils.LogCapturer.captureLogs(
        org.slf4j.LoggerFactory.getLogger(ManagerClient.class));
    try (ManagerClient m = new ManagerClient(new InetSocketAddress("127.0.0.1", 1), conf, 500)) {
      for (int i = 0; i < 3; i++) {
        try {
          m.heartbeat("127.0.0.1:9866", 1 << 20, 100, 1);
          fail("a Manager on port 1 answered");
        } catch (IOException expected) {
          // refused
        }
      }
      assertEquals(3, m.unansweredCalls());
      assertEquals(0, m.skippedCalls());
    } finally {
      log.stopCapturing();
    }
    String out = log.getOutput();
    assertEquals(out, 1, out.split("did not answer \\(", -1).length - 1);
    assertTrue(out, out.contains("calls keep trying it") && out.contains(PoCacheConfigKeys.MANAGER_ADDRESS_KEY));
  }
}
