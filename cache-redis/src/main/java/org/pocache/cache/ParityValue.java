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

import java.nio.ByteBuffer;

/**
 * The value stored under a {@link ParityKey}: a versioned header, then the parity
 * payload. All integers big-endian. A key sealed with {@link ParitySeal#NONE} uses
 * format 1, checked by CRC32C only:
 *
 * <pre>
 *  0  4  magic "POC1"          24  4  stripe           40  4  CRC32C of the payload
 *  4  1  format version (1)    28  4  substripe        44 4k  CRC32C of each of the k data subblocks
 *  5  1  k                     32  1  parity index     44+4k 4  CRC32C of bytes 0 .. 44+4k (the header)
 *  6  2  reserved (0)          33  3  reserved (0)     48+4k   payload
 *  8  8  file id               36  4  payload length
 * 16  8  generation
 * </pre>
 *
 * A protected key ({@link ParityProtection#INTEGRITY} or {@link ParityProtection#PRIVACY})
 * uses format 2, which opens only under the file's key:
 *
 * <pre>
 *  0  4  magic "POC2"          24  4  stripe           44  8  nonce (random per value; privacy only)
 *  4  1  format version (2)    28  4  substripe        52  4  reserved (0)
 *  5  1  k                     32  1  parity index     56 4k  body: CRC32C of each data subblock,
 *  6  1  protection (1, 2)     33  3  reserved (0)     56+4k      then the payload
 *  7  1  reserved (0)          36  4  key id           ...     privacy: one AES-GCM tag per 16 KiB
 *  8  8  file id               40  4  payload length             segment of the body
 * 16  8  generation
 * </pre>
 *
 * A reader opens a format-2 value only if the SHA-256 of its stored bytes matches the
 * digest the Manager recorded for its slot when the parity was committed
 * ({@link ParitySeal#withDigests}): under integrity that is the whole check (the value
 * is stored in clear), under privacy it comes before the decryption.
 *
 * Under privacy the body is encrypted; every segment authenticates the 56-byte header,
 * and its IV is the nonce followed by the segment's index, so segments cannot be moved,
 * dropped or taken from another value. The data CRCs let a reader check what it decodes
 * from this parity. Decoding checks everything a key promises; any mismatch is a
 * {@link CorruptParityException}.
 *
 * <p><b>Size.</b> One class because it is one binary format: encoding, sealing,
 * chunked decoding and opening must change together.
 */
public final class ParityValue {
  static final int MAGIC = 0x504F4331; // "POC1"
  static final int VERSION = 1;
  static final int FIXED = 44;
  static final int MAGIC_SEALED = 0x504F4332; // "POC2"
  static final int VERSION_SEALED = 2;
  /** Header of format 2, up to the body. */
  static final int SEALED_HEADER = 56;
  private static final int NONCE_AT = 44;
  /** Bytes of a value's digest (SHA-256, truncated), as the Manager records it at commit. */
  public static final int DIGEST_BYTES = 16;
  /** The digest of a stored value: the first {@link #DIGEST_BYTES} of its SHA-256. */
  public static byte[] digest(byte[] stored) {
    return digest(new byte[][] {stored});
  }

  /** {@link #digest(byte[])} of a value held in consecutive pieces (native SHA-256 where loaded). */
  public static byte[] digest(byte[][] stored) {
    return java.util.Arrays.copyOf(org.pocache.coder.Sha256.digest(stored), DIGEST_BYTES);
  }

  /** The stored bytes, in one array or in consecutive chunks (see {@link #decodeChunks}). */
  private byte[][] chunks;
  private final int payloadOffset;
  private final int payloadLength;
  private int[] dataCrcs;
  /** A protected value whose header checked out but which is not opened yet ({@link #open}), else null. */
  private ParityKey unopened;

  private ParityValue(byte[][] chunks, int payloadOffset, int payloadLength, int[] dataCrcs) {
    this.chunks = chunks;
    this.payloadOffset = payloadOffset;
    this.payloadLength = payloadLength;
    this.dataCrcs = dataCrcs;
  }

  /** The header length for k data CRCs. */
  static int headerLength(int k) {
    return FIXED + 4 * k + 4;
  }

  /**
   * Builds the stored bytes.
   *
   * @param dataCrcs CRC32C of each data subblock of the substripe (virtual zeros included as zeros)
   * @throws IllegalArgumentException if there are more than 255 data CRCs
   */
  public static byte[] encode(ParityKey key, int[] dataCrcs, ByteBuffer payload) {
    int h = headerBytes(dataCrcs.length, key.seal());
    byte[] out = new byte[valueBytes(dataCrcs.length, payload.remaining(), key.seal())];
    payload.duplicate().get(out, h, payload.remaining());
    return seal(key, dataCrcs, out);
  }

