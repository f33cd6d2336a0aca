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
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where parity subblocks live: put, get and delete of values keyed by
 * {@link ParityKey}, single, batched and asynchronous, plus the two things only the
 * Manager uses, its {@link #index() index} and facts about the {@link #server()
 * server}. {@link RedisParityStore} is the implementation; tests use an in-memory
 * one (testkit's {@code InMemoryParityStore}).
 *
 * <p>Contract every implementation keeps: values go in through
 * {@link ParityValue#encode}/{@link ParityValue#seal} and come out checked through
 * {@link ParityValue#decodeChunks} (or, for {@link #getAllUnopened}, its header-only
 * form), so a damaged value is deleted and reported as a
 * {@link CorruptParityException}, never returned; every other failure is a
 * {@link ParityStoreException} (a {@link CacheUnavailableException} when the store
 * cannot be reached), never an unchecked exception.
 */
public interface ParityStore extends AutoCloseable {

  /** The prefix every key of this store starts with ({@code dfs.pocache.redis.key.prefix}). */
  String prefix();

  /** The key of a parity subblock under {@link #prefix()}. */
  default ParityKey key(long fileId, long generation, int stripe, int substripe, int parityIndex) {
    return ParityKey.of(prefix(), fileId, generation, stripe, substripe, parityIndex);
  }

  /** The key of one parity subblock, its value sealed and opened under {@code seal}. */
  default ParityKey key(ParitySeal seal, long fileId, long generation, int stripe, int substripe, int parityIndex) {
    return key(fileId, generation, stripe, substripe, parityIndex).sealedWith(seal);
  }

  /**
   * The key of one parity subblock under {@code prefix} (a descriptor's: the Manager's of
   * the file's nameservice, which may differ from this store's), or under {@link #prefix()}
   * when it is null or empty; its value sealed and opened under {@code seal}.
   */
  default ParityKey key(String prefix, ParitySeal seal, long fileId, long generation, int stripe, int substripe,
      int parityIndex) {
    String use = prefix == null || prefix.isEmpty() ? prefix() : prefix;
    return ParityKey.of(use, fileId, generation, stripe, substripe, parityIndex).sealedWith(seal);
  }

  /** Whether calls fail at once for now (after repeated failures), without trying the server. */
  boolean breakerOpen();

  /** Stores one parity subblock (overwriting). */
  void put(ParityKey key, int[] dataCrcs, ByteBuffer payload) throws ParityStoreException;

  /** The parity stored under {@code key}, checked; null if there is none. */
  ParityValue get(ParityKey key) throws ParityStoreException;

  void delete(ParityKey key) throws ParityStoreException;

  /** Whether a value exists under {@code key} (it is not read or checked). */
  boolean exists(ParityKey key) throws ParityStoreException;

  /**
   * Many keys at once: result i is key i's parity, or null on a miss.
   *
   * @throws CorruptParityException if any value is damaged (it is deleted)
   */
  ParityValue[] getAll(List<ParityKey> keys) throws ParityStoreException;

  /**
   * {@link #getAll} whose protected values are checked only as far as their headers
   * go: the caller {@link ParityValue#open}s the ones it uses (a proactive read, which
   * uses parity only when a data piece is late).
   */
  ParityValue[] getAllUnopened(List<ParityKey> keys) throws ParityStoreException;

  /** Stores many subblocks at once; returns the {@link ParityValue#digest} of each value stored. */
  byte[][] putAll(List<ParityKey> keys, List<int[]> dataCrcs, List<ByteBuffer> payloads) throws ParityStoreException;

  /**
   * Stores a subblock in the background. Blocks the caller while more than
   * {@link #uploadWindowBytes()} are in flight, so a writer can never queue unbounded
   * memory; the future completes exceptionally on failure.
   */
  CompletableFuture<Void> putAsync(ParityKey key, int[] dataCrcs, ByteBuffer payload) throws InterruptedException;

  /**
   * {@link #putAsync} for a payload that already sits behind room for its header:
   * {@code value}'s first {@link ParityValue#headerBytes} bytes are overwritten with
   * the header on the upload thread ({@link ParityValue#seal}) and the array is
   * stored as it is, without copying the payload. The caller must not touch the
   * array afterwards.
   */
  CompletableFuture<Void> putInPlaceAsync(ParityKey key, int[] dataCrcs, byte[] value) throws InterruptedException;

  /** Bytes of asynchronous puts not yet finished. */
  long inFlightBytes();

  /** The most bytes asynchronous puts may have in flight ({@code dfs.pocache.redis.async.max.bytes}). */
  long uploadWindowBytes();

  /** Parity bytes this store has put for a file since it started (values plus headers). */
  long storedBytes(long fileId);

  /**
   * Deletes every key of one generation of a file: the key set follows from its
   * shape (stripes x substripes x m), so nothing is listed or scanned.
   *
   * @return how many keys existed
   */
  long deleteFile(long fileId, long generation, int stripes, int substripesPerStripe, int m)
      throws ParityStoreException;

  /** The Manager's index of cached files, kept beside the parity. */
  ManagerIndexStore index();

  /** Facts about the server(s) behind this store. */
  ServerInfo server();

  @Override
  void close();

  /**
   * The Manager's index: one entry per cached file, by file id, so a restarted
   * Manager rebuilds what it had without scanning the keyspace. Entries are opaque
   * bytes (the Manager seals them).
   */
  interface ManagerIndexStore {
    /** Records (or replaces) a file's entry. */
    void put(long fileId, byte[] entry) throws ParityStoreException;

    void remove(long fileId) throws ParityStoreException;

    /** Every entry, by file id; malformed ones are skipped and removed. */
    java.util.Map<Long, byte[]> load() throws ParityStoreException;

    /** Drops every entry (not the parity). */
    void clear() throws ParityStoreException;
  }

  /** Facts about the server(s) behind a store. */
  interface ServerInfo {
    /**
     * Identifies the running server(s); it changes on every restart (for Redis,
     * INFO's run_id, the masters' ids joined on a cluster). A change means the data
     * may be gone or older than what the Manager knows.
     */
    String runId() throws ParityStoreException;

    /** The most bytes the server(s) will hold ({@code maxmemory}, summed over masters), 0 when unlimited. */
    long maxMemory() throws ParityStoreException;
  }
}
