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

import java.util.function.Supplier;
import org.pocache.cache.ParityStore;
import org.pocache.cache.ParityStoreException;
import org.pocache.coder.ErasureCoder;

/**
 * The parity store and the erasure coder of a cached file's stream, fetched when parity
 * is first used, not when the file is opened: a task that reads its split from healthy
 * DataNodes never needs either, and connecting to Redis and loading the coder cost a
 * fresh task JVM about 80 ms (several hundred classes).
 */
final class ParityAccess {
  private final Supplier<ParityStore> stores;
  private final Supplier<ErasureCoder> coders;

  /**
   * @param stores the FileSystem's store, connected on first call; null when Redis cannot be reached
   * @param coders the coder for the file's (k, m), created on first call
   */
  ParityAccess(Supplier<ParityStore> stores, Supplier<ErasureCoder> coders) {
    this.stores = stores;
    this.coders = coders;
  }

  /** For tests and callers that already hold both. */
  static ParityAccess of(ParityStore store, ErasureCoder coder) {
    return new ParityAccess(() -> store, () -> coder);
  }

  ParityStore store() throws ParityStoreException {
    ParityStore s = stores.get();
    if (s == null) {
      throw new ParityStoreException("Redis cannot be reached");
    }
    return s;
  }

  ErasureCoder coder() {
    return coders.get();
  }
}
