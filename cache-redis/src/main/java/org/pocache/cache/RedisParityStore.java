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

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The parity tier: put, get and delete of parity subblocks in Redis (standalone
 * or Redis Cluster, with AUTH, ACL users and TLS), single and pipelined, plus
 * asynchronous puts bounded by the bytes in flight.
 *
 * <p>Failure handling: Redis calls run with the configured connect and read
 * timeouts; idempotent calls (GET, DEL) are retried with backoff; after
 * {@code breaker.failures} consecutive failures a circuit breaker fails calls at
 * once for {@code breaker.open.ms}, then lets one trial through, so a dead Redis
 * costs one timeout per period, and the store recovers by itself when Redis
 * comes back. Every failure surfaces as a checked {@link ParityStoreException};
 * values are checked on the way out ({@link ParityValue#decode}) and a damaged
 * value is deleted and reported, never returned.
 */
public final class RedisParityStore implements AutoCloseable {
  /** Bytes per GETRANGE when reading values: well under half of G1's smallest region (1 MiB). */
  static final int GET_CHUNK = 256 << 10;

  private final RedisSettings settings;
  private final UnifiedJedis client;
  private final CircuitBreaker breaker;
  private final Map<Long, AtomicLong> storedBytes = new ConcurrentHashMap<>();
  private final ExecutorService async;
  /** The upload threads' SET connections, or null when SETs go through Jedis. */
  private final RespSetConnections respSets;
  private final Object inFlightLock = new Object();
  private long inFlightBytes;

  private RedisParityStore(RedisSettings settings, UnifiedJedis client) {
    this.settings = settings;
    this.client = client;
    this.breaker = new CircuitBreaker(settings.breakerFailures, settings.breakerOpenMillis,
        System::currentTimeMillis);
    ThreadFactory tf = DaemonThreads.numbered("pocache-redis-put");
    int uploadThreads = Math.max(1, Math.min(4, settings.poolMax / 2));
    this.async = Executors.newFixedThreadPool(uploadThreads, tf);
    this.respSets = settings.respSet && settings.topology == RedisSettings.Topology.STANDALONE && !settings.tls
        ? new RespSetConnections(settings, uploadThreads) : null;
  }

  /**
   * Connects and checks that Redis answers (PING; for a cluster, the slot map).
   *
   * @throws IllegalArgumentException naming the key if the settings are unusable
   *     (trust store unreadable, no seed answering, authentication refused)
   */
  public static RedisParityStore connect(RedisSettings s) {
    JedisClientConfig cfg = clientConfig(s);
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(s.poolMax);
    pool.setMaxIdle(s.poolMax);
    pool.setMaxWait(Duration.ofMillis(s.connectTimeoutMillis + (long) s.readTimeoutMillis));
    // No MBeans: registering them starts the platform MBean server, which costs every
    // short-lived client JVM (a MapReduce task) a few hundred classes and milliseconds.
    pool.setJmxEnabled(false);
    UnifiedJedis c;
    try {
      if (s.topology == RedisSettings.Topology.STANDALONE) {
        RedisSettings.Endpoint e = s.hosts.get(0);
        c = RedisClient.builder().hostAndPort(e.host, e.port).clientConfig(cfg).poolConfig(pool).build();
      } else {
        Set<HostAndPort> seeds = new HashSet<>();
        for (RedisSettings.Endpoint e : s.hosts) {
          seeds.add(new HostAndPort(e.host, e.port));
        }
        c = RedisClusterClient.builder().nodes(seeds).clientConfig(cfg).poolConfig(pool)
            .maxAttempts(Math.max(1, s.retries + 1)).build();
      }
    } catch (JedisException e) {
      throw new IllegalArgumentException(RedisSettings.HOSTS_KEY + " = " + s.hosts + ": cannot reach Redis ("
          + s.topology.name().toLowerCase() + "): " + e.getMessage(), e);
    }
    try {
      c.ping();
    } catch (JedisException e) {
      c.close();
      throw new IllegalArgumentException(RedisSettings.HOSTS_KEY + " = " + s.hosts + ": Redis does not answer PING: "
          + e.getMessage(), e);
    }
    return new RedisParityStore(s, c);
  }

  private static JedisClientConfig clientConfig(RedisSettings s) {
    DefaultJedisClientConfig.Builder b = DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(s.connectTimeoutMillis).socketTimeoutMillis(s.readTimeoutMillis)
        .clientName("pocache").resp2();
    if (!s.user.isEmpty()) {
      b.user(s.user);
    }
    if (!s.password.isEmpty()) {
      b.password(s.password);
    }
    if (s.tls) {
      SSLParameters params = new SSLParameters();
      params.setEndpointIdentificationAlgorithm("HTTPS"); // check the host name against the certificate
      b.ssl(true).sslSocketFactory(sslContext(s).getSocketFactory()).sslParameters(params);
    }
    return b.build();
  }

  private static SSLContext sslContext(RedisSettings s) {
    try (InputStream in = new FileInputStream(s.truststore)) {
      String name = s.truststore.getName().toLowerCase();
      KeyStore ks = KeyStore.getInstance(name.endsWith(".jks") ? "JKS" : "PKCS12");
      ks.load(in, s.truststorePassword.isEmpty() ? null : s.truststorePassword.toCharArray());
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(RedisSettings.TRUSTSTORE_KEY + " = " + s.truststore
          + ": cannot load the trust store: " + e.getMessage(), e);
    }
  }

  public RedisSettings settings() {
    return settings;
  }

  /** The key of a parity subblock under the configured prefix. */
  public ParityKey key(long fileId, long generation, int stripe, int substripe, int parityIndex) {
    return ParityKey.of(settings.prefix, fileId, generation, stripe, substripe, parityIndex);
  }

  /** The key of one parity subblock, its value sealed and opened under {@code seal}. */
  public ParityKey key(ParitySeal seal, long fileId, long generation, int stripe, int substripe, int parityIndex) {
    return key(fileId, generation, stripe, substripe, parityIndex).sealedWith(seal);
  }

  public boolean breakerOpen() {
    return breaker.isOpen();
  }

  // --- single operations --------------------------------------------------------

  /** Stores one parity subblock (overwriting). */
  public void put(ParityKey key, int[] dataCrcs, ByteBuffer payload) throws ParityStoreException {
    putValue(key, ParityValue.encode(key, dataCrcs, payload));
  }

  private void putValue(ParityKey key, byte[] v) throws ParityStoreException {
    if (respSets == null) {
      call("SET " + key, false, () -> client.set(key.bytes(), v));
    } else {
      call("SET " + key, false, () -> {
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

  /** The parity stored under {@code key}, checked; null if there is none. */
  public ParityValue get(ParityKey key) throws ParityStoreException {
    byte[] v = call("GET " + key, true, () -> client.get(key.bytes()));
    return v == null ? null : checked(key, v);
  }

  public void delete(ParityKey key) throws ParityStoreException {
    call("DEL " + key, true, () -> client.del(key.bytes()));
  }

  // --- batches -----------------------------------------------------------------

  /**
   * Pipelined GET of many keys: result i is key i's parity, or null on a miss.
   *
   * @throws CorruptParityException if any value is damaged (it is deleted)
   */
  public ParityValue[] getAll(List<ParityKey> keys) throws ParityStoreException {
    return getAll(keys, true);
  }

  /**
   * {@link #getAll} whose protected values are checked only as far as their headers
   * go: the caller {@link ParityValue#open}s the ones it uses (a proactive read, which
   * uses parity only when a data piece is late).
   */
  public ParityValue[] getAllUnopened(List<ParityKey> keys) throws ParityStoreException {
    return getAll(keys, false);
  }

  private ParityValue[] getAll(List<ParityKey> keys, boolean open) throws ParityStoreException {
    // Values are read in pieces of at most GET_CHUNK bytes (GETRANGE): a 1 MiB subblock's
    // value in one array would be a humongous object for G1 (half a region or more; 1 MiB
    // regions for heaps under 2 GiB), and every such allocation can start a concurrent
    // cycle: in the demo the proactive reads' GETs caused young and remark pauses of
    // 3-8 ms several times a second. Round 1: each value's length and first piece;
    // round 2, for values longer than one piece: the rest.
    List<byte[][]> raw = call("GET x" + keys.size(), true, () -> {
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

  /** Pipelined SET of many subblocks; returns the {@link ParityValue#digest} of each value stored. */
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
    call("SET x" + keys.size(), false, () -> {
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

  /**
   * Stores a subblock in the background. Blocks the caller while more than
   * {@code dfs.pocache.redis.async.max.bytes} are in flight, so a writer can never
   * queue unbounded memory; the future completes exceptionally on failure.
   */
  public CompletableFuture<Void> putAsync(ParityKey key, int[] dataCrcs, ByteBuffer payload)
      throws InterruptedException {
    return submitPut(key, payload.remaining(), () -> ParityValue.encode(key, dataCrcs, payload));
  }

  /**
   * {@link #putAsync} for a payload that already sits behind room for its header:
   * {@code value}'s first {@link ParityValue#headerBytes} bytes are overwritten with
   * the header on the upload thread ({@link ParityValue#seal}) and the array is
   * stored as it is, without copying the payload. The caller must not touch the
   * array afterwards.
   */
  public CompletableFuture<Void> putInPlaceAsync(ParityKey key, int[] dataCrcs, byte[] value)
      throws InterruptedException {
    return submitPut(key, ParityValue.payloadBytes(value.length, dataCrcs.length, key.seal()),
        () -> ParityValue.seal(key, dataCrcs, value));
  }

  private CompletableFuture<Void> submitPut(ParityKey key, long bytes, java.util.function.Supplier<byte[]> value)
      throws InterruptedException {
    synchronized (inFlightLock) {
      while (inFlightBytes > 0 && inFlightBytes + bytes > settings.asyncMaxBytes) {
        inFlightLock.wait();
      }
      inFlightBytes += bytes;
    }
    CompletableFuture<Void> f = new CompletableFuture<>();
    try {
      async.execute(() -> {
        Exception failure = null;
        try {
          putValue(key, value.get());
        } catch (ParityStoreException | RuntimeException e) {
          failure = e;
        } finally {
          release(bytes); // before completing: a caller that waited sees the bytes released
        }
        if (failure == null) {
          f.complete(null);
        } else {
          f.completeExceptionally(failure);
        }
      });
    } catch (RuntimeException rejected) {
      release(bytes);
      f.completeExceptionally(new CacheUnavailableException("store is closed", rejected));
    }
    return f;
  }

  private void release(long bytes) {
    synchronized (inFlightLock) {
      inFlightBytes -= bytes;
      inFlightLock.notifyAll();
    }
  }

  /** Bytes of async puts not yet finished. */
  public long inFlightBytes() {
    synchronized (inFlightLock) {
      return inFlightBytes;
    }
  }

  /**
   * Deletes every key of one generation of a file: the key set follows from its
   * shape (stripes x substripes x m), so no KEYS or SCAN is needed. All keys share
   * the file's hash tag, so each DEL is one slot even on a cluster.
   *
   * @return how many keys existed
   */
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
    return call("DEL x" + k.length, true, () -> client.del(k));
  }

  /** Whether a parity value exists under {@code key} (EXISTS; the value is not read or checked). */
  public boolean exists(ParityKey key) throws ParityStoreException {
    return call("EXISTS", true, () -> client.exists(key.bytes()));
  }

  // --- the Manager's index -----------------------------------------------------------
  // One hash, <prefix>manager-index, maps a file id to its descriptor, so a restarted
  // Manager can rebuild what it had without scanning the keyspace.

  private byte[] indexKey() {
    return (settings.prefix + "manager-index").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] field(long fileId) {
    return Long.toString(fileId).getBytes(StandardCharsets.UTF_8);
  }

  /** Records (or replaces) a file's entry in the Manager's index. */
  public void indexPut(long fileId, byte[] entry) throws ParityStoreException {
    call("HSET index", false, () -> client.hset(indexKey(), field(fileId), entry));
  }

  /** Removes a file's entry from the Manager's index. */
  public void indexRemove(long fileId) throws ParityStoreException {
    call("HDEL index", true, () -> client.hdel(indexKey(), field(fileId)));
  }

  /** Every entry of the Manager's index, by file id; malformed field names are skipped and removed. */
  public Map<Long, byte[]> indexLoad() throws ParityStoreException {
    Map<byte[], byte[]> raw = call("HGETALL index", true, () -> client.hgetAll(indexKey()));
    Map<Long, byte[]> out = new HashMap<>();
    for (Map.Entry<byte[], byte[]> e : raw.entrySet()) {
      String f = new String(e.getKey(), StandardCharsets.UTF_8);
      try {
        out.put(Long.parseLong(f), e.getValue());
      } catch (NumberFormatException bad) {
        call("HDEL index", true, () -> client.hdel(indexKey(), e.getKey()));
      }
    }
    return out;
  }

  /** Drops the Manager's whole index (not the parity keys). */
  public void indexClear() throws ParityStoreException {
    call("DEL index", true, () -> client.del(indexKey()));
  }

  /**
   * Identifies the running Redis server(s): INFO's run_id, which changes on every
   * restart (for a cluster, the masters' ids joined). A change means the data may be
   * gone or older than what the Manager knows.
   */
  public String serverRunId() throws ParityStoreException {
    return call("INFO server", true, () -> {
      if (client instanceof RedisClusterClient) {
        java.util.TreeSet<String> ids = new java.util.TreeSet<>();
        for (Map.Entry<String, ?> node : ((RedisClusterClient) client).getClusterNodes().entrySet()) {
          HostAndPort hp = HostAndPort.from(node.getKey());
          try (UnifiedJedis one = RedisClient.builder().hostAndPort(hp.getHost(), hp.getPort())
              .clientConfig(clientConfig(settings)).build()) {
            if (one.info("replication").contains("role:master")) {
              ids.add(parseInfoField(one.info("server"), "run_id"));
            }
          }
        }
        return String.join(",", ids);
      }
      return parseInfoField(client.info("server"), "run_id");
    });
  }

  static String parseInfoField(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(name + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return "";
  }

  /** Parity bytes this store has put for a file (since it started; values plus headers). */
  public long storedBytes(long fileId) {
    AtomicLong b = storedBytes.get(fileId);
    return b == null ? 0 : b.get();
  }

  private void account(long fileId, long bytes) {
    storedBytes.computeIfAbsent(fileId, id -> new AtomicLong()).addAndGet(bytes);
  }

  /**
   * Redis's {@code maxmemory} (INFO memory; the sum over masters of a cluster),
   * 0 when unlimited.
   */
  public long maxMemory() throws ParityStoreException {
    return call("INFO memory", true, () -> {
      long sum = 0;
      if (client instanceof RedisClusterClient) {
        for (Map.Entry<String, ?> node : ((RedisClusterClient) client).getClusterNodes().entrySet()) {
          HostAndPort hp = HostAndPort.from(node.getKey());
          try (UnifiedJedis one = RedisClient.builder().hostAndPort(hp.getHost(), hp.getPort())
              .clientConfig(clientConfig(settings)).build()) {
            if (one.info("replication").contains("role:master")) {
              sum += parseMaxMemory(one.info("memory"));
            }
          }
        }
        return sum;
      }
      return parseMaxMemory(client.info("memory"));
    });
  }

  /**
   * Checks that a cache capacity fits in Redis.
   *
   * @throws IllegalArgumentException naming {@code capacityKey} if it exceeds maxmemory
   */
  public void checkCapacity(String capacityKey, long capacityBytes) throws ParityStoreException {
    long max = maxMemory();
    if (max > 0 && capacityBytes > max) {
      throw new IllegalArgumentException(capacityKey + " = " + capacityBytes + " bytes exceeds Redis's maxmemory of "
          + max + " bytes");
    }
  }

  static long parseMaxMemory(String info) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("maxmemory:")) {
        return Long.parseLong(line.substring("maxmemory:".length()).trim());
      }
    }
    return 0;
  }

  // --- plumbing ------------------------------------------------------------------

  private interface RedisCall<T> {
    T run();
  }

  private <T> T call(String what, boolean idempotent, RedisCall<T> op) throws ParityStoreException {
    int attempts = idempotent ? settings.retries + 1 : 1;
    JedisException last = null;
    for (int a = 0; a < attempts; a++) {
      if (!breaker.allow()) {
        throw new CacheUnavailableException(what + ": Redis circuit breaker is open after repeated failures");
      }
      try {
        T r = op.run();
        breaker.success();
        return r;
      } catch (JedisException e) {
        breaker.failure();
        last = e;
        if (a + 1 < attempts && settings.backoffMillis > 0) {
          try {
            Thread.sleep((long) settings.backoffMillis << a);
          } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new CacheUnavailableException(what + ": interrupted", ie);
          }
        }
      }
    }
    throw new CacheUnavailableException(what + ": " + last.getMessage(), last);
  }

  private ParityValue checked(ParityKey key, byte[] v) throws ParityStoreException {
    return checked(key, new byte[][] {v}, true);
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
    async.shutdown();
    if (respSets != null) {
      respSets.close();
    }
    client.close();
  }
}
