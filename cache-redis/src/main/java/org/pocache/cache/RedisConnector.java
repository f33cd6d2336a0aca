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
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The connection to Redis (standalone or Redis Cluster, with AUTH, ACL users and
 * TLS) and how every call goes over it: with the configured connect and read
 * timeouts; idempotent calls (GET, DEL) retried with backoff; after
 * {@code breaker.failures} consecutive failures a circuit breaker fails calls at
 * once for {@code breaker.open.ms}, then lets one trial through, so a dead Redis
 * costs one timeout per period and the store recovers by itself when Redis comes
 * back. Every failure surfaces as a checked {@link CacheUnavailableException}.
 */
final class RedisConnector implements AutoCloseable {
  private final RedisSettings settings;
  /** Jedis's client; made at the first call that needs it when the store was checked without it. */
  private volatile UnifiedJedis client;
  private final CircuitBreaker breaker;
  private volatile boolean closed;

  /** A call to Redis; Jedis reports failures as unchecked {@link JedisException}s. */
  interface RedisCall<T> {
    T run(UnifiedJedis client);
  }

  /** A call that does not go through Jedis's client; it reports failures as Jedis does. */
  interface OwnCall<T> {
    T run();
  }

  private RedisConnector(RedisSettings settings, UnifiedJedis client) {
    this.settings = settings;
    this.client = client;
    this.breaker = new CircuitBreaker(settings.breakerFailures, settings.breakerOpenMillis,
        System::currentTimeMillis);
  }

  /**
   * Connects and checks that Redis answers (PING; for a cluster, the slot map).
   *
   * @throws IllegalArgumentException naming the key if the settings are unusable
   *     (trust store unreadable, no seed answering, authentication refused)
   */
  static RedisConnector connect(RedisSettings s) {
    UnifiedJedis c = newClient(s);
    try {
      c.ping();
    } catch (JedisException e) {
      c.close();
      throw new IllegalArgumentException(RedisSettings.HOSTS_KEY + " = " + s.hosts + ": Redis does not answer PING: "
          + e.getMessage(), e);
    }
    return new RedisConnector(s, c);
  }

  /**
   * A connector whose Jedis client is made at its first call, for a store that checked
   * Redis another way ({@link RespSetConnections#check}): a client that only uploads (a
   * writer, a reducer) never loads Jedis's few hundred classes.
   */
  static RedisConnector checkedElsewhere(RedisSettings s) {
    return new RedisConnector(s, null);
  }

  private UnifiedJedis client() {
    UnifiedJedis c = client;
    if (c == null) {
      synchronized (this) {
        c = client;
        if (c == null) {
          if (closed) {
            throw new JedisException("store is closed");
          }
          try {
            c = newClient(settings);
          } catch (IllegalArgumentException e) {
            throw new JedisException(e.getMessage(), e);
          }
          client = c;
        }
      }
    }
    return c;
  }

  boolean clientMade() {
    return client != null;
  }

  /** Jedis's client of {@code s}, pooled; nothing is sent yet. */
  private static UnifiedJedis newClient(RedisSettings s) {
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
    return c;
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

  RedisSettings settings() {
    return settings;
  }

  boolean breakerOpen() {
    return breaker.isOpen();
  }

  /**
   * Runs {@code op} on the shared client, retried when {@code idempotent}, behind
   * the breaker; {@code what} names the call in the error.
   */
  <T> T call(String what, boolean idempotent, RedisCall<T> op) throws CacheUnavailableException {
    return call(what, idempotent, () -> op.run(client()));
  }

  /** {@code op}, which does not use Jedis's client, retried and behind the breaker as {@link #call} does. */
  <T> T call(String what, boolean idempotent, OwnCall<T> op) throws CacheUnavailableException {
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

  /**
   * {@code op} run on each master: the one server of a standalone Redis, or a
   * connection of its own to every master of a cluster (INFO is per node).
   */
  <T> List<T> onEachMaster(String what, RedisCall<T> op) throws CacheUnavailableException {
    return call(what, true, c -> {
      List<T> out = new ArrayList<>();
      if (!(c instanceof RedisClusterClient)) {
        out.add(op.run(c));
        return out;
      }
      for (Map.Entry<String, ?> node : ((RedisClusterClient) c).getClusterNodes().entrySet()) {
        HostAndPort hp = HostAndPort.from(node.getKey());
        try (UnifiedJedis one = RedisClient.builder().hostAndPort(hp.getHost(), hp.getPort())
            .clientConfig(clientConfig(settings)).build()) {
          if (one.info("replication").contains("role:master")) {
            out.add(op.run(one));
          }
        }
      }
      return out;
    });
  }

  @Override
  public void close() {
    UnifiedJedis c;
    synchronized (this) {
      closed = true;
      c = client;
    }
    if (c != null) {
      c.close();
    }
  }
}
