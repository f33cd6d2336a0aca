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

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The {@code dfs.pocache.redis.*} settings, read through a key lookup (Hadoop's
 * Configuration::get in the Manager and client) and validated at once: every
 * error names the key. PoCacheConfigKeys, pocache-default.xml and docs/configuration.md list
 * the same keys.
 */
public final class RedisSettings {
  public static final String TOPOLOGY_KEY = "dfs.pocache.redis.topology";
  public static final String TOPOLOGY_DEFAULT = "standalone";
  public static final String HOSTS_KEY = "dfs.pocache.redis.hosts";
  public static final String HOSTS_DEFAULT = "127.0.0.1:6379";
  public static final String USER_KEY = "dfs.pocache.redis.user";
  public static final String USER_DEFAULT = "";
  public static final String PASSWORD_KEY = "dfs.pocache.redis.password";
  public static final String PASSWORD_DEFAULT = "";
  public static final String TLS_KEY = "dfs.pocache.redis.tls.enabled";
  public static final String TLS_DEFAULT = "false";
  public static final String TRUSTSTORE_KEY = "dfs.pocache.redis.tls.truststore";
  public static final String TRUSTSTORE_DEFAULT = "";
  public static final String TRUSTSTORE_PASSWORD_KEY = "dfs.pocache.redis.tls.truststore.password";
  public static final String TRUSTSTORE_PASSWORD_DEFAULT = "";
  public static final String CONNECT_TIMEOUT_KEY = "dfs.pocache.redis.connect.timeout.ms";
  public static final String CONNECT_TIMEOUT_DEFAULT = "1000";
  public static final String READ_TIMEOUT_KEY = "dfs.pocache.redis.read.timeout.ms";
  public static final String READ_TIMEOUT_DEFAULT = "1000";
  public static final String POOL_MAX_KEY = "dfs.pocache.redis.pool.max";
  public static final String POOL_MAX_DEFAULT = "16";
  public static final String RETRIES_KEY = "dfs.pocache.redis.retries";
  public static final String RETRIES_DEFAULT = "2";
  public static final String BACKOFF_KEY = "dfs.pocache.redis.retry.backoff.ms";
  public static final String BACKOFF_DEFAULT = "20";
  public static final String BREAKER_FAILURES_KEY = "dfs.pocache.redis.breaker.failures";
  public static final String BREAKER_FAILURES_DEFAULT = "3";
  public static final String BREAKER_OPEN_KEY = "dfs.pocache.redis.breaker.open.ms";
  public static final String BREAKER_OPEN_DEFAULT = "5000";
  public static final String PREFIX_KEY = "dfs.pocache.redis.key.prefix";
  public static final String PREFIX_DEFAULT = "pocache:";
  public static final String ASYNC_MAX_BYTES_KEY = "dfs.pocache.redis.async.max.bytes";
  public static final String ASYNC_MAX_BYTES_DEFAULT = "268435456";
  public static final String RESP_SET_KEY = "dfs.pocache.redis.resp.set.enabled";
  public static final String RESP_SET_DEFAULT = "true";
  public static final String RESP_GET_KEY = "dfs.pocache.redis.resp.get.enabled";
  public static final String RESP_GET_DEFAULT = "true";

  /** Standalone Redis or Redis Cluster. */
  public enum Topology { STANDALONE, CLUSTER }

  /** host:port. */
  public static final class Endpoint {
    public final String host;
    public final int port;

    Endpoint(String host, int port) {
      this.host = host;
      this.port = port;
    }

    @Override
    public String toString() {
      return host + ":" + port;
    }
  }

  public final Topology topology;
  public final List<Endpoint> hosts;
  public final String user;
  public final String password;
  public final boolean tls;
  public final File truststore;
  public final String truststorePassword;
  public final int connectTimeoutMillis;
  public final int readTimeoutMillis;
  public final int poolMax;
  public final int retries;
  public final int backoffMillis;
  public final int breakerFailures;
  public final int breakerOpenMillis;
  public final String prefix;
  public final long asyncMaxBytes;
  /** Parity SETs over the store's own RESP connections (standalone, no TLS; see RespSetConnections). */
  public final boolean respSet;
  /** Parity GETs over the store's own RESP connections (standalone, no TLS; see RespSetConnections). */
  public final boolean respGet;

