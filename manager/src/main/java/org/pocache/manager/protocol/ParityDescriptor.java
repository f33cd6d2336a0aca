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
package org.pocache.manager.protocol;

import java.util.Arrays;
import java.util.Objects;
import org.pocache.cache.ParityProtection;

/**
 * What a reader or writer needs to find, check and open a file's parity: the file it
 * was made for (id, length, modification time, block digest), the code and how the
 * file is sliced, where its keys are, and how its values are sealed. Immutable; make
 * one with {@link #newBuilder()} or change one with {@link #toBuilder()}.
 *
 * <p>The Manager hands descriptors to callers only after the NameNode's permission
 * check; only those carry the file key ({@link #getSealKey()}): the index and
 * {@code listCached} never do. On the wire and in the Manager's index in Redis a
 * descriptor is a {@code DescriptorProto} ({@link ProtoTranslation}).
 *
 * <p><b>Size.</b> Long only because it is a value of 23 fields with a getter and a
 * builder setter each; it holds no logic beyond the stripe bitmap.
 */
public final class ParityDescriptor {
  /** How the file's blocks form stripes. */
  public enum Layout {
    /** Replicated blocks; stripe s is blocks sk .. sk+k-1. */
    CONTIGUOUS,
    /** An HDFS erasure-coded file; a stripe is a block group. */
    STRIPED
  }

  /** Where the parity stands. Readers are served only {@link #CACHED} descriptors. */
  public enum State {
    /** A writer holds space and is uploading parity. */
    RESERVED,
    /** A fill (admit on read, or prefetch) is uploading parity. */
    FILLING,
    /** Every stripe's parity is in Redis under this generation. */
    CACHED,
    /** Its keys are being deleted; never served. */
    EVICTING
  }

  private static final byte[] NONE = new byte[0];

  private final long fileId;
  private final long generation;
  private final String path;
  private final long length;
  private final long modificationTime;
  private final Layout layout;
  private final long blockSize;
  private final int cellSize;
  private final int k;
  private final int m;
  private final int subblockBytes;
  private final int stripes;
  private final int substripesPerStripe;
  private final byte[] cachedStripes;
  private final long parityBytes;
  private final String keyPrefix;
  private final State state;
  private final String redisRunId;
  private final long blocksDigest;
  private final ParityProtection protection;
  private final int sealKeyId;
  private final byte[] sealKey;
  private final byte[] valueDigests;

