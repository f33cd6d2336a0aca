package org.pocache.hdfs.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Collections;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.cache.ParityValue;
import org.pocache.cache.RedisParityStore;
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;
import org.pocache.manager.proto.PoCacheManagerProtos.LayoutProto;
import org.pocache.manager.protocol.ManagerClient;

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
      check(c, m, contiguous, LayoutProto.CONTIGUOUS, 4);

      Path striped = new Path("/fill/striped");
      c.hdfs.writeStripedFile(striped, "RS-3-2-64k", 3 * ManagerCluster.SUBBLOCK * 5 + 777, 2);
      check(c, m, striped, LayoutProto.STRIPED, 3);
    }
  }

  private static void check(ManagerCluster c, ManagerClient m, Path p, LayoutProto layout, int k) throws Exception {
    assertTrue(m.prefetch(p.toString()).contains("fill started"));
    GenericTestUtils.waitFor(() -> {
      try {
        return m.listCached(p.toString(), 1).getDescriptorsList().stream()
            .anyMatch(d -> d.getState().name().equals("CACHED"));
      } catch (Exception e) {
        return false;
      }
    }, 50, 20_000);
    DescriptorProto filled = m.getDescriptor(p.toString()).getParity();
    assertEquals(layout, filled.getLayout());
    assertEquals(k, filled.getK());
    // The reference: the whole file encoded at once, under the next generation.
    DescriptorProto reference = filled.toBuilder().setGeneration(filled.getGeneration() + 1).build();
    try (RedisParityStore store = c.store()) {
      long refBytes = ParityUploader.upload(c.hdfs.fs(), p, reference, filled.getLength(), store);
      long seen = 0;
      int values = 0;
      for (int s = 0; s < filled.getStripes(); s++) {
        for (int j = 0; j < filled.getSubstripesPerStripe(); j++) {
          ParityValue want = store.get(store.key(filled.getFileId(), reference.getGeneration(), s, j, 0));
          ParityValue got = store.get(store.key(filled.getFileId(), filled.getGeneration(), s, j, 0));
          if (want == null) {
            assertEquals(null, got); // past the end of a short stripe: nothing stored
            continue;
          }
          assertTrue("stripe " + s + " substripe " + j + " missing", got != null);
          assertEquals(want.payload(), got.payload());
          for (int i = 0; i < k; i++) {
            assertEquals(want.dataCrc(i), got.dataCrc(i));
          }
          seen += got.payloadLength();
          values++;
        }
      }
      assertEquals(refBytes, seen);
      assertEquals(refBytes, filled.getParityBytes());
      assertTrue(values > 1);
    }
  }
}
