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
package org.pocache.cache;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;
import org.pocache.testkit.TestDirs;
import org.pocache.testkit.redis.RedisClusterFixture;
import org.pocache.testkit.redis.RedisServerFixture;
import org.pocache.testkit.redis.TestCertificates;

/** TLS with certificates made at test time, and a local 3-master Redis Cluster. */
public class TestRedisTlsAndCluster {

  @Test
  public void tls() throws Exception {
    File dir = TestDirs.fresh("tls");
    TestCertificates certs = new TestCertificates(dir);
    try (RedisServerFixture redis = RedisServerFixture.builder().tls(certs.certPem, certs.keyPem).start()) {
      Map<String, String> m = StoreTesting.settings("127.0.0.1:" + redis.tlsPort());
      m.put(RedisSettings.TLS_KEY, "true");
      m.put(RedisSettings.TRUSTSTORE_KEY, certs.truststore.getPath());
      m.put(RedisSettings.TRUSTSTORE_PASSWORD_KEY, certs.truststorePassword);
      try (RedisParityStore store = StoreTesting.connect(m)) {
        ParityKey k = store.key(3, 1, 0, 0, 0);
        ByteBuffer p = StoreTesting.payload(256 << 10, 5);
        store.put(k, StoreTesting.crcs(4), p);
        assertArrayEquals(p.array(), StoreTesting.bytes(store.get(k)));
      }
      // A trust store that does not hold Redis's certificate: the handshake fails at startup.
      TestCertificates other = new TestCertificates(new File(dir, "other"));
      m.put(RedisSettings.TRUSTSTORE_KEY, other.truststore.getPath());
      try (RedisParityStore store = StoreTesting.connect(m)) {
        fail("trusted a certificate it should not: " + store);
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage(), e.getMessage().startsWith(RedisSettings.HOSTS_KEY));
      }
      m.put(RedisSettings.TRUSTSTORE_KEY, new File(dir, "missing.p12").getPath());
      try {
        RedisSettings.from(m::get);
        fail();
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage(), e.getMessage().startsWith(RedisSettings.TRUSTSTORE_KEY));
      }
    }
  }

  @Test
  public void cluster() throws Exception {
    try (RedisClusterFixture cluster = new RedisClusterFixture(3)) {
      Map<String, String> m = StoreTesting.settings(cluster.seeds());
      m.put(RedisSettings.TOPOLOGY_KEY, "cluster");
      try (RedisParityStore store = StoreTesting.connect(m)) {
        Set<Integer> slots = new HashSet<>();
        List<ParityKey> keys = new ArrayList<>();
        List<int[]> crcs = new ArrayList<>();
        List<ByteBuffer> payloads = new ArrayList<>();
        for (long file = 1; file <= 30; file++) {
          for (int j = 0; j < 3; j++) {
            keys.add(store.key(file, 1, 0, j, 0));
            crcs.add(StoreTesting.crcs(4));
            payloads.add(StoreTesting.payload(16 << 10, file * 10 + j));
          }
          slots.add(store.key(file, 1, 0, 0, 0).slot());
        }
        assertTrue("files spread over slots: " + slots.size(), slots.size() > 10);
        store.putAll(keys, crcs, payloads);
        ParityValue[] got = store.getAll(keys);
        for (int i = 0; i < keys.size(); i++) {
          assertArrayEquals(keys.get(i).toString(), payloads.get(i).array(), StoreTesting.bytes(got[i]));
        }
        // Multi-key DEL of one file works on a cluster because all its keys share a slot.
        assertEquals(3, store.deleteFile(7, 1, 1, 3, 1));
        assertEquals(null, store.get(store.key(7, 1, 0, 1, 0)));
        assertEquals(0, store.server().maxMemory()); // unlimited on every master
      }
    }
  }
}
