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
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/**
 * When {@code dfs.pocache.manager.address} reaches something that is not the Manager, the
 * warning says what answered there instead of only Hadoop's own message.
 */
public class TestManagerClientHints {
  @Test
  public void anHttpServerAtTheAddressIsNamed() throws Exception {
    try (ServerSocket web = new ServerSocket(0)) {
      Thread server = new Thread(() -> {
        try {
          while (true) {
            try (Socket s = web.accept()) {
              OutputStream out = s.getOutputStream();
              out.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
              out.flush();
              s.getInputStream().read(new byte[4096]);
            }
          }
        } catch (IOException closed) {
          // test over
        }
      });
      server.setDaemon(true);
      server.start();
      try (ManagerClient m = new ManagerClient(new InetSocketAddress("127.0.0.1", web.getLocalPort()),
          new Configuration(), 5000)) {
        try {
          m.getStragglers();
          fail("an HTTP server answered as the Manager");
        } catch (IOException e) {
          String hint = ManagerClient.whatToCheck(e);
          assertTrue(e + " -> " + hint, hint.contains("other than the Manager answers at that address"));
        }
        assertEquals(1, m.unansweredCalls());
      }
    }
  }

  @Test
  public void theLengthNewerClientsPrintNamesAnHttpServer() {
    // Hadoop 3.3 and later print the length they read: here the bytes "HTTP".
    String hint = ManagerClient.whatToCheck(new IOException("Failed on local exception",
        new IOException("RPC response has a length of 1213486160 exceeds maximum data length")));
    assertTrue(hint, hint.startsWith("An HTTP server other than the Manager answers"));
  }

  @Test
  public void anythingElseAsksForThePluginAndTheAddress() {
    String hint = ManagerClient.whatToCheck(new java.net.ConnectException("Connection refused"));
    assertTrue(hint, hint.contains("runs the POCache plugin"));
  }
}
