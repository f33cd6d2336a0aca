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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.PoCacheMiniCluster;
import org.pocache.manager.PoCacheConfigKeys;

/**
 * The input stream's contract beyond Hadoop's contract suites, checked against stock
 * HDFS on the same file: every call below gives POCache's stream the same answer (the
 * bytes, the count, the position, or the class of the exception) as HDFS's own stream,
 * for a file with cached parity, for one without, and for the cached file while one of
 * its DataNodes is a straggler.
 */
public class TestStreamSemantics {
  private static final long BLOCK = 1 << 20;
  private static final long LENGTH = 4 * BLOCK;
  private static PoCacheMiniCluster cluster;
  private static FileSystem stock;
  private static FileSystem pocache;

  @BeforeClass
  public static void start() throws Exception {
    cluster = PoCacheMiniCluster.builder().dataNodes(4)
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(256 << 10))
        .start();
    stock = cluster.hdfs.fs();
    pocache = cluster.client();
  }

  @AfterClass
  public static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  public void aCachedFileAnswersAsHdfsDoes() throws Exception {
    Path p = new Path("/semantics/cached");
    cluster.cachedPinnedFile(p, BLOCK, 4, 11);
    assertPoCacheStream(p);
    compare(p);
  }

  @Test
  public void anUncachedFileAnswersAsHdfsDoes() throws Exception {
    Path p = new Path("/semantics/uncached");
    cluster.hdfs.writePinnedFile(p, BLOCK, 4, 12);
    compare(p);
  }

  @Test
  public void aCachedFileBehindAStragglerAnswersAsHdfsDoes() throws Exception {
    Path p = new Path("/semantics/straggler");
    cluster.cachedPinnedFile(p, BLOCK, 4, 13);
    cluster.hdfs.throttle(1).setBandwidth(BLOCK); // a second per block on DataNode 1
    try {
      compare(p);
    } finally {
      cluster.hdfs.throttle(1).reset();
    }
  }

  private static void assertPoCacheStream(Path p) throws Exception {
    try (FSDataInputStream in = pocache.open(p)) {
      assertTrue("not a POCache stream: " + in.getWrappedStream().getClass(),
          in.getWrappedStream() instanceof PoCacheInputStream);
    }
  }

  /** Runs every call on a stream of each file system and compares the answers one by one. */
  private static void compare(Path p) throws Exception {
    List<String> want = answers(stock, p);
    List<String> got = answers(pocache, p);
    assertEquals("answers to the same calls", want.size(), got.size());
    for (int i = 0; i < want.size(); i++) {
      assertEquals("call " + i + " on " + p + " (stock HDFS answered first)", want.get(i), got.get(i));
    }
  }

  private interface Call {
    Object run() throws Exception;
  }

  private static void add(List<String> out, String what, Call c) {
    String answer;
    try {
      Object r = c.run();
      answer = String.valueOf(r);
    } catch (Exception | Error e) {
      answer = "threw " + e.getClass().getName();
    }
    out.add(what + ": " + answer);
  }

  private static List<String> answers(FileSystem fs, Path p) throws Exception {
    List<String> out = new ArrayList<>();
    FSDataInputStream in = fs.open(p);
    add(out, "stream type", () -> in instanceof HdfsDataInputStream);
    add(out, "available at 0", () -> in.available() > 0);
    add(out, "read(heap ByteBuffer)", () -> {
      ByteBuffer b = ByteBuffer.allocate(300_000);
      int n = readAll(in, b);
      return n + " " + crc(b) + " pos " + in.getPos();
    });
    add(out, "read(direct ByteBuffer) across a block", () -> {
      in.seek(BLOCK - 1000);
      ByteBuffer b = ByteBuffer.allocateDirect(200_000);
      int n = readAll(in, b);
      return n + " " + crc(b) + " pos " + in.getPos();
    });
    add(out, "read(empty ByteBuffer)", () -> in.read(ByteBuffer.allocate(0)));
    add(out, "readFully(pos) across blocks", () -> {
      byte[] b = new byte[(int) (2 * BLOCK)];
      in.readFully(BLOCK / 2, b);
      return crc(b) + " pos " + in.getPos();
    });
    add(out, "readFully(pos, off, len)", () -> {
      byte[] b = new byte[100_000];
      in.readFully(3 * BLOCK - 10, b, 5, 90_000);
      return crc(b);
    });
    add(out, "readFully past EOF", () -> {
      in.readFully(LENGTH - 10, new byte[20]);
      return "read";
    });
    add(out, "pread at EOF", () -> in.read(LENGTH, new byte[10], 0, 10));
    add(out, "pread over EOF", () -> {
      byte[] b = new byte[100];
      return in.read(LENGTH - 40, b, 0, 100) + " " + crc(b);
    });
    add(out, "pread of 0 bytes", () -> in.read(10, new byte[10], 0, 0));
    add(out, "pread into null", () -> in.read(0, null, 0, 10));
    add(out, "readFully into null", () -> {
      in.readFully(0, null);
      return "read";
    });
    add(out, "pread with a negative offset", () -> in.read(0, new byte[10], -1, 5));
    add(out, "pread longer than the buffer", () -> in.read(0, new byte[10], 5, 10));
    add(out, "pread at a negative position", () -> in.read(-1, new byte[10], 0, 10));
    add(out, "read(byte[]) with a negative length", () -> in.read(new byte[10], 0, -1));
    add(out, "seek past EOF", () -> {
      in.seek(LENGTH + 1);
      return in.getPos();
    });
    add(out, "seek to a negative offset", () -> {
      in.seek(-1);
      return in.getPos();
    });
    add(out, "seek to EOF and read", () -> {
      in.seek(LENGTH);
      return in.read() + " " + in.read(new byte[10], 0, 10) + " available " + in.available() + " pos "
          + in.getPos();
    });
    add(out, "seek back and read", () -> {
      in.seek(2 * BLOCK + 7);
      byte[] b = new byte[50_000];
      in.readFully(b);
      return crc(b) + " pos " + in.getPos() + " available>0 " + (in.available() > 0);
    });
    add(out, "skip", () -> in.skip(1000) + " pos " + in.getPos());
    add(out, "small reads across a block, and the bytes the statistics count", () -> {
      FileSystem.Statistics st = FileSystem.getStatistics(fs.getUri().getScheme(), fs.getClass());
      long before = st.getBytesRead();
      in.seek(BLOCK - 3000);
      byte[] b = new byte[6000];
      for (int n = 0; n < b.length; ) {
        n += in.read(b, n, Math.min(100, b.length - n));
      }
      return crc(b) + " pos " + in.getPos() + " counted " + (st.getBytesRead() - before);
    });
    add(out, "single-byte reads", () -> {
      byte[] b = new byte[3000];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) in.read();
      }
      return crc(b) + " pos " + in.getPos() + " available " + in.available();
    });
    add(out, "a small read, a seek back into what was read ahead, a small read", () -> {
      in.seek(2 * BLOCK + 100);
      byte[] b = new byte[200];
      in.readFully(b, 0, 100);
      in.seek(2 * BLOCK + 50);
      in.readFully(b, 100, 100);
      return crc(b) + " pos " + in.getPos();
    });
    add(out, "a small read, then skips within and past what was read ahead", () -> {
      byte[] b = new byte[10];
      in.readFully(b);
      long near = in.skip(500);
      long atNear = in.getPos();
      long far = in.skip(300_000);
      in.readFully(b);
      return near + " " + atNear + " " + far + " " + crc(b) + " pos " + in.getPos();
    });
    add(out, "a small read, then a read into a ByteBuffer", () -> {
      byte[] b = new byte[10];
      in.readFully(b);
      ByteBuffer bb = ByteBuffer.allocate(100_000);
      int n = readAll(in, bb);
      return crc(b) + " " + n + " " + crc(bb) + " pos " + in.getPos();
    });
    add(out, "is CanUnbuffer", () -> in.getWrappedStream() instanceof CanUnbuffer);
    add(out, "unbuffer, then read on", () -> {
      long at = in.getPos();
      in.unbuffer();
      byte[] b = new byte[70_000];
      in.readFully(b);
      return at + " " + crc(b) + " pos " + in.getPos();
    });
    for (String cap : Arrays.asList(StreamCapabilities.UNBUFFER, StreamCapabilities.READAHEAD,
        StreamCapabilities.DROPBEHIND, "in:preadbytebuffer", "in:readbytebuffer", "hflush", "nonsense")) {
      add(out, "hasCapability(" + cap + ")", () -> in.hasCapability(cap));
    }
    add(out, "read to the end", () -> {
      in.seek(0);
      byte[] b = new byte[(int) LENGTH];
      int n = 0;
      for (int r; n < b.length && (r = in.read(b, n, Math.min(65536, b.length - n))) > 0; ) {
        n += r;
      }
      return n + " " + crc(b) + " then " + in.read();
    });
    add(out, "read statistics", () -> {
      if (!(in instanceof HdfsDataInputStream)) {
        return "none";
      }
      long total = ((HdfsDataInputStream) in).getReadStatistics().getTotalBytesRead();
      return total >= LENGTH;
    });
    in.close();
    add(out, "close again", () -> {
      in.close();
      return "closed";
    });
    add(out, "read() after close", in::read);
    add(out, "read(byte[]) after close", () -> in.read(new byte[10], 0, 10));
    add(out, "read(ByteBuffer) after close", () -> in.read(ByteBuffer.allocate(10)));
    add(out, "seek after close", () -> {
      in.seek(5);
      return in.getPos();
    });
    add(out, "available after close", in::available);
    return out;
  }

  /**
   * Small reads are served from a fill read ahead ({@link SmallReads}). POCache's reads that
   * fall back to HDFS's stream during a fill go on from the caller's position, not from
   * where the fill ended: the bytes read ahead and not yet taken are read again.
   */
  @Test
  public void smallReadsThatFallBackDuringAFillLoseNoBytes() throws Exception {
    Path p = new Path("/semantics/small-fallback");
    cluster.cachedPinnedFile(p, BLOCK, 4, 14);
    byte[] want = new byte[(int) LENGTH];
    try (FSDataInputStream s = stock.open(p)) {
      s.readFully(0, want);
    }
    byte[] got = new byte[(int) LENGTH];
    try (FSDataInputStream in = pocache.open(p)) {
      Object seq = field(in.getWrappedStream(), "seq");
      int n = 0;
      while (n < 1000) {
        n += in.read(got, n, 100); // direct reads, from a fill
      }
      SequentialSource failing = new SequentialSource() {
        @Override
        public int read(long pos, byte[] b, int off, int len) {
          throw new IllegalStateException("injected: the sequential reader fails");
        }

        @Override
        public int read(long pos, ByteBuffer dst) {
          throw new IllegalStateException("injected: the sequential reader fails");
        }

        @Override
        public void close() {
        }
      };
      setField(seq, "sequential", failing);
      setField(seq, "direct", false); // the next fill is the failing reader's
      for (int r; n < got.length && (r = in.read(got, n, Math.min(100, got.length - n))) > 0; ) {
        n += r;
      }
      assertEquals("fell back to HDFS's stream", false, ((SequentialReads) seq).active());
      assertEquals(LENGTH, n);
      assertEquals(LENGTH, in.getPos());
    }
    assertEquals("the bytes read", crc(want), crc(got));
  }

  private static Object field(Object o, String name) throws ReflectiveOperationException {
    java.lang.reflect.Field f = o.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(o);
  }

  private static void setField(Object o, String name, Object value) throws ReflectiveOperationException {
    java.lang.reflect.Field f = o.getClass().getDeclaredField(name);
    f.setAccessible(true);
    f.set(o, value);
  }

  private static int readAll(FSDataInputStream in, ByteBuffer b) throws Exception {
    int n = 0;
    while (b.hasRemaining()) {
      int r = in.read(b);
      if (r < 0) {
        break;
      }
      n += r;
    }
    return n;
  }

  private static long crc(ByteBuffer b) {
    ByteBuffer d = b.duplicate();
    d.flip();
    CRC32 c = new CRC32();
    c.update(d);
    return c.getValue();
  }

  private static long crc(byte[] b) {
    CRC32 c = new CRC32();
    c.update(b, 0, b.length);
    return c.getValue();
  }
}
