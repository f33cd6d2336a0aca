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

import java.util.Collections;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;

/**
 * The fill worker (the Manager's default ParityFiller) fills a replicated file
 * with a short last stripe and an erasure-coded file: every parity value it
 * uploads equals what an independent whole-file encoder makes, data CRCs included.
 */
public class TestFillWorker {
  @Test
  public void fillsMatchAnIndependentEncoding() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(5, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path contiguous = new Path("/fill/contiguous");
      c.writePlain(contiguous, 5 * ManagerCluster.BLOCK + 1000, 1); // two stripes, the second short
      check(c, m, contiguous, ParityDescriptor.Layout.CONTIGUOUS, 4);

      Path striped = new Path("/fill/striped");
      c.hdfs.writeStripedFile(striped, "RS-3-2-64k", 3 * ManagerCluster.SUBBLOCK * 5 + 777, 2);
      ParityDescriptor d = check(c, m, striped, ParityDescriptor.Layout.STRIPED, 3);
      assertEquals(64 << 10, d.getSubblockBytes());

      // Cells smaller than the configured subblock: a substripe is still one row of
      // cells, since a data subblock of several cells is not one range of the file.
      Path narrow = new Path("/fill/narrow-cells");
      c.hdfs.writeStripedFile(narrow, "RS-3-2-16k", 3 * (16 << 10) * 11 + 5, 3);
      d = check(c, m, narrow, ParityDescriptor.Layout.STRIPED, 3);
      assertEquals(16 << 10, d.getSubblockBytes());
      assertEquals(16 << 10, d.getCellSize());
    }
  }

  private static ParityDescriptor check(ManagerCluster c, ManagerClient m, Path p, ParityDescriptor.Layout layout,
      int k)
      throws Exception {
    assertTrue(m.prefetch(p.toString()).contains("fill started"));
    GenericTestUtils.waitFor(() -> {
      try {
        return m.listCached(p.toString(), 1).getDescriptors().stream()
            .anyMatch(d -> d.getState().name().equals("CACHED"));
      } catch (Exception e) {
        return false;
      }
    }, 50, 20_000);
    ParityDescriptor filled = m.getDescriptor(p.toString()).getParity();
    assertEquals(layout, filled.getLayout());
    assertEquals(k, filled.getK());
    assertTrue(c.assertParityMatchesIndependentEncoding(p, filled) > 1);
    return filled;
  }
}
