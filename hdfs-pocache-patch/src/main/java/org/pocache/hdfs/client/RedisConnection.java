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
package org.pocache.hdfs.client;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.pocache.cache.ParityStore;
import org.pocache.cache.RedisParityStore;
import org.pocache.cache.RedisSettings;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client FileSystem's Redis connection, made when parity is first needed. A failed
 * connect is remembered for {@code dfs.pocache.redis.breaker.open.ms}: until then every
 * caller gets null at once (no parity; reads and writes go on as plain HDFS) instead of a
 * connect attempt each. Connecting holds a lock of its own, never the FileSystem's;
 * threads that arrive while another connects wait for its outcome.
 */
final class RedisConnection implements AutoCloseable {
  /** The client's lines are logged under its FileSystem's name, as operators look for them. */
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheFileSystem.class);
  private static final long WARN_EVERY_MILLIS = 60_000;
  private static final Map<String, Long> LAST_WARNING = new ConcurrentHashMap<>();

  private final Configuration conf;
  /** The FileSystem's count of operations left to plain HDFS. */
  private final AtomicLong fallbacks;
  private final AtomicLong connectFailures = new AtomicLong();
  private final Object lock = new Object();
  private volatile ParityStore store;
  /** Until when a failed connect stands (no new attempt before). @GuardedBy("lock") */
  private long retryAt;

  RedisConnection(Configuration conf, AtomicLong fallbacks) {
    this.conf = conf;
    this.fallbacks = fallbacks;
  }

  /** The connection, made now if need be; null while Redis cannot be reached (counted as a fallback). */
  ParityStore get() {
    ParityStore s = store;
    if (s != null) {
      return s;
    }
    synchronized (lock) {
      if (store != null) {
        return store;
      }
      if (System.currentTimeMillis() < retryAt) {
        fallbacks.incrementAndGet();
        return null;
      }
      RedisSettings settings = RedisSettings.from(PoCacheConfig.redisLookup(conf));
      try {
        store = RedisParityStore.connect(settings);
        if (connectFailures.get() > 0) {
          LOG.info("POCache reaches Redis at {} again", settings.hosts);
        }
        return store;
      } catch (RuntimeException | LinkageError e) { // whatever the connect throws, HDFS goes on without parity
        retryAt = System.currentTimeMillis() + settings.breakerOpenMillis;
        connectFailures.incrementAndGet();
        fallbacks.incrementAndGet();
        warnRateLimited("redis", "POCache cannot use Redis ({}); reads and writes use plain HDFS, and the client"
            + " tries again in {} ms ({}). {}", e.getMessage(), settings.breakerOpenMillis,
            PoCacheConfigKeys.REDIS_BREAKER_OPEN_KEY, advice(e));
        return null;
      }
    }
  }

  /** Connects that failed so far. */
  long connectFailures() {
    return connectFailures.get();
  }

  @Override
  public void close() {
    ParityStore s = store;
    if (s != null) {
      s.close();
    }
  }

  /** What an operator should check for a failed Redis connect. */
  static String advice(Throwable e) {
    String m = String.valueOf(e.getMessage());
    if (m.contains("WRONGPASS") || m.contains("NOAUTH") || m.contains("invalid password")
        || m.contains("without any password configured") || m.contains("invalid username-password")) {
      return "Redis refused the credentials: check " + PoCacheConfigKeys.REDIS_PASSWORD_KEY + " (and "
          + RedisSettings.USER_KEY + " for an ACL user) against the server's requirepass or ACL.";
    }
    if (e instanceof LinkageError) {
      return "A class POCache needs is missing or of another version on this classpath: install the drop-in jar"
          + " as the README says.";
    }
    return "Check that redis-server runs at " + PoCacheConfigKeys.REDIS_HOSTS_KEY + " and is reachable from this"
        + " host.";
  }

  /** Logs at WARN at most once a minute per kind in this JVM, else at DEBUG. */
  static void warnRateLimited(String kind, String format, Object... args) {
    long now = System.currentTimeMillis();
    Long last = LAST_WARNING.get(kind);
    if ((last == null || now - last >= WARN_EVERY_MILLIS)
        && (last == null ? LAST_WARNING.putIfAbsent(kind, now) == null : LAST_WARNING.replace(kind, last, now))) {
      LOG.warn(format, args);
    } else {
      LOG.debug(format, args);
    }
  }
}
