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

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.zip.Checksum;

/**
 * CRC32C (Castagnoli, polynomial 0x1EDC6F41 reflected 0x82F63B78), as in HDFS's
 * block checksums. On Java 9+ it uses java.util.zip.CRC32C, which the JVM
 * accelerates with the CPU's crc32 instruction; on Java 8 a table-driven
 * slicing-by-8 implementation with identical results.
 */
public final class Crc32c {
  private static final int POLY = 0x82F63B78;
  private static final int[][] T = new int[8][256];
  private static final MethodHandle JDK_CRC32C;

  static {
    for (int n = 0; n < 256; n++) {
      int c = n;
      for (int k = 0; k < 8; k++) {
        c = (c & 1) != 0 ? (c >>> 1) ^ POLY : c >>> 1;
      }
      T[0][n] = c;
    }
    for (int n = 0; n < 256; n++) {
      for (int t = 1; t < 8; t++) {
        T[t][n] = (T[t - 1][n] >>> 8) ^ T[0][T[t - 1][n] & 0xff];
      }
    }
    MethodHandle h = null;
    try {
      Class<?> c = Class.forName("java.util.zip.CRC32C");
      h = MethodHandles.publicLookup().findConstructor(c, MethodType.methodType(void.class))
          .asType(MethodType.methodType(Checksum.class));
    } catch (ReflectiveOperationException | RuntimeException java8) {
      // Java 8: the table-driven code below.
    }
    JDK_CRC32C = h;
  }

  private Crc32c() {
  }

  /** CRC32C of {@code len} bytes of {@code b} from {@code off}. */
  public static int of(byte[] b, int off, int len) {
    if (JDK_CRC32C != null) {
      Checksum c = jdk();
      c.update(b, off, len);
      return (int) c.getValue();
    }
    return pureJava(b, off, len);
  }

  /** CRC32C of the bytes of {@code buf} from position to limit; the position is not moved. */
  public static int of(ByteBuffer buf) {
    if (buf.hasArray()) {
      return of(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
    }
    byte[] tmp = new byte[Math.min(buf.remaining(), 64 << 10)];
    ByteBuffer d = buf.duplicate();
    int crc = ~0;
    while (d.hasRemaining()) {
      int n = Math.min(tmp.length, d.remaining());
      d.get(tmp, 0, n);
      crc = update(crc, tmp, 0, n);
    }
    return ~crc;
  }

  private static Checksum jdk() {
    try {
      return (Checksum) JDK_CRC32C.invokeExact();
    } catch (Throwable t) {
      throw new IllegalStateException("java.util.zip.CRC32C failed", t);
    }
  }

  /**
   * A running CRC32C: fed piece by piece, its {@code getValue()} is {@link #of} of all the
   * bytes given since it was made or reset.
   */
  public static Checksum running() {
    return JDK_CRC32C != null ? jdk() : new Running();
  }

  /** The running CRC32C used where java.util.zip.CRC32C is missing (Java 8). */
  static Checksum pureJavaRunning() {
    return new Running();
  }

  /** {@link #running()} where java.util.zip.CRC32C is missing (Java 8). */
  private static final class Running implements Checksum {
    private int crc = ~0;

    @Override
    public void update(int b) {
      crc = (crc >>> 8) ^ T[0][(crc ^ b) & 0xff];
    }

    @Override
    public void update(byte[] b, int off, int len) {
      crc = Crc32c.update(crc, b, off, len);
    }

    @Override
    public long getValue() {
      return ~crc & 0xffffffffL;
    }

    @Override
    public void reset() {
      crc = ~0;
    }
  }

  /** CRC32C of the concatenated chunks, starting {@code skip} bytes into the first one. */
  public static int ofChunks(byte[][] chunks, int skip) {
    if (JDK_CRC32C != null) {
      Checksum c = jdk();
      for (int i = 0; i < chunks.length; i++) {
        int from = i == 0 ? skip : 0;
        c.update(chunks[i], from, chunks[i].length - from);
      }
      return (int) c.getValue();
    }
    int crc = ~0;
    for (int i = 0; i < chunks.length; i++) {
      int from = i == 0 ? skip : 0;
      crc = update(crc, chunks[i], from, chunks[i].length - from);
    }
    return ~crc;
  }

  static int pureJava(byte[] b, int off, int len) {
    return ~update(~0, b, off, len);
  }

  private static int update(int crc, byte[] b, int off, int len) {
    int i = off;
    int end = off + len;
    while (end - i >= 8) {
      int lo = crc ^ ((b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24);
      crc = T[7][lo & 0xff] ^ T[6][(lo >>> 8) & 0xff] ^ T[5][(lo >>> 16) & 0xff] ^ T[4][lo >>> 24]
          ^ T[3][b[i + 4] & 0xff] ^ T[2][b[i + 5] & 0xff] ^ T[1][b[i + 6] & 0xff] ^ T[0][b[i + 7] & 0xff];
      i += 8;
    }
    while (i < end) {
      crc = (crc >>> 8) ^ T[0][(crc ^ b[i++]) & 0xff];
    }
    return crc;
  }
}
