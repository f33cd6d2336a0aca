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

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports for servers that must be told their port before they start
 * (the Manager, whose address clients and DataNodes read from configuration;
 * redis-server).
 *
 * <p>The usual trick, binding port 0 and closing the socket, races with every
 * other port-0 bind in the machine: MiniDFSCluster binds a dozen port-0 sockets
 * while it starts, and the kernel may hand one of them the port just released.
 * A CI run lost the Manager that way. Ports chosen here lie below the kernel's
 * ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range}), which port-0
 * binds never use, and are checked to be free at the time of choosing.
 */
public final class FreePorts {
  private static final int LOWEST = 10_000;
  private static final int DEFAULT_EPHEMERAL_LOW = 32_768;
  private static final int ATTEMPTS = 200;

  private FreePorts() {
  }

  /** A port on 127.0.0.1 nothing listens on now, outside the ephemeral range. */
  public static int pick() throws IOException {
    int high = ephemeralLow();
    if (high - LOWEST < 1000) {
      // An unusual range leaves no room below it: fall back to the kernel's choice.
      try (ServerSocket s = new ServerSocket(0)) {
        return s.getLocalPort();
      }
    }
    IOException last = null;
    for (int i = 0; i < ATTEMPTS; i++) {
      int port = ThreadLocalRandom.current().nextInt(LOWEST, high);
      try (ServerSocket s = new ServerSocket()) {
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return port;
      } catch (IOException inUse) {
        last = inUse;
      }
    }
    throw new IOException("no free port found in [" + LOWEST + ", " + high + ") after " + ATTEMPTS + " attempts",
        last);
  }

  /** The lowest port the kernel hands out for port-0 binds. */
  static int ephemeralLow() {
    try {
      // Not readAllBytes: procfs reports size 0 and the JDK then reads a single byte.
      String range = Files.readAllLines(Paths.get("/proc/sys/net/ipv4/ip_local_port_range"),
          StandardCharsets.US_ASCII).get(0).trim();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException notLinux) {
      return DEFAULT_EPHEMERAL_LOW;
    }
  }
}
