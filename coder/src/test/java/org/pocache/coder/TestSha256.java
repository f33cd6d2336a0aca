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
package org.pocache.coder;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import org.junit.Assume;
import org.junit.Test;

/**
 * The native SHA-256 (the SHA-extension rounds and the plain C rounds) gives the JDK's
 * bytes for every length around the padding boundaries and for values split into
 * pieces at any offset. The native cases are skipped, with the reason, when the library
 * is not loaded.
 */
public class TestSha256 {
  private static byte[] jdk(byte[]... parts) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    for (byte[] p : parts) {
      md.update(p);
    }
    return md.digest();
  }

  @Test
  public void knownAnswers() throws Exception {
    // FIPS 180-4 examples: "abc" and the 448-bit message.
    assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        hex(Sha256.digest("abc".getBytes(StandardCharsets.US_ASCII))));
    assertEquals("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
        hex(Sha256.digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            .getBytes(StandardCharsets.US_ASCII))));
    assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", hex(Sha256.digest(new byte[0])));
  }

  @Test
  public void nativeRoundsEqualTheJdkAtEveryLengthAndSplit() throws Exception {
    Assume.assumeTrue("native library not loaded: " + IsalNative.failure(), IsalNative.isAvailable());
    Random r = new Random(256);
    for (boolean plainC : new boolean[] {false, true}) {
      for (int len = 0; len <= 300; len++) {
        byte[] v = new byte[len];
        r.nextBytes(v);
        assertArrayEquals("length " + len + (plainC ? " (C)" : ""), jdk(v),
            Sha256.nativeDigest(new byte[][] {v}, plainC));
      }
      for (int trial = 0; trial < 200; trial++) {
        byte[] v = new byte[r.nextInt(3 << 16)];
        r.nextBytes(v);
        byte[][] parts = split(v, r);
        assertArrayEquals("trial " + trial + ", " + v.length + " bytes in " + parts.length + " pieces",
            jdk(v), Sha256.nativeDigest(parts, plainC));
      }
    }
  }

  @Test
  public void theDigestInUseEqualsTheJdk() throws Exception {
    byte[] v = new byte[(1 << 20) + 44];
    new Random(7).nextBytes(v);
    assertArrayEquals(Sha256.implementation(), jdk(v), Sha256.digest(split(v, new Random(8))));
  }

  private static byte[][] split(byte[] v, Random r) {
    int n = 1 + r.nextInt(6);
    int[] cuts = new int[n + 1];
    for (int i = 1; i < n; i++) {
      cuts[i] = v.length == 0 ? 0 : r.nextInt(v.length + 1);
    }
    cuts[n] = v.length;
    Arrays.sort(cuts);
    byte[][] parts = new byte[n][];
    for (int i = 0; i < n; i++) {
      parts[i] = Arrays.copyOfRange(v, cuts[i], cuts[i + 1]);
    }
    return parts;
  }

  private static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(String.format("%02x", x & 0xff));
    }
    return s.toString();
  }
}
