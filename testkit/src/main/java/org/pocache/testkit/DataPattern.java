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
package org.pocache.testkit;

/**
 * Deterministic file contents: the byte at position {@code p} of a file with seed
 * {@code s} is a function of (s, p) alone, so any range of any file can be written
 * or verified without keeping the file in memory.
 */
public final class DataPattern {
  private DataPattern() {
  }

  /** Fills {@code buf[off, off+len)} with the bytes at file positions {@code [pos, pos+len)}. */
  public static void fill(long seed, long pos, byte[] buf, int off, int len) {
    for (int i = 0; i < len; ) {
      long p = pos + i;
      long word = mix(seed, p >>> 3);
      int shift = (int) (p & 7);
      // Copy the rest of this 8-byte word in one go.
      int n = Math.min(8 - shift, len - i);
      for (int j = 0; j < n; j++) {
        buf[off + i + j] = (byte) (word >>> ((shift + j) << 3));
      }
      i += n;
    }
  }

  /**
   * Checks {@code buf[off, off+len)} against the bytes at positions {@code [pos, pos+len)}.
   *
   * @return the file position of the first wrong byte, or -1 if all are right
   */
  public static long firstMismatch(long seed, long pos, byte[] buf, int off, int len) {
    byte[] expect = new byte[Math.min(len, 1 << 16)];
    for (int done = 0; done < len; ) {
      int n = Math.min(expect.length, len - done);
      fill(seed, pos + done, expect, 0, n);
      for (int i = 0; i < n; i++) {
        if (buf[off + done + i] != expect[i]) {
          return pos + done + i;
        }
      }
      done += n;
    }
    return -1;
  }

  // SplitMix64 finaliser over (seed, word index).
  private static long mix(long seed, long wordIndex) {
    long z = seed * 0x9E3779B97F4A7C15L + wordIndex * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
