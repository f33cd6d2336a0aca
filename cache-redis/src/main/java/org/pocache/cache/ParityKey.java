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

/**
 * The Redis key of one parity subblock:
 * {@code <prefix>{<fileId>}:<generation>:<stripe>:<substripe>:<parityIndex>}.
 *
 * <p>The prefix lets several HDFS clusters share one Redis. The braces are a Redis
 * Cluster hash tag: only the file id is hashed, so all of a file's keys live in
 * one slot and multi-key commands (MGET, DEL of many keys) work on a cluster. The
 * generation separates the parity of a file's successive versions.
 */
public final class ParityKey {
  private static final int SLOTS = 16384;

  private final String prefix;
  private final long fileId;
  private final long generation;
  private final int stripe;
  private final int substripe;
  private final int parityIndex;
  private final ParitySeal seal;
  /** The key's text, made at its first use (the fields are final; a race only makes it twice). */
  private String text;

  private ParityKey(String prefix, long fileId, long generation, int stripe, int substripe, int parityIndex,
      ParitySeal seal) {
    this.prefix = prefix;
    this.fileId = fileId;
    this.generation = generation;
    this.stripe = stripe;
    this.substripe = substripe;
    this.parityIndex = parityIndex;
    this.seal = seal;
  }

  /**
   * @throws IllegalArgumentException naming the bad part: a prefix with braces or
   *     whitespace (it would break the hash tag or the protocol), or a negative number
   */
  public static ParityKey of(String prefix, long fileId, long generation, int stripe, int substripe,
      int parityIndex) {
    checkPrefix(prefix);
    requireNonNegative("file id", fileId);
    requireNonNegative("generation", generation);
    requireNonNegative("stripe", stripe);
    requireNonNegative("substripe", substripe);
    requireNonNegative("parity index", parityIndex);
    return new ParityKey(prefix, fileId, generation, stripe, substripe, parityIndex, ParitySeal.NONE);
  }

  /**
   * The same key, with the protection its value is sealed and opened under (the
   * file's seal from its descriptor). The seal is not part of the key's name.
   */
  public ParityKey sealedWith(ParitySeal s) {
    if (s == null) {
      throw new IllegalArgumentException("seal must not be null (ParitySeal.NONE for unprotected values)");
    }
    return new ParityKey(prefix, fileId, generation, stripe, substripe, parityIndex, s);
  }

  /** How the value under this key is sealed: {@link ParitySeal#NONE} unless {@link #sealedWith} says otherwise. */
  public ParitySeal seal() {
    return seal;
  }

  /** Validates a key prefix as an operator would configure it. */
  public static void checkPrefix(String prefix) {
    if (prefix == null) {
      throw new IllegalArgumentException("key prefix must not be null");
    }
    for (int i = 0; i < prefix.length(); i++) {
      char c = prefix.charAt(i);
      if (c == '{' || c == '}' || Character.isWhitespace(c) || Character.isISOControl(c)) {
        throw new IllegalArgumentException("key prefix '" + prefix + "' must not contain braces,"
            + " whitespace or control characters (found '" + c + "' at " + i + ")");
      }
    }
  }

  private static void requireNonNegative(String what, long v) {
    if (v < 0) {
      throw new IllegalArgumentException(what + " must be >= 0, got " + v);
    }
  }

  public long fileId() {
    return fileId;
  }

  public long generation() {
    return generation;
  }

  public int stripe() {
    return stripe;
  }

  public int substripe() {
    return substripe;
  }

  public int parityIndex() {
    return parityIndex;
  }

  /** The hash tag, braces included: the part of the key Redis Cluster hashes. */
  public String hashTag() {
    return "{" + fileId + "}";
  }

  public byte[] bytes() {
    return toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The Redis Cluster slot of this key: CRC16 (XMODEM) of the hash tag's content, mod 16384. */
  public int slot() {
    return crc16(Long.toString(fileId).getBytes(StandardCharsets.UTF_8)) % SLOTS;
  }

  /** CRC16-CCITT (XMODEM: poly 0x1021, init 0), as the Redis Cluster specification defines it. */
  static int crc16(byte[] data) {
    int crc = 0;
    for (byte b : data) {
      crc ^= (b & 0xff) << 8;
      for (int i = 0; i < 8; i++) {
        crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
      }
      crc &= 0xffff;
    }
    return crc;
  }

  @Override
  public String toString() {
    String t = text;
    if (t == null) {
      t = prefix + hashTag() + ':' + generation + ':' + stripe + ':' + substripe + ':' + parityIndex;
      text = t;
    }
    return t;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ParityKey && o.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }
}
