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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The parity tier in Redis: parity subblocks put, read and deleted one at a time
 * and pipelined, with asynchronous uploads ({@link AsyncUploader}) that go through
 * POCache's own RESP connections where it can ({@link RespSetConnections}). How the
 * connection is made and how calls fail and retry is {@link RedisConnector}'s; the
 * Manager's index is {@link RedisIndexStore}, INFO is {@link RedisServerInfo}.
 * Values are checked on the way out ({@link ParityValue#decode}) and a damaged value
 * is deleted and reported, never returned.
 */
public final class RedisParityStore implements ParityStore {
  /** Bytes per GETRANGE when reading values: well under half of G1's smallest region (1 MiB). */
  static final int GET_CHUNK = 256 << 10;

  private final RedisConnector redis;
  private final Map<Long, AtomicLong> storedBytes = new ConcurrentHashMap<>();
  private final AsyncUploader uploads;
  /** The upload threads' SET connections, or null when SETs go through Jedis. */
  private final RespSetConnections respSets;
  /** Own connections for parity reads (null: through Jedis). */
  private final RespSetConnections respGets;
  private final RedisIndexStore index;
  private final RedisServerInfo server;

  private RedisParityStore(RedisConnector redis, RespSetConnections respSets) {
    RedisSettings s = redis.settings();
    this.redis = redis;
    this.uploads = new AsyncUploader(uploadThreads(s), s.asyncMaxBytes, this::putValue);
    this.respSets = respSets;
    // As many idle read connections as Jedis's pool may hold: a client's read threads ask at once.
    this.respGets = s.respGet && s.topology == RedisSettings.Topology.STANDALONE && !s.tls
        ? new RespSetConnections(s, s.poolMax) : null;
    this.index = new RedisIndexStore(redis);
    this.server = new RedisServerInfo(redis);
  }

  private static int uploadThreads(RedisSettings s) {
    return Math.max(1, Math.min(4, s.poolMax / 2));
  }

  /**
   * Connects and checks that Redis answers: with SETs on connections of the store's own (a
   * standalone Redis without TLS, {@code dfs.pocache.redis.resp.set.enabled}), by opening one
   * (AUTH, CLIENT SETNAME), and Jedis's client is made at the first call that needs it;
   * otherwise by Jedis's PING (for a cluster, the slot map).
   *
   * @throws IllegalArgumentException naming the key if the settings are unusable
   *     (trust store unreadable, no seed answering, authentication refused)
   */
  public static RedisParityStore connect(RedisSettings s) {
    if (!s.respSet || s.topology != RedisSettings.Topology.STANDALONE || s.tls) {
      return new RedisParityStore(RedisConnector.connect(s), null);
    }
    RespSetConnections sets = new RespSetConnections(s, uploadThreads(s));
    try {
      sets.check();
    } catch (IOException e) {
      sets.close();
      throw new IllegalArgumentException(RedisSettings.HOSTS_KEY + " = " + s.hosts + ": " + e.getMessage(), e);
    }
    return new RedisParityStore(RedisConnector.checkedElsewhere(s), sets);
  }

  /** Whether Jedis's client was made (for tests: a store that only uploads never makes it). */
  boolean jedisClientMade() {
    return redis.clientMade();
  }

  public RedisSettings settings() {
    return redis.settings();
  }

  @Override
  public String prefix() {
    return redis.settings().prefix;
  }

  @Override
  public boolean breakerOpen() {
    return redis.breakerOpen();
  }

  @Override
  public ManagerIndexStore index() {
    return index;
  }

  @Override
  public ServerInfo server() {
    return server;
  }

  // --- single operations --------------------------------------------------------

  @Override
  public void put(ParityKey key, int[] dataCrcs, ByteBuffer payload) throws ParityStoreException {
    putValue(key, ParityValue.encode(key, dataCrcs, payload));
  }

  private void putValue(ParityKey key, byte[] v) throws ParityStoreException {
    if (respSets == null) {
      redis.call("SET " + key, false, c -> c.set(key.bytes(), v));
    } else {
      redis.call("SET " + key, false, () -> {
        try {
          respSets.set(key.bytes(), v);
          return null;
        } catch (RespSetConnections.ErrorReply e) {
          throw new JedisDataException(e.getMessage(), e); // as Jedis reports an error reply
        } catch (IOException e) {
          throw new JedisConnectionException(e.getMessage(), e); // as Jedis reports a broken or silent connection
        }
      });
    }
    account(key.fileId(), v.length);
  }

  @Override
  public ParityValue get(ParityKey key) throws ParityStoreException {
    byte[] v = redis.call("GET " + key, true, c -> c.get(key.bytes()));
    return v == null ? null : checked(key, new byte[][] {v}, true);
  }

  @Override
  public void delete(ParityKey key) throws ParityStoreException {
    redis.call("DEL " + key, true, c -> c.del(key.bytes()));
  }

  @Override
  public boolean exists(ParityKey key) throws ParityStoreException {
    return redis.call("EXISTS", true, c -> c.exists(key.bytes()));
  }

  // --- batches -----------------------------------------------------------------

  /** Pipelined GET of many keys. */
  @Override
  public ParityValue[] getAll(List<ParityKey> keys) throws ParityStoreException {
    return getAll(keys, true);
  }

  @Override
  public ParityValue[] getAllUnopened(List<ParityKey> keys) throws ParityStoreException {
    return getAll(keys, false);
  }

  private ParityValue[] getAll(List<ParityKey> keys, boolean open) throws ParityStoreException {
    // Values are read in pieces of at most GET_CHUNK bytes (GETRANGE): a 1 MiB subblock's
    // value in one array would be a humongous object for G1 (half a region or more; 1 MiB
    // regions for heaps under 2 GiB), and every such allocation can start a concurrent
    // cycle, which shows as young and remark pauses of several milliseconds under
    // proactive reads. Round 1: each value's length and first piece; round 2, for values
    // longer than one piece: the rest.
    List<byte[][]> raw = respGets != null ? ownGets(keys) : redis.call("GET x" + keys.size(), true, client -> {
      List<Response<Long>> lengths = new ArrayList<>(keys.size());
      List<Response<byte[]>> first = new ArrayList<>(keys.size());
      try (AbstractPipeline p = client.pipelined()) {
        for (ParityKey k : keys) {
          lengths.add(p.strlen(k.bytes()));
          first.add(p.getrange(k.bytes(), 0, GET_CHUNK - 1));
        }
        p.sync();
      }
      List<byte[][]> out = new ArrayList<>(keys.size());
      List<List<Response<byte[]>>> rest = new ArrayList<>(keys.size());
      boolean more = false;
      for (int i = 0; i < keys.size(); i++) {
        long n = lengths.get(i).get();
        int pieces = (int) Math.max(1, (n + GET_CHUNK - 1) / GET_CHUNK);
        out.add(n == 0 ? null : new byte[pieces][]);
        rest.add(new ArrayList<Response<byte[]>>());
        if (n != 0) {
          out.get(i)[0] = first.get(i).get();
        }
        more |= pieces > 1;
      }
      if (more) {
        try (AbstractPipeline p = client.pipelined()) {
          for (int i = 0; i < keys.size(); i++) {
            byte[][] v = out.get(i);
            for (int c = 1; v != null && c < v.length; c++) {
              rest.get(i).add(p.getrange(keys.get(i).bytes(), (long) c * GET_CHUNK, (long) (c + 1) * GET_CHUNK - 1));
            }
          }
          p.sync();
        }
        for (int i = 0; i < keys.size(); i++) {
          for (int c = 0; c < rest.get(i).size(); c++) {
            out.get(i)[c + 1] = rest.get(i).get(c).get();
          }
        }
      }
      for (int i = 0; i < out.size(); i++) {
        byte[][] v = out.get(i);
        for (int c = 0; v != null && c < v.length; c++) {
          if (v[c] == null || v[c].length == 0) {
            out.set(i, null); // deleted (evicted) between the reads: a miss, not damage
            break;
          }
        }
      }
      return out;
    });
    ParityValue[] out = new ParityValue[keys.size()];
    for (int i = 0; i < out.length; i++) {
      byte[][] v = raw.get(i);
      out[i] = v == null ? null : checked(keys.get(i), v, open);
    }
    return out;
  }

  /** {@link #getAll}'s reads over the store's own connections: one GET per value, read in the same pieces. */
  private List<byte[][]> ownGets(List<ParityKey> keys) throws ParityStoreException {
    List<byte[]> names = new ArrayList<>(keys.size());
    for (ParityKey k : keys) {
      names.add(k.bytes());
    }
    return redis.call("GET x" + keys.size(), true, () -> {
      try {
        return java.util.Arrays.asList(respGets.getPieces(names, GET_CHUNK));
      } catch (RespSetConnections.ErrorReply e) {
        throw new JedisDataException(e.getMessage(), e); // as Jedis reports an error reply
      } catch (IOException e) {
        throw new JedisConnectionException(e.getMessage(), e); // as Jedis reports a broken or silent connection
      }
    });
  }

  /** Pipelined SET of many subblocks. */
  @Override
  public byte[][] putAll(List<ParityKey> keys, List<int[]> dataCrcs, List<ByteBuffer> payloads)
      throws ParityStoreException {
    if (keys.size() != dataCrcs.size() || keys.size() != payloads.size()) {
      throw new IllegalArgumentException("keys, dataCrcs and payloads differ in length: " + keys.size() + ", "
          + dataCrcs.size() + ", " + payloads.size());
    }
    List<byte[]> values = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      values.add(ParityValue.encode(keys.get(i), dataCrcs.get(i), payloads.get(i)));
    }
    redis.call("SET x" + keys.size(), false, client -> {
      try (AbstractPipeline p = client.pipelined()) {
        for (int i = 0; i < keys.size(); i++) {
          p.set(keys.get(i).bytes(), values.get(i));
        }
        p.sync();
        return null;
      }
    });
    byte[][] digests = new byte[keys.size()][];
    for (int i = 0; i < keys.size(); i++) {
      account(keys.get(i).fileId(), values.get(i).length);
      digests[i] = ParityValue.digest(values.get(i));
    }
    return digests;
  }

  @Override
  public CompletableFuture<Void> putAsync(ParityKey key, int[] dataCrcs, ByteBuffer payload)
      throws InterruptedException {
    return uploads.submit(key, payload.remaining(), () -> ParityValue.encode(key, dataCrcs, payload));
  }

  @Override
  public CompletableFuture<Void> putInPlaceAsync(ParityKey key, int[] dataCrcs, byte[] value)
      throws InterruptedException {
    return uploads.submit(key, ParityValue.payloadBytes(value.length, dataCrcs.length, key.seal()),
        () -> ParityValue.seal(key, dataCrcs, value));
  }

  @Override
  public long inFlightBytes() {
    return uploads.inFlightBytes();
  }

  @Override
  public long uploadWindowBytes() {
    return uploads.windowBytes();
  }

  /** All keys share the file's hash tag, so each DEL is one slot even on a cluster. */
  @Override
  public long deleteFile(long fileId, long generation, int stripes, int substripesPerStripe, int m)
      throws ParityStoreException {
    List<byte[]> batch = new ArrayList<>();
    long deleted = 0;
    for (int s = 0; s < stripes; s++) {
      for (int j = 0; j < substripesPerStripe; j++) {
        for (int p = 0; p < m; p++) {
          batch.add(key(fileId, generation, s, j, p).bytes());
          if (batch.size() == 512) {
            deleted += delBatch(batch);
            batch.clear();
          }
        }
      }
    }
    if (!batch.isEmpty()) {
      deleted += delBatch(batch);
    }
    storedBytes.remove(fileId);
    return deleted;
  }

  private long delBatch(List<byte[]> keys) throws ParityStoreException {
    byte[][] k = keys.toArray(new byte[0][]);
    return redis.call("DEL x" + k.length, true, c -> c.del(k));
  }

  @Override
  public long storedBytes(long fileId) {
    AtomicLong b = storedBytes.get(fileId);
    return b == null ? 0 : b.get();
  }

  private void account(long fileId, long bytes) {
    storedBytes.computeIfAbsent(fileId, id -> new AtomicLong()).addAndGet(bytes);
  }

  /** A value read in pieces: the pieces of a value replaced between reads fail its checks. */
  private ParityValue checked(ParityKey key, byte[][] v, boolean open) throws ParityStoreException {
    try {
      return open ? ParityValue.decodeChunks(key, v) : ParityValue.decodeChunksUnopened(key, v);
    } catch (CorruptParityException e) {
      try {
        delete(key); // never serve it again
      } catch (ParityStoreException ignored) {
        // The corruption report below matters more.
      }
      throw e;
    }
  }

  @Override
  public void close() {
    uploads.close();
    if (respGets != null) {
      respGets.close();
    }
    if (respSets != null) {
      respSets.close();
    }
    redis.close();
  }
}
