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

import java.util.function.Function;
import org.pocache.cache.CacheUnavailableException;
import org.pocache.cache.ParityStore;
import org.pocache.cache.RedisSettings;

/**
 * The Manager's connection to the parity store: made by the housekeeping thread on
 * its first tick (and retried each tick until it succeeds), used by every
 * collaborator that changes Redis.
 */
final class ManagerStore implements AutoCloseable {
  private final RedisSettings settings;
  private final Function<RedisSettings, ParityStore> connector;
  private volatile ParityStore store;

  ManagerStore(RedisSettings settings, Function<RedisSettings, ParityStore> connector) {
    this.settings = settings;
    this.connector = connector;
  }

  RedisSettings settings() {
    return settings;
  }

  boolean isConnected() {
    return store != null;
  }

  /**
   * The store, connected now if it was not yet (housekeeping thread).
   *
   * @throws IllegalArgumentException naming the key if the settings are unusable
   */
  ParityStore connect() {
    ParityStore s = store;
    if (s == null) {
      s = connector.apply(settings);
      store = s;
    }
    return s;
  }

  /** The store, or a {@link CacheUnavailableException} before the first connection. */
  ParityStore get() throws CacheUnavailableException {
    ParityStore s = store;
    if (s == null) {
      throw new CacheUnavailableException("not connected to Redis");
    }
    return s;
  }

  @Override
  public void close() {
    ParityStore s = store;
    store = null;
    if (s != null) {
      s.close();
    }
  }
}
