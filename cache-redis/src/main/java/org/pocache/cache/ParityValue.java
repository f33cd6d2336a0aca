package org.pocache.cache;

import java.nio.ByteBuffer;

/**
 * The value stored under a {@link ParityKey}: a versioned header, then the parity
 * payload. All integers big-endian.
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
 * The data CRCs let a reader check what it decodes from this parity. Decoding
 * checks everything a key promises; any mismatch is a {@link CorruptParityException}.
 */
public final class ParityValue {
  static final int MAGIC = 0x504F4331; // "POC1"
  static final int VERSION = 1;
  static final int FIXED = 44;

  /** The stored bytes, in one array or in consecutive chunks (see {@link #decodeChunks}). */
  private final byte[][] chunks;
  private final int payloadOffset;
  private final int payloadLength;
  private final int[] dataCrcs;

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
    int h = headerBytes(dataCrcs.length);
    byte[] out = new byte[h + payload.remaining()];
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
    int h = headerLength(dataCrcs.length);
    if (value.length < h) {
      throw new IllegalArgumentException("a value of " + value.length + " bytes has no room for its " + h
          + "-byte header");
    }
    int n = value.length - h;
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

  /** Copies the parity bytes to {@code dst} from {@code off}, wherever they are stored. */
  public void copyPayloadTo(byte[] dst, int off) {
    int skip = payloadOffset;
    int at = off;
    for (byte[] c : chunks) {
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      int n = c.length - skip;
      System.arraycopy(c, skip, dst, at, n);
      at += n;
      skip = 0;
    }
  }

  /** The parity bytes (a read-only view; copied into one array if the value was read in pieces). */
  public ByteBuffer payload() {
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
    return dataCrcs[i];
  }

  public int dataCount() {
    return dataCrcs.length;
  }

  /** Bytes this value takes in Redis (excluding Redis's own overhead). */
  public int storedBytes() {
    return payloadOffset + payloadLength;
  }
}
