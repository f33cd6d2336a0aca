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

import java.util.Collections;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;

/**
 * A delete through PoCacheFileSystem drops the deleted files' parity at once; the
 * Manager checks with the NameNode, so files that still exist keep theirs. The
 * Manager's tick (and so its sweep) runs once a minute here: only the delete can
 * be what removes the parity within the test.
 */
public class TestForgetDeleted {
  @Test
  public void deletesThroughPoCacheDropParityAtOnceAndOnlyOfDeletedFiles() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4,
        Collections.singletonMap(PoCacheConfigKeys.MANAGER_TICK_KEY, "60000"));
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path single = new Path("/forget/one");
      Path inDir1 = new Path("/forget/dir/a");
      Path inDir2 = new Path("/forget/dir/sub/b");
      Path kept = new Path("/forget/dirsibling/c"); // shares a prefix with /forget/dir, not a parent
      Path plainDeleted = new Path("/forget/plain");
      Path[] all = {single, inDir1, inDir2, kept, plainDeleted};
      ParityDescriptor[] d = new ParityDescriptor[all.length];
      for (int i = 0; i < all.length; i++) {
        c.writePinnedAndCache(m, all[i], 60 + i);
        d[i] = m.getDescriptor(all[i].toString()).getParity();
        assertTrue(c.parityExists(d[i]));
      }

      // Saying a file that exists was deleted changes nothing.
      assertEquals("/forget/one: still exists, nothing dropped", m.forgetDeleted("/forget/one"));
      assertEquals("/: still exists, nothing dropped", m.forgetDeleted("/"));
      assertTrue(c.parityExists(d[0]));
      try {
        m.forgetDeleted("forget/one");
        fail("a relative path was accepted");
      } catch (java.io.IOException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("path must be absolute, got 'forget/one'"));
      }

      assertTrue(fs.delete(single, false));
      assertTrue(fs.delete(new Path("/forget/dir"), true));
      assertTrue(c.hdfs.fs().delete(plainDeleted, false)); // not through POCache: left to the sweep
      for (int i = 0; i < 3; i++) {
        ParityDescriptor gone = d[i];
        GenericTestUtils.waitFor(() -> {
          try {
            return !c.parityExists(gone);
          } catch (Exception e) {
            return false;
          }
        }, 50, 10_000);
      }
      assertTrue("a file that still exists keeps its parity", c.parityExists(d[3]));
      assertTrue(m.getDescriptor(kept.toString()).hasParity());
      assertTrue("only the sweep finds a file deleted behind POCache's back", c.parityExists(d[4]));
      assertEquals(2, m.listCached("/forget", 100).getDescriptors().size());
      // Said again, or for a path that never held cached files: nothing left to drop.
      assertEquals("/forget/one: parity of 0 deleted files dropped", m.forgetDeleted("/forget/one"));
      assertEquals("/forget/never: parity of 0 deleted files dropped", m.forgetDeleted("/forget/never"));
    }
  }
}
