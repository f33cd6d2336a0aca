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

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The protection of one file's parity values: the mode, the id of the Manager secret
 * the file key was derived from, and the file key itself. The Manager derives a file
 * key from its secret, the file id and the generation ({@link #deriveFileKey}) and hands
 * it out only with a descriptor or reservation, after the NameNode has checked the
 * caller's permission; a value that does not open under it is rejected like a damaged one.
 *
 * <p>Privacy encrypts in segments of {@value #SEGMENT} bytes, each its own AES-GCM
 * message with its own tag, rather than a value as one message: the JDK's GCM code is
 * only fast once the JIT has compiled it, and many small calls get it compiled after a
 * few MiB instead of a few hundred (a short-lived task JVM would otherwise decrypt its
 * first parity at tens of MB/s).
 */
public final class ParitySeal {
  /** Values in today's unauthenticated format (CRC32C only). */
  public static final ParitySeal NONE = new ParitySeal(ParityProtection.NONE, 0, null);

  /** Bytes of body (data CRCs and payload) per AES-GCM segment. */
  static final int SEGMENT = 16 * 1024;
  static final int GCM_TAG = 16;
  /** Length of a file key, and of a Manager secret at least. */
  public static final int KEY_BYTES = 32;

  private static final ThreadLocal<Cipher> GCM = ThreadLocal.withInitial(() -> newInstance("AES/GCM/NoPadding"));
  private static final ThreadLocal<Mac> HMAC = ThreadLocal.withInitial(() -> {
    try {
      return Mac.getInstance("HmacSHA256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no HmacSHA256", e);
    }
  });
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[SEGMENT + GCM_TAG]);

  private final ParityProtection protection;
  private final int keyId;
  private final SecretKeySpec aesKey;
  /** For reading: the committed digest of every value slot, or null (writers; protection none). */
  private final byte[] digests;
  private final int substripesPerStripe;
  private final int m;

  private ParitySeal(ParitySeal s, byte[] digests, int substripesPerStripe, int m) {
    this.protection = s.protection;
    this.keyId = s.keyId;
    this.aesKey = s.aesKey;
    this.digests = digests;
    this.substripesPerStripe = substripesPerStripe;
    this.m = m;
  }

  private ParitySeal(ParityProtection protection, int keyId, byte[] fileKey) {
    this.protection = protection;
    this.keyId = keyId;
    this.digests = null;
    this.substripesPerStripe = 0;
    this.m = 0;
    if (fileKey == null || protection != ParityProtection.PRIVACY) {
      aesKey = null; // integrity needs no cipher key: no HMAC at every open of a cached file
    } else {
      // A subkey for the cipher, so that the file key itself serves no second purpose.
      aesKey = new SecretKeySpec(hmac(fileKey, "POCache parity encryption"), "AES");
    }
  }

  /**
   * @param fileKey the file key from the descriptor ({@link #KEY_BYTES} bytes)
   * @throws IllegalArgumentException if a protected seal has no key of the right length
   */
  public static ParitySeal of(ParityProtection protection, int keyId, byte[] fileKey) {
    if (protection == ParityProtection.NONE) {
      return NONE;
    }
    if (fileKey == null || fileKey.length != KEY_BYTES) {
      throw new IllegalArgumentException("a " + protection + " seal needs a " + KEY_BYTES + "-byte file key, got "
          + (fileKey == null ? "none" : fileKey.length + " bytes"));
    }
    return new ParitySeal(protection, keyId, fileKey);
  }

  /**
   * The key of one file's parity: HMAC-SHA256 of the file id and generation under the
   * Manager's secret. Different for every file and every generation of it, so a key
   * handed to a reader of one file opens nothing else.
   */
  public static byte[] deriveFileKey(byte[] secret, long fileId, long generation) {
    byte[] msg = new byte[16 + 1];
    msg[0] = 2; // the value format the key is for
    for (int i = 0; i < 8; i++) {
      msg[1 + i] = (byte) (fileId >>> (56 - 8 * i));
      msg[9 + i] = (byte) (generation >>> (56 - 8 * i));
    }
    return hmac(secret, msg);
  }

  private static byte[] hmac(byte[] key, String label) {
    return hmac(key, label.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] hmac(byte[] key, byte[] msg) {
    Mac mac = HMAC.get();
    try {
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 refused a key", e);
    }
    return mac.doFinal(msg);
  }

  private static Cipher newInstance(String transformation) {
    try {
      return Cipher.getInstance(transformation);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no " + transformation, e);
    }
  }

  /**
   * This seal for reading: a value opens only if its stored bytes hash to the digest the
   * Manager recorded for its slot when the parity was committed. The file key alone
   * (which every reader of the file holds) is then not enough to forge a value.
   *
   * @param digests {@link ParityValue#DIGEST_BYTES} per slot, slot = (stripe *
   *     substripesPerStripe + substripe) * m + parity index
   * @throws IllegalArgumentException if the table is not a whole number of digests
   */
  public ParitySeal withDigests(byte[] digests, int substripesPerStripe, int m) {
    if (protection == ParityProtection.NONE) {
      return this;
    }
    if (digests == null || digests.length == 0 || digests.length % ParityValue.DIGEST_BYTES != 0
        || substripesPerStripe < 1 || m < 1) {
      throw new IllegalArgumentException("a " + protection + " seal for reading needs the values' digests, got "
          + (digests == null ? "none" : digests.length + " bytes"));
    }
    return new ParitySeal(this, digests, substripesPerStripe, m);
  }

  /**
   * Whether {@code stored} is the value committed for its slot: true if this seal has
   * no digests (writing, or protection none).
   */
  boolean committed(ParityKey key, byte[][] stored) {
    if (digests == null) {
      return true;
    }
    long slot = ((long) key.stripe() * substripesPerStripe + key.substripe()) * m + key.parityIndex();
    if (key.substripe() >= substripesPerStripe || key.parityIndex() >= m
        || (slot + 1) * ParityValue.DIGEST_BYTES > digests.length) {
      return false;
    }
    byte[] got = ParityValue.digest(stored);
    int at = (int) slot * ParityValue.DIGEST_BYTES;
    int diff = 0;
    for (int i = 0; i < ParityValue.DIGEST_BYTES; i++) {
      diff |= got[i] ^ digests[at + i];
    }
    return diff == 0;
  }

  public ParityProtection protection() {
    return protection;
  }

  public int keyId() {
    return keyId;
  }

  /** Bytes after the body: one AES-GCM tag per segment under privacy, none otherwise. */
  int trailerBytes(int bodyBytes) {
    return protection == ParityProtection.PRIVACY ? GCM_TAG * segments(bodyBytes) : 0;
  }

  private static int segments(int bodyBytes) {
    return Math.max(1, (bodyBytes + SEGMENT - 1) / SEGMENT);
  }

  /** A fresh nonce for one value: 8 random bytes (the segment index follows in each segment's IV). */
  static void newNonce(byte[] value, int at) {
    byte[] n = new byte[8];
    Nonces.RANDOM.nextBytes(n);
    System.arraycopy(n, 0, value, at, 8);
  }

  /**
   * Seals {@code v}: {@code [0, headerLen)} is the header (authenticated, in clear),
   * {@code [headerLen, headerLen + bodyLen)} the body, encrypted in place under privacy;
   * the tags go to the {@link #trailerBytes} after it.
   */
  void seal(byte[] v, int headerLen, int nonceAt, int bodyLen) {
    if (protection != ParityProtection.PRIVACY) {
      return; // integrity: the value stays in clear, its digest (recorded at commit) vouches for it
    }
    try {
      Cipher c = GCM.get();
      byte[] scratch = SCRATCH.get();
      int tags = headerLen + bodyLen;
      for (int s = 0, off = headerLen; s < segments(bodyLen); s++, off += SEGMENT) {
        int n = Math.min(SEGMENT, headerLen + bodyLen - off);
        c.init(Cipher.ENCRYPT_MODE, aesKey, iv(v, nonceAt, s));
        c.updateAAD(v, 0, headerLen);
        c.doFinal(v, off, n, scratch, 0);
        System.arraycopy(scratch, 0, v, off, n);
        System.arraycopy(scratch, n, v, tags + GCM_TAG * s, GCM_TAG);
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("sealing a parity value failed", e);
    }
  }

  /**
   * Checks and, under privacy, decrypts a value in place.
   *
   * @return whether the value opened (a forged or foreign value does not)
   */
  boolean open(byte[] v, int headerLen, int nonceAt, int bodyLen) {
    if (protection != ParityProtection.PRIVACY) {
      return true; // integrity: nothing to decrypt; the digest check vouches for the value
    }
    try {
      Cipher c = GCM.get();
      byte[] scratch = SCRATCH.get();
      int tags = headerLen + bodyLen;
      for (int s = 0, off = headerLen; s < segments(bodyLen); s++, off += SEGMENT) {
        int n = Math.min(SEGMENT, headerLen + bodyLen - off);
        System.arraycopy(v, off, scratch, 0, n);
        System.arraycopy(v, tags + GCM_TAG * s, scratch, n, GCM_TAG);
        c.init(Cipher.DECRYPT_MODE, aesKey, iv(v, nonceAt, s));
        c.updateAAD(v, 0, headerLen);
        c.doFinal(scratch, 0, n + GCM_TAG, v, off);
      }
      return true;
    } catch (javax.crypto.AEADBadTagException e) {
      return false;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("opening a parity value failed", e);
    }
  }

  private static GCMParameterSpec iv(byte[] v, int nonceAt, int segment) {
    byte[] iv = new byte[12];
    System.arraycopy(v, nonceAt, iv, 0, 8);
    iv[8] = (byte) (segment >>> 24);
    iv[9] = (byte) (segment >>> 16);
    iv[10] = (byte) (segment >>> 8);
    iv[11] = (byte) segment;
    return new GCMParameterSpec(8 * GCM_TAG, iv);
  }

  @Override
  public String toString() {
    return protection == ParityProtection.NONE ? "none" : protection + " (key " + keyId + ")";
  }

  /** Made at the first nonce, not when a reader loads this class. */
  private static final class Nonces {
    static final SecureRandom RANDOM = new SecureRandom();
  }
}
