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
package org.pocache.testkit;

import static org.junit.Assert.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.Test;

public class TestFreePorts {
  @Test
  public void picksBindablePortsBelowTheEphemeralRange() throws Exception {
    int low = FreePorts.ephemeralLow();
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      int port = FreePorts.pick();
      assertTrue(port + " is inside the ephemeral range from " + low, port < low);
      seen.add(port);
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      }
    }
    assertTrue("20 picks gave only " + seen, seen.size() > 1);
  }

  @Test
  public void skipsAPortInUse() throws Exception {
    // Hold many ports: a pick must never return one of them.
    Set<Integer> held = new HashSet<>();
    java.util.List<ServerSocket> sockets = new java.util.ArrayList<>();
    try {
      for (int i = 0; i < 50; i++) {
        int port = FreePorts.pick();
        ServerSocket s = new ServerSocket();
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        sockets.add(s);
        assertTrue("picked " + port + " which is held", held.add(port));
      }
    } finally {
      for (ServerSocket s : sockets) {
        s.close();
      }
    }
  }
}
