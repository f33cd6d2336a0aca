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

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.testkit.DataPattern;

/**
 * A read miss the Manager admits is handed to the reader: a reader that reads the
 * whole file uploads the parity itself; one that does not (or cannot) hands the
 * reservation back and the Manager's fill worker fills the file instead. Every
 * value equals an independent encoding, and every read returns the file's bytes.
 */
public class TestReaderFill {
  private static final long LENGTH = 9 * ManagerCluster.BLOCK + 12_345; // three stripes, the last short

  private static Map<String, String> conf() {
    Map<String, String> c = new HashMap<>();
    c.put(PoCacheConfigKeys.CSAC_ADMISSION_KEY, "cache-upon-access");
    return c;
  }

  private static ParityDescriptor awaitCached(ManagerClient m, Path p) throws Exception {
    ParityDescriptor[] d = new ParityDescriptor[1];
    GenericTestUtils.waitFor(() -> {
      try {
        d[0] = m.getDescriptor(p.toString()).getParity();
        return d[0] != null;
      } catch (Exception e) {
        return false;
      }
    }, 50, 20_000);
    return d[0];
  }

  @Test
  public void readersOfWholeFilesFillTheirParity() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, conf());
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);

      // Sequential reads in odd chunks, as a record reader would.
      Path seq = new Path("/readerfill/sequential");
      c.writePlain(seq, LENGTH, 81);
      byte[] buf = new byte[(int) LENGTH];
      try (FSDataInputStream in = fs.open(seq)) {
        int off = 0;
        for (int n; off < buf.length && (n = in.read(buf, off, Math.min(70_001, buf.length - off))) > 0; ) {
          off += n;
        }
        assertEquals(buf.length, off);
      }
      assertEquals(-1, DataPattern.firstMismatch(81, 0, buf, 0, buf.length));
      assertEquals(1, fs.readerFills());
      ParityDescriptor d = awaitCached(m, seq);
      GenericTestUtils.waitFor(() -> fs.readerFillsCommitted() == 1, 50, 20_000);
      assertTrue(c.assertParityMatchesIndependentEncoding(seq, d) > 1);

      // One positional read of the whole file.
      Path whole = new Path("/readerfill/positional");
      c.writePlain(whole, LENGTH, 82);
      try (FSDataInputStream in = fs.open(whole)) {
        in.readFully(0, buf);
      }
      assertEquals(-1, DataPattern.firstMismatch(82, 0, buf, 0, buf.length));
      d = awaitCached(m, whole);
      GenericTestUtils.waitFor(() -> fs.readerFillsCommitted() == 2, 50, 20_000);
      assertTrue(c.assertParityMatchesIndependentEncoding(whole, d) > 1);

      // A reader that stops halfway hands the file to the fill worker.
      Path half = new Path("/readerfill/half");
      c.writePlain(half, LENGTH, 83);
      byte[] part = new byte[(int) (LENGTH / 2)];
      try (FSDataInputStream in = fs.open(half)) {
        in.readFully(part);
      }
      assertEquals(-1, DataPattern.firstMismatch(83, 0, part, 0, part.length));
      assertEquals(3, fs.readerFills());
      d = awaitCached(m, half);
      assertTrue(c.assertParityMatchesIndependentEncoding(half, d) > 1);
      assertEquals("the fill worker, not the reader, filled it", 2, fs.readerFillsCommitted());

      // The cached file now reads proactively.
      try (FSDataInputStream in = fs.open(seq)) {
        in.readFully(0, buf);
      }
      assertEquals(-1, DataPattern.firstMismatch(81, 0, buf, 0, buf.length));
      assertTrue(fs.proactiveOpens() >= 1);
    }
  }

  /**
   * A Parquet reader reads the footer at the end first, then the column chunks from byte 4
   * up to the footer: the reader's fill passes the footer over, reads the 4 bytes it skips
   * and the tail it does not read again, and commits the parity itself (before, the footer
   * read stopped it, and the fill worker read the whole file again while the task read it).
   */
  @Test
  public void aFooterFirstReaderFillsTheParityItself() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, conf());
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/readerfill/parquet-like");
      c.writePlain(p, LENGTH, 84);
      int footer = 10_000;
      long footerStart = LENGTH - 8 - footer;
      try (FSDataInputStream in = fs.open(p)) {
        byte[] b = new byte[8];
        in.seek(LENGTH - 8);
        in.readFully(b);
        assertEquals(-1, DataPattern.firstMismatch(84, LENGTH - 8, b, 0, 8));
        byte[] f = new byte[footer];
        in.seek(footerStart);
        in.readFully(f);
        assertEquals(-1, DataPattern.firstMismatch(84, footerStart, f, 0, footer));
        in.seek(4);
        byte[] chunks = new byte[(int) (footerStart - 4)];
        int off = 0;
        for (int n; off < chunks.length && (n = in.read(chunks, off, Math.min(65_536, chunks.length - off))) > 0; ) {
          off += n;
        }
        assertEquals(chunks.length, off);
        assertEquals(-1, DataPattern.firstMismatch(84, 4, chunks, 0, chunks.length));
      }
      assertEquals(1, fs.readerFills());
      ParityDescriptor d = awaitCached(m, p);
      GenericTestUtils.waitFor(() -> fs.readerFillsCommitted() == 1, 50, 20_000);
      assertTrue(c.assertParityMatchesIndependentEncoding(p, d) > 1);
    }
  }

  @Test
  public void aReaderWithoutRoomForTheAccumulatorsHandsTheFillBack() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, conf());
         ManagerClient m = c.client();
         PoCacheFileSystem fs = c.pocacheClient(PoCacheConfigKeys.READ_FILL_MAX_KEY,
             Long.toString(ManagerCluster.BLOCK - 1))) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      Path p = new Path("/readerfill/no-room");
      c.writePlain(p, LENGTH, 84);
      byte[] buf = new byte[(int) LENGTH];
      try (FSDataInputStream in = fs.open(p)) {
        in.readFully(0, buf);
      }
      assertEquals(-1, DataPattern.firstMismatch(84, 0, buf, 0, buf.length));
      assertEquals(0, fs.readerFills());
      ParityDescriptor d = awaitCached(m, p);
      assertTrue(c.assertParityMatchesIndependentEncoding(p, d) > 1);
      assertFalse(fs.readerFillsCommitted() > 0);
    }
  }
}