  /**
   * The header length of a value with {@code k} data CRCs: where its payload starts.
   * A producer that leaves this much room in front of its parity can have the value
   * built in place ({@link #seal}), without copying the payload.
   */
  public static int headerBytes(int k) {
    return headerLength(k);
  }

  /**
   * Where the payload starts in a value of {@code k} data CRCs sealed under {@code seal}:
   * the room a producer leaves in front of its parity for {@link #seal}.
   */
  public static int headerBytes(int k, ParitySeal seal) {
    return seal.protection() == ParityProtection.NONE ? headerLength(k) : SEALED_HEADER + 4 * k;
  }

  /** The length of a whole value: header, a payload of {@code payload} bytes, and the trailer. */
  public static int valueBytes(int k, int payload, ParitySeal seal) {
    int h = headerBytes(k, seal);
    return h + payload + seal.trailerBytes(h - SEALED_HEADER + payload);
  }

  /** The payload length of a value of {@code valueLength} bytes (the inverse of {@link #valueBytes}). */
  public static int payloadBytes(int valueLength, int k, ParitySeal seal) {
    int h = headerBytes(k, seal);
    switch (seal.protection()) {
      case NONE:
        return valueLength - h;
      case INTEGRITY:
        return valueLength - h;
      default:
        int segments = Math.max(1, (valueLength - SEALED_HEADER + ParitySeal.SEGMENT + ParitySeal.GCM_TAG - 1)
            / (ParitySeal.SEGMENT + ParitySeal.GCM_TAG));
        return valueLength - h - ParitySeal.GCM_TAG * segments;
    }
  }

  /**
   * Writes the header into the first {@link #headerBytes} bytes of {@code value},
   * whose payload is the rest of the array, and returns it as the stored bytes.
   *
   * @throws IllegalArgumentException if there are more than 255 data CRCs, or the
   *     array is shorter than a header
   */
  public static byte[] seal(ParityKey key, int[] dataCrcs, byte[] value) {
    if (dataCrcs.length > 255) {
      throw new IllegalArgumentException("at most 255 data CRCs, got " + dataCrcs.length);
    }
    if (key.parityIndex() > 255) {
      throw new IllegalArgumentException("parity index must be <= 255, got " + key.parityIndex());
    }
    ParitySeal seal = key.seal();
    int h = headerBytes(dataCrcs.length, seal);
    int n = payloadBytes(value.length, dataCrcs.length, seal);
    if (n < 0) {
      throw new IllegalArgumentException("a value of " + value.length + " bytes has no room for its " + h
          + "-byte header and its trailer");
    }
    if (seal.protection() != ParityProtection.NONE) {
      return sealProtected(key, dataCrcs, value, n);
    }
    ByteBuffer b = ByteBuffer.wrap(value);
    b.putInt(MAGIC).put((byte) VERSION).put((byte) dataCrcs.length).putShort((short) 0);
    b.putLong(key.fileId()).putLong(key.generation()).putInt(key.stripe()).putInt(key.substripe());
    b.put((byte) key.parityIndex()).put((byte) 0).putShort((short) 0);
    b.putInt(n).putInt(Crc32c.of(value, h, n));
    for (int c : dataCrcs) {
      b.putInt(c);
    }
    b.putInt(Crc32c.of(value, 0, h - 4));
    return value;
  }

  private static byte[] sealProtected(ParityKey key, int[] dataCrcs, byte[] value, int n) {
    ParitySeal seal = key.seal();
    ByteBuffer b = ByteBuffer.wrap(value);
    b.putInt(MAGIC_SEALED).put((byte) VERSION_SEALED).put((byte) dataCrcs.length).put((byte) seal.protection().code)
        .put((byte) 0);
    b.putLong(key.fileId()).putLong(key.generation()).putInt(key.stripe()).putInt(key.substripe());
    b.put((byte) key.parityIndex()).put((byte) 0).putShort((short) 0);
    b.putInt(seal.keyId()).putInt(n);
    if (seal.protection() == ParityProtection.PRIVACY) {
      ParitySeal.newNonce(value, NONCE_AT);
    } else {
      b.putLong(0L);
    }
    b.position(NONCE_AT + 8);
    b.putInt(0);
    for (int c : dataCrcs) {
      b.putInt(c);
    }
    seal.seal(value, SEALED_HEADER, NONCE_AT, 4 * dataCrcs.length + n);
    return value;
  }

  /**
   * Parses and checks a stored value against the key it was read from.
   *
   * @throws CorruptParityException saying what is wrong
   */
  public static ParityValue decode(ParityKey key, byte[] v) throws CorruptParityException {
    if (v == null) {
      throw new CorruptParityException(key, "null value");
    }
    return decodeChunks(key, new byte[][] {v});
  }

