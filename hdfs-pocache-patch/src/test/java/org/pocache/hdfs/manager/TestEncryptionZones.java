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

import java.io.File;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.key.KeyProvider;
import org.apache.hadoop.crypto.key.KeyProviderFactory;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.client.HdfsAdmin;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.manager.protocol.DescriptorLookup;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.WriteAdmission;
import org.pocache.testkit.TestDirs;

/**
 * Files in an HDFS encryption zone are never cached: their parity would be made from
 * the plaintext. Not on write, not on read, not by prefetch.
 */
public class TestEncryptionZones {
  @Test
  public void filesInAnEncryptionZoneAreNeverCached() throws Exception {
    File keys = new File(TestDirs.fresh("kms"), "keys.jceks");
    String provider = "jceks://file" + keys.getAbsolutePath();
    Map<String, String> conf = new HashMap<>();
    conf.put("hadoop.security.key.provider.path", provider);
    conf.put("dfs.encryption.key.provider.uri", provider);
    // The key exists before the NameNode loads the key store.
    Configuration keyConf = new Configuration();
    KeyProvider kp = KeyProviderFactory.get(new java.net.URI(provider), keyConf);
    kp.createKey("zone-key", new KeyProvider.Options(keyConf));
    kp.flush();
    try (ManagerCluster c = ManagerCluster.start(4, conf); ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Configuration kc = new Configuration(c.hdfs.conf());
      Path zone = new Path("/secret-zone");
      c.hdfs.fs().mkdirs(zone);
      new HdfsAdmin(c.hdfs.fs().getUri(), kc).createEncryptionZone(zone, "zone-key", java.util.EnumSet.noneOf(
          org.apache.hadoop.hdfs.client.CreateEncryptionZoneFlag.class));

      // Written with the raw HDFS stream: Hadoop 3.1.4's crypto streams do not run on
      // JDK 17 (CryptoStreamUtils frees buffers through sun.misc.Cleaner), and the
      // NameNode marks the file encrypted at create either way.
      Path p = new Path(zone, "payroll");
      org.apache.hadoop.hdfs.DFSClient raw = c.hdfs.fs().getClient();
      try (java.io.OutputStream out = raw.create(p.toString(), true)) {
        out.write(new byte[(int) (4 * ManagerCluster.BLOCK)]);
        WriteAdmission a = m.admitWrite(p.toString(), 0);
        assertFalse("a file in an encryption zone was admitted on write", a.hasReservation());
        assertTrue(a.getReason(), a.getReason().contains("encryption zone"));
      }
      assertTrue(c.hdfs.fs().getFileStatus(p).isEncrypted());
      // Asked for on read and prefetched: still no parity, and the Manager says why.
      try {
        m.prefetch(p.toString());
        org.junit.Assert.fail("an encryption-zone file was prefetched");
      } catch (java.io.IOException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("encryption zone"));
      }
      DescriptorLookup r = m.getDescriptor(p.toString(), true);
      assertFalse(r.hasParity() || r.hasFill());
      assertTrue(r.getDecision(), r.getDecision().contains("encryption zone"));
      assertEquals(0, m.listCached("/secret-zone", 10).getDescriptors().size());
    }
  }
}
