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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ParityStore} in a map, for tests of what sits above the store (the
 * Manager, the readers) without a redis-server. Values are encoded, sealed and
 * checked by the same {@link ParityValue} code as in Redis, so digests, seals and
 * damaged values behave as they do there. Asynchronous puts complete before they
 * return. A test can take the store {@link #setAvailable down}, {@link #restart()}
 * it (everything gone, a new run id), change a stored value {@link #rawPut raw}, or
 * set its {@link #setMaxMemory maxmemory}.
 */
public final class InMemoryParityStore implements ParityStore {
  private final String prefix;
  private final Map<String, byte[]> values = new ConcurrentHashMap<>();
  /** The file each stored value belongs to, by key name (kept with values). */
  private final Map<String, Long> fileOf = new ConcurrentHashMap<>();
  private final Map<Long, byte[]> index = new ConcurrentHashMap<>();
  private final Map<Long, AtomicLong> stored = new ConcurrentHashMap<>();
  private volatile boolean available = true;
  private volatile String runId = UUID.randomUUID().toString();
  private volatile long maxMemory;
  private final AtomicLong calls = new AtomicLong();

  public InMemoryParityStore(String prefix) {
    ParityKey.checkPrefix(prefix);
    this.prefix = prefix;
  }

  public InMemoryParityStore() {
    this(RedisSettings.PREFIX_DEFAULT);
  }

  /** While false, every call fails as an unreachable Redis's would. */
  public void setAvailable(boolean up) {
    available = up;
  }

  /** A restart without persistence: every value and the index gone, a new run id. */
  public void restart() {
    values.clear();
    fileOf.clear();
    index.clear();
    runId = UUID.randomUUID().toString();
  }

  public void setMaxMemory(long bytes) {
    maxMemory = bytes;
  }

  /** Stores {@code v} under {@code key} as it is (a forged or damaged value). */
  public void rawPut(ParityKey key, byte[] v) {
    values.put(name(key), v.clone());
    fileOf.put(name(key), key.fileId());
  }

  /** The value under {@code key} as stored, or null. */
  public byte[] rawGet(ParityKey key) {
    byte[] v = values.get(name(key));
    return v == null ? null : v.clone();
  }

  /** How many parity values are stored. */
  public int valueCount() {
    return values.size();
  }

  /** How many parity values of {@code fileId} are stored (any generation). */
  public int valueCount(long fileId) {
    int n = 0;
    for (Long f : fileOf.values()) {
      n += f == fileId ? 1 : 0;
    }
    return n;
  }

  /** Calls made so far (every method that would reach Redis). */
  public long calls() {
    return calls.get();
  }

  private void reach(String what) throws CacheUnavailableException {
    calls.incrementAndGet();
    if (!available) {
      throw new CacheUnavailableException(what + ": the in-memory store is down");
    }
  }

  private boolean forget(String name) {
    fileOf.remove(name);
    return values.remove(name) != null;
  }

  private static String name(ParityKey key) {
    return new String(key.bytes(), StandardCharsets.ISO_8859_1);
  }

  @Override
  public String prefix() {
    return prefix;
  }

  @Override
  public boolean breakerOpen() {
    return !available;
  }

  @Override
  public void put(ParityKey key, int[] dataCrcs, ByteBuffer payload) throws ParityStoreException {
    store(key, ParityValue.encode(key, dataCrcs, payload));
  }

  private void store(ParityKey key, byte[] v) throws ParityStoreException {
    reach("SET " + key);
    values.put(name(key), v);
    fileOf.put(name(key), key.fileId());
    stored.computeIfAbsent(key.fileId(), id -> new AtomicLong()).addAndGet(v.length);
  }

  @Override
  public ParityValue get(ParityKey key) throws ParityStoreException {
    reach("GET " + key);
    byte[] v = values.get(name(key));
    return v == null ? null : checked(key, v, true);
  }

  @Override
  public void delete(ParityKey key) throws ParityStoreException {
    reach("DEL " + key);
    forget(name(key));
  }

  @Override
  public boolean exists(ParityKey key) throws ParityStoreException {
    reach("EXISTS " + key);
    return values.containsKey(name(key));
  }

  @Override
  public ParityValue[] getAll(List<ParityKey> keys) throws ParityStoreException {
    return getAll(keys, true);
  }

  @Override
  public ParityValue[] getAllUnopened(List<ParityKey> keys) throws ParityStoreException {
    return getAll(keys, false);
  }

  private ParityValue[] getAll(List<ParityKey> keys, boolean open) throws ParityStoreException {
    reach("GET x" + keys.size());
    List<byte[]> raw = new ArrayList<>(keys.size());
    for (ParityKey k : keys) {
      raw.add(values.get(name(k)));
    }
    ParityValue[] out = new ParityValue[keys.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = raw.get(i) == null ? null : checked(keys.get(i), raw.get(i), open);
    }
    return out;
  }

  private ParityValue checked(ParityKey key, byte[] v, boolean open) throws CorruptParityException {
    byte[][] chunks = {v.clone()};
    try {
      return open ? ParityValue.decodeChunks(key, chunks) : ParityValue.decodeChunksUnopened(key, chunks);
    } catch (CorruptParityException e) {
      forget(name(key)); // as the Redis store does: never serve it again
      throw e;
    }
  }

  @Override
  public byte[][] putAll(List<ParityKey> keys, List<int[]> dataCrcs, List<ByteBuffer> payloads)
      throws ParityStoreException {
    if (keys.size() != dataCrcs.size() || keys.size() != payloads.size()) {
      throw new IllegalArgumentException("keys, dataCrcs and payloads differ in length");
    }
    byte[][] digests = new byte[keys.size()][];
    for (int i = 0; i < keys.size(); i++) {
      byte[] v = ParityValue.encode(keys.get(i), dataCrcs.get(i), payloads.get(i));
      store(keys.get(i), v);
      digests[i] = ParityValue.digest(v);
    }
    return digests;
  }

  @Override
  public CompletableFuture<Void> putAsync(ParityKey key, int[] dataCrcs, ByteBuffer payload) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    try {
      put(key, dataCrcs, payload);
      f.complete(null);
    } catch (ParityStoreException | RuntimeException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  @Override
  public CompletableFuture<Void> putInPlaceAsync(ParityKey key, int[] dataCrcs, byte[] value) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    try {
      store(key, ParityValue.seal(key, dataCrcs, value));
      f.complete(null);
    } catch (ParityStoreException | RuntimeException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  @Override
  public long inFlightBytes() {
    return 0;
  }

  @Override
  public long uploadWindowBytes() {
    return Long.parseLong(RedisSettings.ASYNC_MAX_BYTES_DEFAULT);
  }

  @Override
  public long storedBytes(long fileId) {
    AtomicLong b = stored.get(fileId);
    return b == null ? 0 : b.get();
  }

  @Override
  public long deleteFile(long fileId, long generation, int stripes, int substripesPerStripe, int m)
      throws ParityStoreException {
    reach("DEL file " + fileId);
    long n = 0;
    for (int s = 0; s < stripes; s++) {
      for (int j = 0; j < substripesPerStripe; j++) {
        for (int p = 0; p < m; p++) {
          n += forget(name(key(fileId, generation, s, j, p))) ? 1 : 0;
        }
      }
    }
    stored.remove(fileId);
    return n;
  }

  @Override
  public ManagerIndexStore index() {
    return new ManagerIndexStore() {
      @Override
      public void put(long fileId, byte[] entry) throws ParityStoreException {
        reach("HSET index");
        index.put(fileId, entry.clone());
      }

      @Override
      public void remove(long fileId) throws ParityStoreException {
        reach("HDEL index");
        index.remove(fileId);
      }

      @Override
      public Map<Long, byte[]> load() throws ParityStoreException {
        reach("HGETALL index");
        return new HashMap<>(index);
      }

      @Override
      public void clear() throws ParityStoreException {
        reach("DEL index");
        index.clear();
      }
    };
  }

  @Override
  public ServerInfo server() {
    return new ServerInfo() {
      @Override
      public String runId() throws ParityStoreException {
        reach("INFO server");
        return runId;
      }

      @Override
      public long maxMemory() throws ParityStoreException {
        reach("INFO memory");
        return maxMemory;
      }
    };
  }

  @Override
  public void close() {
  }
}
