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

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/**
 * On a Hadoop client the jar was not built for, a Manager call can throw a
 * LinkageError (a protobuf class missing or of another shape). The caller sees an
 * unreachable Manager (an IOException, counted), never an Error that fails its job.
 */
public class TestManagerClientLinkage {
  @Test
  public void aLinkageErrorInACallIsAnUnansweredCall() throws Exception {
    try (ManagerClient m = new ManagerClient(new InetSocketAddress("127.0.0.1", 1), new Configuration(), 200)) {
      PoCacheManagerProtocolPB broken = (PoCacheManagerProtocolPB) Proxy.newProxyInstance(
          getClass().getClassLoader(), new Class<?>[] {PoCacheManagerProtocolPB.class}, (p, method, args) -> {
            throw new NoClassDefFoundError("com/google/protobuf/ServiceException");
          });
      Field targets = ManagerClient.class.getDeclaredField("targets");
      targets.setAccessible(true);
      Object target = ((Object[]) targets.get(m))[0];
      Field proxy = target.getClass().getDeclaredField("proxy");
      proxy.setAccessible(true);
      Object real = proxy.get(target);
      proxy.set(target, broken);
      try {
        m.getStragglers();
        fail("the call succeeded");
      } catch (IOException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("does not work with this Hadoop client")
            && e.getMessage().contains("com/google/protobuf/ServiceException"));
      } finally {
        proxy.set(target, real); // close stops the real proxy
      }
      assertEquals(1, m.unansweredCalls());
    }
  }
}
