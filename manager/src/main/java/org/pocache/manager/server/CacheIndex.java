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
package org.pocache.manager.server;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pocache.cache.ParityProtection;
import org.pocache.manager.protocol.ParityDescriptor;

/**
 * The Manager's cache index: file id -> entry (descriptor and state), and open
 * reservations by id. Not thread-safe: {@link CacheState} guards it with its
 * lock, together with CSAC, so the two always agree on what is cached.
 */
final class CacheIndex {
  /**
   * One file's parity as the Manager tracks it. What stays fixed for a generation is
   * final; the rest changes only through the transitions below, which {@link CacheState}
   * makes under its lock.
   */
  static final class Entry {
    final long fileId;
    final long generation;
    final long blockSize;
    final int cellSize;
    final int k;
    final int m;
    final int subblockBytes;
    /** How its parity is sealed, and the id of the Manager secret its file key comes from. */
    final ParityProtection protection;
    final int sealKeyId;
    /** While RESERVED or FILLING: the reservation's id, when it expires and who made it (null: the Manager). */
    final long reservationId;
    final long expiresAtMillis;
    final String owner;
    private String path;
    private long length;
    private long modificationTime;
    /** Weight in CSAC: reserved bytes while RESERVED or FILLING, stored parity bytes once CACHED. */
    private long parityBytes;
    private ParityState state;
    /** A FILLING entry handed to the reader that opened the file (else to the fill worker). */
    private boolean readerFill;
    /** The Redis incarnation (run id) the parity was written to. */
    private String redisRunId;
    /**
     * Digest of the blocks the parity was computed from (see {@link FileInfo#blocksDigest});
     * 0 until known (an entry written by an older Manager learns it at its next lookup).
     */
    private long blocksDigest;
    /** Protected parity: the digest of every committed value (empty while reserved or filling). */
    private byte[] valueDigests = new byte[0];
    /** The descriptor served to readers, built once: a CACHED entry does not change until it is dropped. */
    private ParityDescriptor served;

    Entry(long fileId, long generation, String path, long length, long modificationTime, long blockSize,
        int cellSize, int k, int m, int subblockBytes, long parityBytes, ParityState state, String redisRunId,
        long blocksDigest, ParityProtection protection, int sealKeyId, long reservationId, String owner,
        long expiresAtMillis) {
      this.fileId = fileId;
      this.generation = generation;
      this.path = path;
      this.length = length;
      this.modificationTime = modificationTime;
      this.blockSize = blockSize;
      this.cellSize = cellSize;
      this.k = k;
      this.m = m;
      this.subblockBytes = subblockBytes;
      this.parityBytes = parityBytes;
      this.state = state;
      this.redisRunId = redisRunId;
      this.blocksDigest = blocksDigest;
      this.protection = protection;
      this.sealKeyId = sealKeyId;
      this.reservationId = reservationId;
      this.owner = owner;
      this.expiresAtMillis = expiresAtMillis;
    }

    String path() {
      return path;
    }

    long length() {
      return length;
    }

    long parityBytes() {
      return parityBytes;
    }

    ParityState state() {
      return state;
    }

    boolean cached() {
      return state == ParityState.CACHED;
    }

    boolean readerFill() {
      return readerFill;
    }

    String redisRunId() {
      return redisRunId;
    }

    byte[] valueDigests() {
      return valueDigests;
    }

    /** A fill is done by the reader that asked ({@code true}) or by the fill worker. */
    void setReaderFill(boolean byReader) {
      readerFill = byReader;
    }

    /** RESERVED or FILLING -> CACHED: the parity of {@code f} as it is now, {@code bytes} of it. */
    void commit(FileInfo f, long bytes, byte[] digests, String runId) {
      state = ParityState.CACHED;
      path = f.path != null ? f.path : path;
      length = f.length;
      modificationTime = f.modificationTime;
      blocksDigest = f.blocksDigest;
      parityBytes = bytes;
      valueDigests = digests;
      redisRunId = runId;
      served = null;
    }

    /** A reservation grown with its file (CSAC's weight follows). */
    void grow(long bytes) {
      parityBytes = bytes;
    }

    /** Out of the index: its keys are being deleted. */
    void evicting() {
      state = ParityState.EVICTING;
    }

    /** Follows a rename (the index is keyed by inode id); true if the path changed. */
    boolean renamedTo(String newPath) {
      if (newPath == null || newPath.equals(path)) {
        return false;
      }
      path = newPath;
      served = null;
      return true;
    }

    /** Forgets the descriptor built for readers (the secrets changed). */
    void forgetServed() {
      served = null;
    }

    /**
     * The descriptor readers get, built once; an entry that does not know its blocks
     * yet learns them from {@code f}, which {@link #matches} it.
     */
    ParityDescriptor served(FileInfo f, ParitySecrets secrets, String keyPrefix) {
      if (blocksDigest == 0) {
        blocksDigest = f.blocksDigest; // it matches: the blocks are those the parity was made from
        served = null;
      }
      if (served == null) {
        served = secrets.withKey(descriptor(keyPrefix));
      }
      return served;
    }

    /** Stripes (HDFS blocks grouped k at a time, or block groups) of a file of {@code length} bytes. */
    int stripes() {
      long stripeBytes = blockSize * k;
      return (int) Math.max(1, (length + stripeBytes - 1) / stripeBytes);
    }

