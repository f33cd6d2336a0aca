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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.Test;

/**
 * Format 2: a reader opens a value only if it is the one committed for its slot (its
 * digest), for that file, generation and position, and under privacy only under the
 * file's key; every change is detected, including a value sealed with the file key by
 * someone who holds it (any reader).
 */
public class TestSealedParityValue {
  private static final byte[] SECRET = new byte[ParitySeal.KEY_BYTES];

  static {
    new Random(99).nextBytes(SECRET);
  }

  private static ParitySeal seal(ParityProtection p, int keyId, long fileId, long generation) {
    return ParitySeal.of(p, keyId, ParitySeal.deriveFileKey(SECRET, fileId, generation));
  }

  private static ParityKey key(ParityProtection p, int stripe, int substripe, int parity) {
    return ParityKey.of("p:", 42, 7, stripe, substripe, parity).sealedWith(seal(p, 3, 42, 7));
  }

  private static final int SUBSTRIPES = 16;
  private static final int M = 2;

  /** {@code writer}'s key as a reader holds it: with the digest of {@code value} in its slot. */
  private static ParityKey reader(ParityKey writer, byte[] value) {
    byte[] table = new byte[8 * SUBSTRIPES * M * ParityValue.DIGEST_BYTES];
    int slot = (writer.stripe() * SUBSTRIPES + writer.substripe()) * M + writer.parityIndex();
    System.arraycopy(ParityValue.digest(value), 0, table, slot * ParityValue.DIGEST_BYTES, ParityValue.DIGEST_BYTES);
    return writer.sealedWith(writer.seal().withDigests(table, SUBSTRIPES, M));
  }

