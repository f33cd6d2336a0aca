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

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SHA-256 of a value held in one or more arrays, for the digests of parity values:
 * through the native library (src/main/native/pocache_sha256.c, the processor's SHA
 * extensions where it has them) when it is loaded, else the JDK's MessageDigest. Both
 * give the same bytes. The JDK's digest runs at its best only once the JIT has compiled
 * it, so a task JVM that writes one file and exits hashes its parity interpreted: a
 * reducer writing 128 MiB spent about 0.2 s of CPU on it.
 *
 * <p>If the native call fails with a {@link LinkageError} (a library from
 * java.library.path older than this class) the JDK's digest is used from then on,
 * with one WARN.
 */
public final class Sha256 {
  private static final Logger LOG = LoggerFactory.getLogger(Sha256.class);
  /** Set to true to use the JDK's digest even when the native library is loaded (tests). */
  static final String JDK_PROPERTY = "pocache.sha256.jdk";
  private static final int[] INITIAL = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  private static final ThreadLocal<MessageDigest> JDK = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  });
  private static volatile boolean useNative = !Boolean.getBoolean(JDK_PROPERTY) && IsalNative.isAvailable();

  private Sha256() {
  }

  /** The 32-byte SHA-256 of the concatenation of {@code parts}. */
  public static byte[] digest(byte[]... parts) {
    if (useNative) {
      try {
        return nativeDigest(parts, false);
      } catch (LinkageError e) {
        useNative = false;
        LOG.warn("SHA-256 of parity values: the native library does not have it ({}); using the JDK's", e.toString());
      }
    }
    MessageDigest md = JDK.get();
    for (byte[] p : parts) {
      md.update(p);
    }
    return md.digest();
  }

  /** Which implementation {@link #digest} uses in this JVM, for reports. */
  public static String implementation() {
    if (!useNative) {
      return "JDK MessageDigest";
    }
    try {
      return IsalNative.sha256Accelerated() ? "native, SHA extensions" : "native, plain C";
    } catch (LinkageError e) {
      return "JDK MessageDigest (the native library has no SHA-256)";
    }
  }

  /** The native digest; {@code plainC} forces the C rounds even on processors with SHA extensions. */
  static byte[] nativeDigest(byte[][] parts, boolean plainC) {
    int[] state = INITIAL.clone();
    byte[] pending = new byte[128];
    int buffered = 0;
    long length = 0;
    for (byte[] p : parts) {
      int off = 0;
      int len = p.length;
      length += len;
      if (buffered > 0) {
        int n = Math.min(64 - buffered, len);
        System.arraycopy(p, 0, pending, buffered, n);
        buffered += n;
        off += n;
        len -= n;
        if (buffered == 64) {
          IsalNative.sha256Blocks(state, pending, 0, 1, plainC);
          buffered = 0;
        }
      }
      int blocks = len / 64;
      if (blocks > 0) {
        IsalNative.sha256Blocks(state, p, off, blocks, plainC);
        off += blocks * 64;
        len -= blocks * 64;
      }
      if (len > 0) {
        System.arraycopy(p, off, pending, buffered, len);
        buffered += len;
      }
    }
    // Padding: 0x80, zeros, and the length in bits as a big-endian 64-bit number.
    java.util.Arrays.fill(pending, buffered, pending.length, (byte) 0);
    pending[buffered] = (byte) 0x80;
    int padBlocks = buffered < 56 ? 1 : 2;
    long bits = length * 8;
    for (int i = 0; i < 8; i++) {
      pending[padBlocks * 64 - 1 - i] = (byte) (bits >>> (8 * i));
    }
    IsalNative.sha256Blocks(state, pending, 0, padBlocks, plainC);
    byte[] out = new byte[32];
    for (int i = 0; i < 8; i++) {
      out[4 * i] = (byte) (state[i] >>> 24);
      out[4 * i + 1] = (byte) (state[i] >>> 16);
      out[4 * i + 2] = (byte) (state[i] >>> 8);
      out[4 * i + 3] = (byte) state[i];
    }
    return out;
  }
}