  private RedisSettings(Function<String, String> get) {
    String t = get(get, TOPOLOGY_KEY, TOPOLOGY_DEFAULT).toLowerCase(Locale.ROOT);
    switch (t) {
      case "standalone":
        topology = Topology.STANDALONE;
        break;
      case "cluster":
        topology = Topology.CLUSTER;
        break;
      default:
        throw new IllegalArgumentException(TOPOLOGY_KEY + " must be standalone or cluster, got '" + t + "'");
    }
    hosts = parseHosts(get(get, HOSTS_KEY, HOSTS_DEFAULT));
    if (topology == Topology.STANDALONE && hosts.size() != 1) {
      throw new IllegalArgumentException(HOSTS_KEY + " must name exactly one host:port for a standalone Redis, got "
          + hosts.size());
    }
    user = get(get, USER_KEY, USER_DEFAULT);
    password = get(get, PASSWORD_KEY, PASSWORD_DEFAULT);
    if (!user.isEmpty() && password.isEmpty()) {
      throw new IllegalArgumentException(USER_KEY + " is set but " + PASSWORD_KEY + " is empty");
    }
    tls = bool(get, TLS_KEY, TLS_DEFAULT);
    String ts = get(get, TRUSTSTORE_KEY, TRUSTSTORE_DEFAULT);
    truststore = ts.isEmpty() ? null : new File(ts);
    truststorePassword = get(get, TRUSTSTORE_PASSWORD_KEY, TRUSTSTORE_PASSWORD_DEFAULT);
    if (tls && truststore == null) {
      throw new IllegalArgumentException(TLS_KEY + " is true but " + TRUSTSTORE_KEY
          + " is not set: give the trust store holding Redis's CA certificate");
    }
    if (tls && !truststore.canRead()) {
      throw new IllegalArgumentException(TRUSTSTORE_KEY + " = " + truststore + " is not a readable file");
    }
    connectTimeoutMillis = intIn(get, CONNECT_TIMEOUT_KEY, CONNECT_TIMEOUT_DEFAULT, 1, 600_000);
    readTimeoutMillis = intIn(get, READ_TIMEOUT_KEY, READ_TIMEOUT_DEFAULT, 1, 600_000);
    poolMax = intIn(get, POOL_MAX_KEY, POOL_MAX_DEFAULT, 1, 10_000);
    retries = intIn(get, RETRIES_KEY, RETRIES_DEFAULT, 0, 100);
    backoffMillis = intIn(get, BACKOFF_KEY, BACKOFF_DEFAULT, 0, 60_000);
    breakerFailures = intIn(get, BREAKER_FAILURES_KEY, BREAKER_FAILURES_DEFAULT, 1, 1000);
    breakerOpenMillis = intIn(get, BREAKER_OPEN_KEY, BREAKER_OPEN_DEFAULT, 1, 3_600_000);
    prefix = get(get, PREFIX_KEY, PREFIX_DEFAULT);
    try {
      ParityKey.checkPrefix(prefix);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PREFIX_KEY + ": " + e.getMessage(), e);
    }
    asyncMaxBytes = longIn(get, ASYNC_MAX_BYTES_KEY, ASYNC_MAX_BYTES_DEFAULT, 1 << 20, Long.MAX_VALUE);
    respSet = bool(get, RESP_SET_KEY, RESP_SET_DEFAULT);
    respGet = bool(get, RESP_GET_KEY, RESP_GET_DEFAULT);
  }

  /**
   * Reads and validates all settings.
   *
   * @throws IllegalArgumentException naming the first bad key
   */
  public static RedisSettings from(Function<String, String> get) {
    return new RedisSettings(get);
  }

  private static String get(Function<String, String> get, String key, String dflt) {
    String v = get.apply(key);
    return v == null ? dflt : v.trim();
  }

  private static boolean bool(Function<String, String> get, String key, String dflt) {
    String v = get(get, key, dflt).toLowerCase(Locale.ROOT);
    if (v.equals("true") || v.equals("false")) {
      return v.equals("true");
    }
    throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
  }

  private static int intIn(Function<String, String> get, String key, String dflt, int min, int max) {
    return (int) longIn(get, key, dflt, min, max);
  }

  private static long longIn(Function<String, String> get, String key, String dflt, long min, long max) {
    return ConfigNumbers.parse(key, get(get, key, dflt), min, max);
  }

  private static List<Endpoint> parseHosts(String v) {
    List<Endpoint> out = new ArrayList<>();
    for (String part : v.split(",")) {
      String p = part.trim();
      if (p.isEmpty()) {
        continue;
      }
      int colon = p.lastIndexOf(':');
      if (colon <= 0 || colon == p.length() - 1) {
        throw new IllegalArgumentException(HOSTS_KEY + " entries must be host:port, got '" + p + "'");
      }
      int port;
      try {
        port = Integer.parseInt(p.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(HOSTS_KEY + ": port of '" + p + "' is not a number");
      }
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException(HOSTS_KEY + ": port " + port + " of '" + p + "' is out of range 1-65535");
      }
      out.add(new Endpoint(p.substring(0, colon), port));
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(HOSTS_KEY + " names no host:port");
    }
    return Collections.unmodifiableList(out);
  }
}
