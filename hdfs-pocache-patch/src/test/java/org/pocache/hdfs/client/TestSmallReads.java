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
package org.pocache.hdfs.client;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.junit.Test;

/** The buffer small sequential reads are served from, over a scripted source. */
public class TestSmallReads {
  private static final int LENGTH = 200_000;

  /** A file of LENGTH bytes read from {@code pos} on, at most {@code most} bytes a call; counts what it reads. */
  private static final class File implements SmallReads.Source {
    final byte[] data = new byte[LENGTH];
    final FileSystem.Statistics stats;
    final List<Integer> asked = new ArrayList<>();
    final int most;
    long pos;

    File(FileSystem.Statistics stats, int most) {
      for (int i = 0; i < LENGTH; i++) {
        data[i] = (byte) (i * 31 + 7);
      }
      this.stats = stats;
      this.most = most;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      asked.add(len);
      if (pos >= LENGTH) {
        return -1;
      }
      int n = (int) Math.min(Math.min(len, most), LENGTH - pos);
      System.arraycopy(data, (int) pos, b, off, n);
      pos += n;
      stats.incrementBytesRead(n); // as HDFS's stream counts what it returns
      return n;
    }
  }

  @Test
  public void smallReadsAreServedFromOneFillAndCountedAsTheyAreTaken() throws Exception {
    FileSystem.Statistics stats = new FileSystem.Statistics("test");
    File f = new File(stats, Integer.MAX_VALUE);
    SmallReads s = new SmallReads(stats);
    byte[] got = new byte[LENGTH];
    int n = 0;
    for (int i = 0; i < 100; i++) {
      n += s.read(got, n, 100, f);
    }
    assertEquals("one fill for a hundred 100-byte reads", Arrays.asList(SmallReads.FILL), f.asked);
    assertEquals(10_000, n);
    assertEquals("the statistics count what the caller took", 10_000, stats.getBytesRead());
    assertEquals(SmallReads.FILL - 10_000, s.buffered());
    assertArrayEquals(Arrays.copyOf(f.data, n), Arrays.copyOf(got, n));

    assertEquals("a read asks for no more than is buffered", SmallReads.FILL - 10_000,
        s.read(got, n, 100_000, f));
    n = SmallReads.FILL;
    assertEquals(1, f.asked.size());
    int big = s.read(got, n, SmallReads.SMALL, f);
    assertEquals("a read of SMALL bytes or more goes to the source straight", SmallReads.SMALL, big);
    assertEquals(Arrays.asList(SmallReads.FILL, SmallReads.SMALL), f.asked);
    assertEquals(0, s.read(got, 0, 0, f));
    n += big;
    while (n < LENGTH) {
      n += s.read(got, n, Math.min(4096, LENGTH - n), f);
    }
    assertArrayEquals(f.data, got);
    assertEquals(-1, s.read(got, 0, 10, f));
    assertEquals(LENGTH, stats.getBytesRead());
  }

  @Test
  public void aFillTakesWhatTheSourceGivesInOneRead() throws Exception {
    FileSystem.Statistics stats = new FileSystem.Statistics("test");
    File f = new File(stats, 5000);
    SmallReads s = new SmallReads(stats);
    byte[] got = new byte[100];
    assertEquals(100, s.read(got, 0, 100, f));
    assertEquals(4900, s.buffered());
    assertEquals("a read returns what is buffered, at most", 4900, s.read(new byte[8000], 0, 8000, f));
    assertEquals(Arrays.asList(SmallReads.FILL), f.asked);
    assertEquals(5000, stats.getBytesRead());
  }

  @Test
  public void aSeekWithinTheFillMovesInsideItAndNowhereElse() throws Exception {
    FileSystem.Statistics stats = new FileSystem.Statistics("test");
    File f = new File(stats, Integer.MAX_VALUE);
    SmallReads s = new SmallReads(stats);
    assertFalse("nothing filled yet", s.seekWithin(0, 0));
    byte[] b = new byte[10];
    s.read(b, 0, 10, f);
    long end = f.pos; // where the fill ended in the file
    assertEquals(SmallReads.FILL, end);
    assertTrue(s.seekWithin(end, 0));
    assertEquals(SmallReads.FILL, s.buffered());
    assertTrue("to the fill's end", s.seekWithin(end, end));
    assertEquals(0, s.buffered());
    assertTrue(s.seekWithin(end, 500));
    s.read(b, 0, 10, f);
    assertArrayEquals(Arrays.copyOfRange(f.data, 500, 510), b);
    assertFalse("past the fill", s.seekWithin(end, end + 1));
    assertEquals("left where it was", SmallReads.FILL - 510, s.buffered());
    s.skip(90);
    s.read(b, 0, 10, f);
    assertArrayEquals(Arrays.copyOfRange(f.data, 600, 610), b);
    s.clear();
    assertEquals(0, s.buffered());
    assertFalse(s.seekWithin(end, 0));
  }
}
