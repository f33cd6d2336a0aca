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

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.Test;

/** The value format: round trip, and every kind of damage detected. */
public class TestParityValue {
  private static final ParityKey KEY = ParityKey.of("p:", 42, 7, 3, 5, 1);

  private static byte[] value(int len, Random r) {
    byte[] payload = new byte[len];
    r.nextBytes(payload);
    return ParityValue.encode(KEY, new int[] {11, 22, 33, 44}, ByteBuffer.wrap(payload));
  }

  @Test
  public void crc32cMatchesTheJdkAndTheKnownVector() {
    byte[] check = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    assertEquals(0xE3069283, Crc32c.of(check, 0, 9));
    assertEquals(0xE3069283, Crc32c.pureJava(check, 0, 9));
    Random r = new Random(1);
    for (int i = 0; i < 200; i++) {
      byte[] b = new byte[r.nextInt(5000)];
      r.nextBytes(b);
      int off = b.length == 0 ? 0 : r.nextInt(b.length);
      java.util.zip.CRC32C jdk = new java.util.zip.CRC32C();
      jdk.update(b, off, b.length - off);
      assertEquals((int) jdk.getValue(), Crc32c.pureJava(b, off, b.length - off));
      assertEquals((int) jdk.getValue(), Crc32c.of(ByteBuffer.allocateDirect(b.length - off).put(b, off, b.length - off)
          .flip()));
    }
  }

  @Test
  public void aRunningCrc32cFedInPiecesIsTheCrc32cOfTheWhole() {
    Random r = new Random(3);
    for (int i = 0; i < 100; i++) {
      byte[] b = new byte[r.nextInt(20000)];
      r.nextBytes(b);
      for (java.util.zip.Checksum c : new java.util.zip.Checksum[] {Crc32c.running(), Crc32c.pureJavaRunning()}) {
        c.update(7); // then reset: what came before a reset does not count
        c.reset();
        int at = 0;
        while (at < b.length) {
          int n = Math.min(b.length - at, 1 + r.nextInt(3000));
          if (n == 1) {
            c.update(b[at]);
          } else {
            c.update(b, at, n);
          }
          at += n;
        }
        assertEquals(c.getClass().getSimpleName(), Crc32c.of(b, 0, b.length), (int) c.getValue());
      }
    }
  }

  @Test
  public void roundTrip() throws Exception {
    Random r = new Random(2);
    byte[] payload = new byte[1000];
    r.nextBytes(payload);
    byte[] v = ParityValue.encode(KEY, new int[] {1, 2, 3, 4}, ByteBuffer.wrap(payload));
    ParityValue p = ParityValue.decode(KEY, v);
    byte[] got = new byte[p.payloadLength()];
    p.payload().get(got);
    assertArrayEquals(payload, got);
    assertEquals(4, p.dataCount());
    assertEquals(3, p.dataCrc(2));
    assertEquals(v.length, p.storedBytes());
  }

  @Test
  public void everyFlippedByteIsDetected() {
    byte[] v = value(300, new Random(3));
    for (int i = 0; i < v.length; i++) {
      for (int bit : new int[] {0, 7}) {
        byte[] bad = v.clone();
        bad[i] ^= (byte) (1 << bit);
        expectCorrupt(KEY, bad);
      }
    }
  }

  @Test
  public void truncatedOrOtherFileOrGenerationIsDetected() {
    byte[] v = value(300, new Random(4));
    for (int len : new int[] {0, 10, 47, ParityValue.headerLength(4) - 1, ParityValue.headerLength(4), v.length - 1}) {
      expectCorrupt(KEY, Arrays.copyOf(v, len));
    }
    byte[] longer = Arrays.copyOf(v, v.length + 1);
    expectCorrupt(KEY, longer);
    assertTrue(message(ParityKey.of("p:", 43, 7, 3, 5, 1), v).contains("belongs to file 42"));
    assertTrue(message(ParityKey.of("p:", 42, 8, 3, 5, 1), v).contains("generation 7"));
    assertTrue(message(ParityKey.of("p:", 42, 7, 3, 6, 1), v).contains("substripe 5"));
    expectCorrupt(KEY, null);
  }

  private static String message(ParityKey key, byte[] v) {
    try {
      ParityValue.decode(key, v);
      fail("accepted");
      return null;
    } catch (CorruptParityException e) {
      return e.getMessage();
    }
  }

  private static void expectCorrupt(ParityKey key, byte[] v) {
    try {
      ParityValue.decode(key, v);
      fail("accepted a damaged value of " + (v == null ? "null" : v.length + " bytes"));
    } catch (CorruptParityException expected) {
      assertTrue(expected.getMessage().startsWith(key.toString()));
    }
  }

  @Test
  public void aValueSealedInPlaceIsTheEncodedValue() throws Exception {
    Random r = new Random(9);
    byte[] payload = new byte[70_000];
    r.nextBytes(payload);
    int[] crcs = {5, 6, 7, 8};
    int h = ParityValue.headerBytes(crcs.length);
    byte[] room = new byte[h + payload.length];
    Arrays.fill(room, 0, h, (byte) 0x7f); // whatever was there is overwritten
    System.arraycopy(payload, 0, room, h, payload.length);
    byte[] sealed = ParityValue.seal(KEY, crcs, room);
    assertTrue("sealed in place, not copied", sealed == room);
    assertArrayEquals(ParityValue.encode(KEY, crcs, ByteBuffer.wrap(payload)), sealed);
    ParityValue v = ParityValue.decode(KEY, sealed);
    assertEquals(payload.length, v.payloadLength());
    assertEquals(7, v.dataCrc(2));
    try {
      ParityValue.seal(KEY, crcs, new byte[h - 1]);
      fail("a value without room for its header was sealed");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("no room for its " + h + "-byte header"));
    }
  }
}