  private static byte[] payload(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  public void roundTripsAtEverySizeAroundASegment() throws Exception {
    for (ParityProtection p : new ParityProtection[] {ParityProtection.INTEGRITY, ParityProtection.PRIVACY}) {
      ParityKey key = key(p, 3, 5, 1);
      for (int n : new int[] {0, 1, 100, ParitySeal.SEGMENT - 16, ParitySeal.SEGMENT - 15, ParitySeal.SEGMENT,
          3 * ParitySeal.SEGMENT + 7, 1 << 20}) {
        byte[] payload = payload(n, n);
        int[] crcs = {11, 22, 33, 44};
        byte[] v = ParityValue.encode(key, crcs, ByteBuffer.wrap(payload));
        assertEquals(p + " " + n, ParityValue.valueBytes(4, n, key.seal()), v.length);
        assertEquals(p + " " + n, n, ParityValue.payloadBytes(v.length, 4, key.seal()));
        ParityValue got = ParityValue.decode(reader(key, v), v.clone());
        byte[] out = new byte[n];
        got.copyPayloadTo(out, 0);
        assertArrayEquals(p + " " + n, payload, out);
        assertEquals(33, got.dataCrc(2));
        assertEquals(v.length, got.storedBytes());
        // Read back in pieces, as GETRANGE does for large values.
        // The first piece ends inside the header, or after it (integrity then keeps the pieces).
        int h = ParityValue.headerBytes(4, key.seal());
        for (int cut : new int[] {ParityValue.SEALED_HEADER + 4, h + 1}) {
          if (v.length > cut + 100) {
            byte[][] chunks = {Arrays.copyOfRange(v, 0, cut), Arrays.copyOfRange(v, cut, cut + 50),
                Arrays.copyOfRange(v, cut + 50, v.length)};
            ParityValue again = ParityValue.decodeChunks(reader(key, v), chunks);
            assertArrayEquals(p + " " + n + " cut at " + cut, payload, toArray(again.payload()));
            byte[] copied = new byte[n];
            again.copyPayloadTo(copied, 0);
            assertArrayEquals(p + " " + n + " cut at " + cut, payload, copied);
            assertEquals(p + " " + n + " cut at " + cut, 33, again.dataCrc(2));
            assertEquals(v.length, again.storedBytes());
          }
        }
      }
    }
  }

  private static byte[] toArray(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return a;
  }

  @Test
  public void privacyHidesThePayloadAndTheDataCrcs() {
    ParityKey key = key(ParityProtection.PRIVACY, 0, 0, 0);
    byte[] payload = new byte[4096];
    Arrays.fill(payload, (byte) 'A'); // a short file: parity is the data times a constant
    byte[] v = ParityValue.encode(key, new int[] {0x12345678, 0, 0, 0}, ByteBuffer.wrap(payload));
    int runs = 0;
    for (int i = ParityValue.SEALED_HEADER; i + 8 <= v.length; i++) {
      boolean same = true;
      for (int j = 1; j < 8 && same; j++) {
        same = v[i + j] == v[i];
      }
      runs += same ? 1 : 0;
    }
    assertEquals("no run of 8 equal bytes survives encryption", 0, runs);
    assertFalse(ByteBuffer.wrap(v).getInt(ParityValue.SEALED_HEADER) == 0x12345678);
    // Two values of the same bytes differ: every value has its own nonce.
    byte[] w = ParityValue.encode(key, new int[] {0x12345678, 0, 0, 0}, ByteBuffer.wrap(payload));
    assertFalse(Arrays.equals(v, w));
  }

  @Test
  public void everyFlippedBitIsRejected() throws Exception {
    for (ParityProtection p : new ParityProtection[] {ParityProtection.INTEGRITY, ParityProtection.PRIVACY}) {
      ParityKey key = key(p, 1, 2, 0);
      byte[] v = ParityValue.encode(key, new int[] {1, 2, 3, 4}, ByteBuffer.wrap(payload(ParitySeal.SEGMENT + 300, 5)));
      ParityKey read = reader(key, v);
      ParityValue.decode(read, v.clone()); // the committed value opens
      Random r = new Random(6);
      for (int t = 0; t < 400; t++) {
        int i = t < 120 ? t : r.nextInt(v.length);
        byte[] bad = v.clone();
        bad[i] ^= (byte) (1 << r.nextInt(8));
        expectCorrupt(read, bad, null);
      }
    }
  }

  @Test
  public void aValueFromAnotherFileGenerationPositionOrKeyIsRejected() {
    for (ParityProtection p : new ParityProtection[] {ParityProtection.INTEGRITY, ParityProtection.PRIVACY}) {
      ParityKey key = key(p, 1, 2, 0);
      byte[] v = ParityValue.encode(key, new int[] {1, 2, 3, 4}, ByteBuffer.wrap(payload(1000, 7)));
      expectCorrupt(ParityKey.of("p:", 43, 7, 1, 2, 0).sealedWith(seal(p, 3, 43, 7)), v, "belongs to file 42");
      expectCorrupt(ParityKey.of("p:", 42, 8, 1, 2, 0).sealedWith(seal(p, 3, 42, 8)), v, "generation 7");
      expectCorrupt(ParityKey.of("p:", 42, 7, 1, 3, 0).sealedWith(key.seal()), v, "substripe 2");
      expectCorrupt(ParityKey.of("p:", 42, 7, 1, 2, 0).sealedWith(seal(p, 4, 42, 7)), v, "key id 3");
      if (p == ParityProtection.PRIVACY) {
        // Same key id, another secret: the value does not decrypt.
        byte[] other = SECRET.clone();
        other[0] ^= 1;
        ParityKey foreign = ParityKey.of("p:", 42, 7, 1, 2, 0)
            .sealedWith(ParitySeal.of(p, 3, ParitySeal.deriveFileKey(other, 42, 7)));
        expectCorrupt(foreign, v, "does not open");
      }
      // The header rewritten to point elsewhere: not the value committed for that slot.
      byte[] moved = v.clone();
      ByteBuffer.wrap(moved).putInt(28, 9);
      ParityKey there = ParityKey.of("p:", 42, 7, 1, 9, 0).sealedWith(key.seal());
      expectCorrupt(reader(there, v), moved, "digest mismatch");
      if (p == ParityProtection.PRIVACY) {
        expectCorrupt(there, moved, "does not open"); // and its tags do not match its header either
      }
      for (int len : new int[] {0, 47, ParityValue.SEALED_HEADER + 3, v.length - 1}) {
        expectCorrupt(key, Arrays.copyOf(v, len), null);
      }
      expectCorrupt(key, Arrays.copyOf(v, v.length + 1), null);
    }
  }

  @Test
  public void forgedValuesWithValidCrcsAreRejected() {
    // What an attacker with the Redis password but without the file key can write.
    ParityKey writer = key(ParityProtection.PRIVACY, 0, 0, 0);
    ParityKey sealed = reader(writer, ParityValue.encode(writer, new int[] {1, 2, 3, 4},
        ByteBuffer.wrap(payload(500, 7))));
    byte[] forged = ParityValue.encode(ParityKey.of("p:", 42, 7, 0, 0, 0), new int[] {1, 2, 3, 4},
        ByteBuffer.wrap(payload(500, 8)));
    expectCorrupt(sealed, forged, "an unprotected value");
    ParityKey guess = ParityKey.of("p:", 42, 7, 0, 0, 0)
        .sealedWith(ParitySeal.of(ParityProtection.PRIVACY, 3, new byte[ParitySeal.KEY_BYTES]));
    expectCorrupt(sealed, ParityValue.encode(guess, new int[] {1, 2, 3, 4}, ByteBuffer.wrap(payload(500, 8))),
        "digest mismatch");
    // A reader holds the file key: a value he seals with it is still not the committed one.
    expectCorrupt(sealed, ParityValue.encode(writer, new int[] {1, 2, 3, 4}, ByteBuffer.wrap(payload(500, 8))),
        "digest mismatch");
    ParityKey weaker = ParityKey.of("p:", 42, 7, 0, 0, 0).sealedWith(seal(ParityProtection.INTEGRITY, 3, 42, 7));
    expectCorrupt(sealed, ParityValue.encode(weaker, new int[] {1, 2, 3, 4}, ByteBuffer.wrap(payload(500, 8))),
        "protection");
    // And a sealed value is no good to a reader expecting none.
    expectCorrupt(ParityKey.of("p:", 42, 7, 0, 0, 0), ParityValue.encode(writer, new int[] {1, 2, 3, 4},
        ByteBuffer.wrap(payload(500, 8))), "bad magic");
  }

  @Test
  public void sealingInPlaceLeavesRoomForHeaderAndTrailer() throws Exception {
    for (ParityProtection p : new ParityProtection[] {ParityProtection.INTEGRITY, ParityProtection.PRIVACY}) {
      ParityKey key = key(p, 2, 0, 1);
      byte[] payload = payload(70_000, 9);
      int h = ParityValue.headerBytes(4, key.seal());
      byte[] room = new byte[ParityValue.valueBytes(4, payload.length, key.seal())];
      System.arraycopy(payload, 0, room, h, payload.length);
      byte[] v = ParityValue.seal(key, new int[] {5, 6, 7, 8}, room);
      assertTrue(v == room);
      assertArrayEquals(payload, toArray(ParityValue.decode(reader(key, v), v.clone()).payload()));
    }
  }

  @Test
  public void anUnopenedValueChecksItsHeaderNowAndTheRestWhenOpened() throws Exception {
    ParityKey writer = key(ParityProtection.PRIVACY, 1, 3, 1);
    byte[] payload = payload(40_000, 11);
    byte[] v = ParityValue.encode(writer, new int[] {1, 2, 3, 4}, ByteBuffer.wrap(payload));
    ParityKey read = reader(writer, v);
    ParityValue lazy = ParityValue.decodeChunksUnopened(read, new byte[][] {v.clone()});
    assertEquals(payload.length, lazy.payloadLength());
    try {
      lazy.payload();
      fail("read before open()");
    } catch (IllegalStateException expected) {
      // open() first
    }
    lazy.open();
    lazy.open(); // once is enough
    assertArrayEquals(payload, toArray(lazy.payload()));
    assertEquals(3, lazy.dataCrc(2));
    // Another file's value fails at once; a changed payload only when opened.
    try {
      ParityValue.decodeChunksUnopened(ParityKey.of("p:", 43, 7, 1, 3, 1).sealedWith(read.seal()),
          new byte[][] {v.clone()});
      fail("another file's value passed the header check");
    } catch (CorruptParityException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains("belongs to file 42"));
    }
    byte[] bad = v.clone();
    bad[bad.length - 100] ^= 1;
    ParityValue forged = ParityValue.decodeChunksUnopened(read, new byte[][] {bad});
    try {
      forged.open();
      fail("a changed value opened");
    } catch (CorruptParityException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains("digest mismatch"));
    }
  }

  @Test
  public void badSettingsAreNamed() {
    try {
      ParityProtection.parse("dfs.pocache.parity.protection", "secret");
      fail();
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("dfs.pocache.parity.protection must be privacy"));
    }
    try {
      ParitySeal.of(ParityProtection.PRIVACY, 1, new byte[5]);
      fail();
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("32-byte file key"));
    }
    assertEquals(ParityProtection.INTEGRITY, ParityProtection.parse("k", " Integrity "));
  }

  private static void expectCorrupt(ParityKey key, byte[] v, String says) {
    try {
      ParityValue.decode(key, v);
      fail("accepted a value of " + v.length + " bytes under " + key.seal());
    } catch (CorruptParityException e) {
      assertTrue(e.getMessage(), says == null || e.getMessage().contains(says));
    }
  }
}