  /**
   * {@link #decode} of a value read in consecutive pieces (GETRANGE), so that no
   * array is as large as the value; the header must lie within the first piece.
   *
   * @throws CorruptParityException saying what is wrong
   */
  public static ParityValue decodeChunks(ParityKey key, byte[][] chunks) throws CorruptParityException {
    byte[] v = chunks.length == 0 ? new byte[0] : chunks[0];
    long total = 0;
    for (byte[] c : chunks) {
      total += c.length;
    }
    if (v.length < FIXED + 4) {
      throw new CorruptParityException(key, "truncated: " + total + " bytes, shorter than any header");
    }
    if (key.seal().protection() != ParityProtection.NONE) {
      return decodeProtected(key, chunks, total);
    }
    ByteBuffer b = ByteBuffer.wrap(v);
    if (b.getInt(0) != MAGIC) {
      throw new CorruptParityException(key, "not a POCache parity value (bad magic)");
    }
    if (v[4] != VERSION) {
      throw new CorruptParityException(key, "unknown format version " + v[4]);
    }
    int k = v[5] & 0xff;
    int h = headerLength(k);
    if (v.length < h) {
      throw new CorruptParityException(key, "truncated header: " + total + " of " + h + " bytes");
    }
    if (b.getInt(h - 4) != Crc32c.of(v, 0, h - 4)) {
      throw new CorruptParityException(key, "header checksum mismatch");
    }
    if (b.getLong(8) != key.fileId()) {
      throw new CorruptParityException(key, "value belongs to file " + b.getLong(8));
    }
    if (b.getLong(16) != key.generation()) {
      throw new CorruptParityException(key, "value is of generation " + b.getLong(16));
    }
    if (b.getInt(24) != key.stripe() || b.getInt(28) != key.substripe() || (v[32] & 0xff) != key.parityIndex()) {
      throw new CorruptParityException(key, "value is for stripe " + b.getInt(24) + " substripe " + b.getInt(28)
          + " parity " + (v[32] & 0xff));
    }
    int n = b.getInt(36);
    if (n != total - h) {
      throw new CorruptParityException(key, "payload length " + (total - h) + " bytes, header says " + n);
    }
    int crc = chunks.length == 1 ? Crc32c.of(v, h, n) : Crc32c.ofChunks(chunks, h);
    if (b.getInt(40) != crc) {
      throw new CorruptParityException(key, "payload checksum mismatch");
    }
    int[] crcs = new int[k];
    for (int i = 0; i < k; i++) {
      crcs[i] = b.getInt(FIXED + 4 * i);
    }
    return new ParityValue(chunks, h, n, crcs);
  }

  /**
   * {@link #decodeChunks} that, for a protected value, checks only what its header
   * promises (file, generation, position, key id, length) and leaves the digest check
   * and the decryption to {@link #open}: a proactive read fetches parity for every
   * substripe but uses it only when a data piece is late, and then opens only that.
   */
  public static ParityValue decodeChunksUnopened(ParityKey key, byte[][] chunks) throws CorruptParityException {
    if (key.seal().protection() == ParityProtection.NONE || chunks.length == 0
        || chunks[0].length < SEALED_HEADER) {
      return decodeChunks(key, chunks);
    }
    long total = 0;
    for (byte[] c : chunks) {
      total += c.length;
    }
    ParityValue v = checkProtectedHeader(key, chunks, total);
    v.unopened = key;
    return v;
  }

  /**
   * Checks and decrypts a value from {@link #decodeChunksUnopened}; a no-op for any
   * other. Thread-safe.
   *
   * @throws CorruptParityException if it is not the value committed for its key, or
   *     does not open under the file's key
   */
  public synchronized void open() throws CorruptParityException {
    if (unopened == null) {
      return;
    }
    ParityValue v = openProtected(unopened, chunks);
    chunks = v.chunks;
    dataCrcs = v.dataCrcs;
    unopened = null;
  }

  private void checkOpen() {
    if (unopened != null) {
      throw new IllegalStateException(unopened + ": open() the value before reading it");
    }
  }

  private static ParityValue decodeProtected(ParityKey key, byte[][] chunks, long total)
      throws CorruptParityException {
    checkProtectedHeader(key, chunks, total);
    return openProtected(key, chunks);
  }