    int substripesPerStripe() {
      return (int) ((blockSize + subblockBytes - 1) / subblockBytes);
    }

    /** Whether this parity was made for the file as the NameNode describes it now. */
    boolean matches(FileInfo f) {
      return f != null && f.id == fileId && f.complete && f.length == length
          && f.modificationTime == modificationTime && (blocksDigest == 0 || blocksDigest == f.blocksDigest);
    }

    /** Whether {@code f} is the version of the file this entry was made for (a fill's file not written since). */
    boolean sameVersion(FileInfo f) {
      return f.modificationTime == modificationTime && f.blocksDigest == blocksDigest;
    }

    /** The entry as the index stores it and listCached shows it: never with the file key. */
    ParityDescriptor descriptor(String keyPrefix) {
      int stripes = stripes();
      byte[] bitmap = new byte[(stripes + 7) / 8];
      if (state == ParityState.CACHED) {
        for (int s = 0; s < stripes; s++) {
          bitmap[s >>> 3] |= (byte) (1 << (s & 7));
        }
      }
      return ParityDescriptor.newBuilder().setFileId(fileId).setGeneration(generation).setPath(path)
          .setLength(length).setModificationTime(modificationTime)
          .setLayout(cellSize > 0 ? ParityDescriptor.Layout.STRIPED : ParityDescriptor.Layout.CONTIGUOUS)
          .setBlockSize(blockSize)
          .setCellSize(cellSize).setK(k).setM(m).setSubblockBytes(subblockBytes).setStripes(stripes)
          .setSubstripesPerStripe(substripesPerStripe()).setCachedStripes(bitmap)
          .setParityBytes(parityBytes).setKeyPrefix(keyPrefix).setState(state.toDescriptorState())
          .setRedisRunId(redisRunId).setBlocksDigest(blocksDigest)
          .setProtection(protection).setSealKeyId(sealKeyId).setValueDigests(valueDigests).build();
    }

    static Entry of(ParityDescriptor d) {
      Entry e = new Entry(d.getFileId(), d.getGeneration(), d.getPath(), d.getLength(), d.getModificationTime(),
          d.getBlockSize(), d.getCellSize(), d.getK(), d.getM(), d.getSubblockBytes(), d.getParityBytes(),
          ParityState.of(d.getState()), d.getRedisRunId(), d.getBlocksDigest(), d.getProtection(), d.getSealKeyId(),
          0, null, 0);
      e.valueDigests = d.getValueDigests();
      return e;
    }

    @Override
    public String toString() {
      return path + " (id " + fileId + ", generation " + generation + ", " + state + ")";
    }
  }

  private final Map<Long, Entry> byFile = new HashMap<>();
  private final Map<Long, Entry> byReservation = new HashMap<>();
  /** Recently closed reservations and how, so a second commit gets a precise error. */
  private final Map<Long, String> closed = new LinkedHashMap<Long, String>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
      return size() > 10_000;
    }
  };

  Entry get(long fileId) {
    return byFile.get(fileId);
  }

  Entry reservation(long id) {
    return byReservation.get(id);
  }

  /** How reservation {@code id} ended, or null if it never existed (or ended long ago). */
  String closedAs(long id) {
    return closed.get(id);
  }

  void put(Entry e) {
    byFile.put(e.fileId, e);
    if (e.state == ParityState.RESERVED || e.state == ParityState.FILLING) {
      byReservation.put(e.reservationId, e);
    }
  }

  /** Ends {@code e}'s reservation (committed, aborted, expired) and keeps why. */
  void closeReservation(Entry e, String how) {
    if (byReservation.remove(e.reservationId) != null) {
      closed.put(e.reservationId, how);
    }
  }

  /** Forgets a file altogether; its reservation, if any, ends as {@code how}. */
  Entry remove(long fileId, String how) {
    Entry e = byFile.remove(fileId);
    if (e != null) {
      closeReservation(e, how);
    }
    return e;
  }

  int size() {
    return byFile.size();
  }

  int reservations() {
    return byReservation.size();
  }

  Collection<Entry> entries() {
    return byFile.values();
  }

  /** Bytes held by the open reservations (writes and fills) of {@code owner}. */
  long reservedBy(String owner) {
    long n = 0;
    for (Entry e : byReservation.values()) {
      if (owner.equals(e.owner)) {
        n += e.parityBytes;
      }
    }
    return n;
  }

  /** Open reservations of writes (not fills). */
  List<Entry> openWrites() {
    List<Entry> out = new ArrayList<>();
    for (Entry e : byReservation.values()) {
      if (e.state == ParityState.RESERVED) {
        out.add(e);
      }
    }
    return out;
  }

  /** Reservations past their expiry, removed from the index. */
  List<Entry> expire(long nowMillis) {
    List<Entry> out = new ArrayList<>();
    for (Iterator<Entry> it = byReservation.values().iterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (e.expiresAtMillis <= nowMillis) {
        it.remove();
        e.evicting();
        closed.put(e.reservationId, "expired");
        byFile.remove(e.fileId);
        out.add(e);
      }
    }
    return out;
  }

  /** Removes everything; returns what was there. */
  List<Entry> clear(String how) {
    List<Entry> all = new ArrayList<>(byFile.values());
    for (Entry e : all) {
      closeReservation(e, how);
    }
    byFile.clear();
    return all;
  }
}