  private ParityDescriptor(Builder b) {
    fileId = b.fileId;
    generation = b.generation;
    path = b.path;
    length = b.length;
    modificationTime = b.modificationTime;
    layout = b.layout;
    blockSize = b.blockSize;
    cellSize = b.cellSize;
    k = b.k;
    m = b.m;
    subblockBytes = b.subblockBytes;
    stripes = b.stripes;
    substripesPerStripe = b.substripesPerStripe;
    cachedStripes = b.cachedStripes;
    parityBytes = b.parityBytes;
    keyPrefix = b.keyPrefix;
    state = b.state;
    redisRunId = b.redisRunId;
    blocksDigest = b.blocksDigest;
    protection = b.protection;
    sealKeyId = b.sealKeyId;
    sealKey = b.sealKey;
    valueDigests = b.valueDigests;
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  /** A builder holding this descriptor's values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.fileId = fileId;
    b.generation = generation;
    b.path = path;
    b.length = length;
    b.modificationTime = modificationTime;
    b.layout = layout;
    b.blockSize = blockSize;
    b.cellSize = cellSize;
    b.k = k;
    b.m = m;
    b.subblockBytes = subblockBytes;
    b.stripes = stripes;
    b.substripesPerStripe = substripesPerStripe;
    b.cachedStripes = cachedStripes;
    b.parityBytes = parityBytes;
    b.keyPrefix = keyPrefix;
    b.state = state;
    b.redisRunId = redisRunId;
    b.blocksDigest = blocksDigest;
    b.protection = protection;
    b.sealKeyId = sealKeyId;
    b.sealKey = sealKey;
    b.valueDigests = valueDigests;
    return b;
  }

  /** The HDFS inode id. */
  public long getFileId() {
    return fileId;
  }

  /** Part of every parity key and value header; a new one for every new parity of a file. */
  public long getGeneration() {
    return generation;
  }

  /** The file's path as the Manager last saw it. */
  public String getPath() {
    return path;
  }

  /** The file length the parity was made for. */
  public long getLength() {
    return length;
  }

  public long getModificationTime() {
    return modificationTime;
  }

  public Layout getLayout() {
    return layout;
  }

  public boolean isStriped() {
    return layout == Layout.STRIPED;
  }

  /** The HDFS block size (striped: the internal block size). */
  public long getBlockSize() {
    return blockSize;
  }

  /** Striped only; 0 for contiguous files. */
  public int getCellSize() {
    return cellSize;
  }

  public int getK() {
    return k;
  }

  public int getM() {
    return m;
  }

  public int getSubblockBytes() {
    return subblockBytes;
  }

  public int getStripes() {
    return stripes;
  }

  public int getSubstripesPerStripe() {
    return substripesPerStripe;
  }

  /** Whether stripe {@code s}'s parity is cached. */
  public boolean isStripeCached(int s) {
    int b = s >>> 3;
    return s >= 0 && b < cachedStripes.length && (cachedStripes[b] >>> (s & 7) & 1) != 0;
  }

  /** The bitmap of cached stripes: bit s of byte s/8 is stripe s. A copy. */
  public byte[] getCachedStripes() {
    return cachedStripes.clone();
  }

  /** Bytes of parity it occupies (or, while reserved, reserves). */
  public long getParityBytes() {
    return parityBytes;
  }

  public String getKeyPrefix() {
    return keyPrefix;
  }

  public State getState() {
    return state;
  }

  /** The Redis incarnation (run id) the parity was written to; "" if unknown. */
  public String getRedisRunId() {
    return redisRunId;
  }

  /**
   * Digest of the blocks (ids, generation stamps, lengths) the parity was made from; a
   * reader uses the parity only if its stream's blocks have the same digest. 0: unknown.
   */
  public long getBlocksDigest() {
    return blocksDigest;
  }

  public ParityProtection getProtection() {
    return protection;
  }

  /** Which Manager secret the file key is derived from. */
  public int getSealKeyId() {
    return sealKeyId;
  }

  /** The file key (a copy); empty in the index and in listings. */
  public byte[] getSealKey() {
    return sealKey.clone();
  }

  public boolean hasSealKey() {
    return sealKey.length > 0;
  }

  /**
   * Protected parity: 16 bytes (SHA-256, truncated) per stored value, in key order
   * ((stripe * substripesPerStripe + substripe) * m + parity). A copy.
   */
  public byte[] getValueDigests() {
    return valueDigests.clone();
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ParityDescriptor)) {
      return false;
    }
    ParityDescriptor d = (ParityDescriptor) o;
    return fileId == d.fileId && generation == d.generation && path.equals(d.path) && length == d.length
        && modificationTime == d.modificationTime && layout == d.layout && blockSize == d.blockSize
        && cellSize == d.cellSize && k == d.k && m == d.m && subblockBytes == d.subblockBytes
        && stripes == d.stripes && substripesPerStripe == d.substripesPerStripe
        && Arrays.equals(cachedStripes, d.cachedStripes) && parityBytes == d.parityBytes
        && keyPrefix.equals(d.keyPrefix) && state == d.state && redisRunId.equals(d.redisRunId)
        && blocksDigest == d.blocksDigest && protection == d.protection && sealKeyId == d.sealKeyId
        && Arrays.equals(sealKey, d.sealKey) && Arrays.equals(valueDigests, d.valueDigests);
  }

  @Override
  public int hashCode() {
    return Objects.hash(fileId, generation, path, length, modificationTime, state);
  }

  /** Names the file and the parity; never prints the file key. */
  @Override
  public String toString() {
    return path + " (id " + fileId + ", generation " + generation + ", " + state + ", " + layout + " RS(" + k + ","
        + m + "), " + length + " B, " + stripes + " stripes, subblock " + subblockBytes + " B, " + protection + ")";
  }

  /** Builds a {@link ParityDescriptor}; path and key prefix default to "", state to CACHED. */
  public static final class Builder {
    private long fileId;
    private long generation;
    private String path = "";
    private long length;
    private long modificationTime;
    private Layout layout = Layout.CONTIGUOUS;
    private long blockSize;
    private int cellSize;
    private int k;
    private int m;
    private int subblockBytes;
    private int stripes;
    private int substripesPerStripe;
    private byte[] cachedStripes = NONE;
    private long parityBytes;
    private String keyPrefix = "";
    private State state = State.CACHED;
    private String redisRunId = "";
    private long blocksDigest;
    private ParityProtection protection = ParityProtection.NONE;
    private int sealKeyId;
    private byte[] sealKey = NONE;
    private byte[] valueDigests = NONE;

    private Builder() {
    }

    public Builder setFileId(long v) {
      fileId = v;
      return this;
    }

    public Builder setGeneration(long v) {
      generation = v;
      return this;
    }

    public Builder setPath(String v) {
      path = Objects.requireNonNull(v, "path");
      return this;
    }

    public Builder setLength(long v) {
      length = v;
      return this;
    }

    public Builder setModificationTime(long v) {
      modificationTime = v;
      return this;
    }

    public Builder setLayout(Layout v) {
      layout = Objects.requireNonNull(v, "layout");
      return this;
    }

    public Builder setBlockSize(long v) {
      blockSize = v;
      return this;
    }

    public Builder setCellSize(int v) {
      cellSize = v;
      return this;
    }

    public Builder setK(int v) {
      k = v;
      return this;
    }

    public Builder setM(int v) {
      m = v;
      return this;
    }

    public Builder setSubblockBytes(int v) {
      subblockBytes = v;
      return this;
    }

    public Builder setStripes(int v) {
      stripes = v;
      return this;
    }

    public Builder setSubstripesPerStripe(int v) {
      substripesPerStripe = v;
      return this;
    }

    /** The bitmap of cached stripes (bit s of byte s/8 is stripe s); copied. */
    public Builder setCachedStripes(byte[] v) {
      cachedStripes = v.clone();
      return this;
    }

    public Builder setParityBytes(long v) {
      parityBytes = v;
      return this;
    }

    public Builder setKeyPrefix(String v) {
      keyPrefix = Objects.requireNonNull(v, "keyPrefix");
      return this;
    }

    public Builder setState(State v) {
      state = Objects.requireNonNull(v, "state");
      return this;
    }

    public Builder setRedisRunId(String v) {
      redisRunId = v == null ? "" : v;
      return this;
    }

    public Builder setBlocksDigest(long v) {
      blocksDigest = v;
      return this;
    }

    public Builder setProtection(ParityProtection v) {
      protection = Objects.requireNonNull(v, "protection");
      return this;
    }

    public Builder setSealKeyId(int v) {
      sealKeyId = v;
      return this;
    }

    /** The file key; copied. */
    public Builder setSealKey(byte[] v) {
      sealKey = v.clone();
      return this;
    }

    /** The digest of every stored value; copied. */
    public Builder setValueDigests(byte[] v) {
      valueDigests = v.clone();
      return this;
    }

    public ParityDescriptor build() {
      return new ParityDescriptor(this);
    }
  }
}