  /** The header checks of a protected value; an unopened value of the right shape. */
  private static ParityValue checkProtectedHeader(ParityKey key, byte[][] chunks, long total)
      throws CorruptParityException {
    ParitySeal seal = key.seal();
    byte[] v = chunks[0];
    ByteBuffer b = ByteBuffer.wrap(v);
    if (b.getInt(0) == MAGIC) {
      throw new CorruptParityException(key, "an unprotected value where the file's parity is sealed ("
          + seal.protection() + ")");
    }
    if (b.getInt(0) != MAGIC_SEALED) {
      throw new CorruptParityException(key, "not a POCache parity value (bad magic)");
    }
    if (v[4] != VERSION_SEALED) {
      throw new CorruptParityException(key, "unknown format version " + v[4]);
    }
    if (ParityProtection.ofCode(v[6]) != seal.protection()) {
      throw new CorruptParityException(key, "value is sealed for protection code " + v[6] + ", the file's is "
          + seal.protection());
    }
    if (b.getInt(36) != seal.keyId()) {
      throw new CorruptParityException(key, "value is sealed under key id " + b.getInt(36) + ", the file's is "
          + seal.keyId());
    }
    if (b.getLong(8) != key.fileId()) {
      throw new CorruptParityException(key, "value belongs to file " + b.getLong(8));
    }
    if (b.getLong(16) != key.generation()) {
      throw new CorruptParityException(key, "value is of generation " + b.getLong(16));
    }
    if (b.getInt(24) != key.stripe() || b.getInt(28) != key.substripe() || (v[32] & 0xff) != key.parityIndex()) {
      throw new CorruptParityException(key, "value is for stripe " + b.getInt(24) + " substripe " + b.getInt(28)
          + " parity " + (v[32] & 0xff));
    }
    int k = v[5] & 0xff;
    int n = b.getInt(40);
    if (n < 0 || total > Integer.MAX_VALUE || valueBytes(k, n, seal) != total) {
      throw new CorruptParityException(key, "value of " + total + " bytes, header says a payload of " + n);
    }
    return new ParityValue(chunks, headerBytes(k, seal), n, null);
  }

  /**
   * Digest check and decryption of a value whose header {@link #checkProtectedHeader}
   * accepted. A value read in pieces stays in its pieces unless it must be decrypted: one
   * array of a whole 1 MiB value is the humongous allocation reading it in pieces avoids.
   */
  private static ParityValue openProtected(ParityKey key, byte[][] chunks) throws CorruptParityException {
    ParitySeal seal = key.seal();
    byte[] v = chunks[0];
    int k = v[5] & 0xff;
    int n = ByteBuffer.wrap(v).getInt(40);
    int h = headerBytes(k, seal);
    if (!seal.committed(key, chunks)) {
      throw new CorruptParityException(key, "value is not the one committed for it (digest mismatch): forged,"
          + " or left from an earlier upload");
    }
    byte[][] stored = chunks;
    if (chunks.length > 1 && (seal.protection() == ParityProtection.PRIVACY || v.length < h)) {
      long total = 0;
      for (byte[] c : chunks) {
        total += c.length;
      }
      v = new byte[(int) total];
      int at = 0;
      for (byte[] c : chunks) {
        System.arraycopy(c, 0, v, at, c.length);
        at += c.length;
      }
      stored = new byte[][] {v};
    }
    if (!seal.open(v, SEALED_HEADER, NONCE_AT, h - SEALED_HEADER + n)) {
      throw new CorruptParityException(key, "value does not open under the file's key (" + seal
          + "): forged, or sealed for another file");
    }
    int[] crcs = new int[k];
    ByteBuffer body = ByteBuffer.wrap(v);
    for (int i = 0; i < k; i++) {
      crcs[i] = body.getInt(SEALED_HEADER + 4 * i);
    }
    return new ParityValue(stored, h, n, crcs);
  }

  /** Copies the parity bytes to {@code dst} from {@code off}, wherever they are stored. */
  public void copyPayloadTo(byte[] dst, int off) {
    checkOpen();
    int skip = payloadOffset;
    int at = off;
    int left = payloadLength;
    for (byte[] c : chunks) {
      if (left == 0) {
        break;
      }
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      int n = Math.min(c.length - skip, left);
      System.arraycopy(c, skip, dst, at, n);
      at += n;
      left -= n;
      skip = 0;
    }
  }

  /** The parity bytes (a read-only view; copied into one array if the value was read in pieces). */
  public ByteBuffer payload() {
    checkOpen();
    if (chunks.length == 1) {
      return ByteBuffer.wrap(chunks[0], payloadOffset, payloadLength).slice().asReadOnlyBuffer();
    }
    byte[] all = new byte[payloadLength];
    copyPayloadTo(all, 0);
    return ByteBuffer.wrap(all).asReadOnlyBuffer();
  }

  public int payloadLength() {
    return payloadLength;
  }

  /** CRC32C of data subblock i of the substripe. */
  public int dataCrc(int i) {
    checkOpen();
    return dataCrcs[i];
  }

  public int dataCount() {
    checkOpen();
    return dataCrcs.length;
  }

  /** Bytes this value takes in Redis (excluding Redis's own overhead). */
  public int storedBytes() {
    int n = 0;
    for (byte[] c : chunks) {
      n += c.length;
    }
    return n;
  }
}
