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
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.manager.protocol.DescriptorLookup;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;

/**
 * The Manager's faults, each its own scenario: the Manager stopped or hung (a
 * lookup ends in "no descriptor" within the RPC timeout), Redis restarted (the
 * index is invalidated; nothing stale is served), the NameNode restarted (the
 * Manager is back and rebuilds its index from Redis).
 */
public class TestManagerFaults {
  private static final long FILE = 4 * ManagerCluster.BLOCK;
  private static final int TIMEOUT_MS = 200;

  @Test
  public void stoppedManagerMeansNoDescriptorWithinTheTimeout() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient writer = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/faults/stopped/a");
      c.writeCached(writer, p, FILE, 1);
      Configuration conf = new Configuration(c.hdfs.conf());
      try (ManagerClient reader = new ManagerClient(c.address(), conf, TIMEOUT_MS)) {
        assertTrue(reader.lookup(p.toString()) != null);
        c.plugin().stop(); // the Manager goes away; the NameNode stays
        long t0 = System.nanoTime();
        ParityDescriptor d = reader.lookup(p.toString());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("lookup with the Manager stopped: no descriptor after " + ms + " ms");
        assertNull(d);
        assertEquals(1, reader.failedLookups());
        assertTrue("took " + ms + " ms", ms <= TIMEOUT_MS + 300);
      }
    }
  }

  @Test
  public void hungManagerMeansNoDescriptorWithinTheTimeout() throws Exception {
    // Something accepts connections on the Manager's port and never answers.
    try (ServerSocket hung = new ServerSocket(0, 50)) {
      List<Socket> accepted = Collections.synchronizedList(new ArrayList<Socket>());
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            accepted.add(hung.accept());
          }
        } catch (IOException closed) {
          // test over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      try (ManagerClient reader = new ManagerClient(new InetSocketAddress("127.0.0.1", hung.getLocalPort()),
          new Configuration(), TIMEOUT_MS)) {
        for (int i = 0; i < 3; i++) {
          long t0 = System.nanoTime();
          assertNull(reader.lookup("/any/file"));
          long ms = (System.nanoTime() - t0) / 1_000_000;
          System.out.println("lookup against a hung Manager: no descriptor after " + ms + " ms");
          assertTrue("took " + ms + " ms", ms <= TIMEOUT_MS + 300);
        }
        assertEquals(3, reader.failedLookups());
        // The first timed out; the breaker skipped the others without asking.
        assertEquals(1, reader.unansweredCalls());
        assertEquals(2, reader.skippedCalls());
      } finally {
        for (Socket s : accepted) {
          s.close();
        }
      }
    }
  }

  @Test
  public void redisRestartInvalidatesTheIndex() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/faults/redis/a");
      c.writeCached(m, p, FILE, 2);
      assertTrue(m.getDescriptor(p.toString()).hasParity());

      c.redis.stop();
      // While Redis is down, nothing is served.
      GenericTestUtils.waitFor(() -> !c.manager().cache().ready(), 20, 10_000);
      DescriptorLookup down = m.getDescriptor(p.toString());
      assertFalse(down.hasParity());
      assertEquals("CACHE_UNAVAILABLE", down.getDecision());

      c.redis.start(); // same port, empty: the parity is gone
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 20, 10_000);
      assertEquals(1, m.getReport().getRedisRestarts());
      DescriptorLookup after = m.getDescriptor(p.toString());
      assertFalse("stale descriptor after a Redis restart", after.hasParity());
      assertEquals(0, m.listCached("/faults/redis", 10).getDescriptors().stream()
          .filter(d -> d.getState().name().equals("CACHED")).count());

      // And the cache works again.
      Path q = new Path("/faults/redis/b");
      c.writeCached(m, q, FILE, 3);
      assertTrue(m.getDescriptor(q.toString()).hasParity());
    }
  }

  @Test
  public void nameNodeRestartBringsTheManagerBackWithItsIndex() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap())) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path kept = new Path("/faults/nn/kept");
      Path changed = new Path("/faults/nn/changed");
      ParityDescriptor k;
      ParityDescriptor ch;
      try (ManagerClient m = c.client()) {
        k = c.writeCached(m, kept, FILE, 4);
        ch = c.writeCached(m, changed, FILE, 5);
      }
      c.plugin().stop(); // the Manager is down while the file changes
      c.hdfs.fs().delete(changed, false);
      c.writePlain(changed, FILE, 6);

      c.hdfs.cluster().restartNameNode(true);
      GenericTestUtils.waitFor(() -> c.manager() != null && c.manager().cache().ready(), 50, 20_000);
      try (ManagerClient m = c.client()) {
        DescriptorLookup r = m.getDescriptor(kept.toString());
        assertTrue(r.getDecision(), r.hasParity());
        assertEquals(k.getGeneration(), r.getParity().getGeneration()); // rebuilt from Redis, not refilled
        DescriptorLookup s = m.getDescriptor(changed.toString());
        assertFalse(s.hasParity() && s.getParity().getGeneration() == ch.getGeneration());
        GenericTestUtils.waitFor(() -> {
          try {
            return !c.parityExists(ch);
          } catch (Exception e) {
            return false;
          }
        }, 50, 10_000);
      }
    }
  }
}
