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

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** The Manager's index in Redis: one hash, {@code <prefix>manager-index}, field = file id. */
final class RedisIndexStore implements ParityStore.ManagerIndexStore {
  private final RedisConnector redis;
  private final byte[] key;

  RedisIndexStore(RedisConnector redis) {
    this.redis = redis;
    this.key = (redis.settings().prefix + "manager-index").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] field(long fileId) {
    return Long.toString(fileId).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void put(long fileId, byte[] entry) throws ParityStoreException {
    redis.call("HSET index", false, c -> c.hset(key, field(fileId), entry));
  }

  @Override
  public void remove(long fileId) throws ParityStoreException {
    redis.call("HDEL index", true, c -> c.hdel(key, field(fileId)));
  }

  @Override
  public Map<Long, byte[]> load() throws ParityStoreException {
    Map<byte[], byte[]> raw = redis.call("HGETALL index", true, c -> c.hgetAll(key));
    Map<Long, byte[]> out = new HashMap<>();
    for (Map.Entry<byte[], byte[]> e : raw.entrySet()) {
      String f = new String(e.getKey(), StandardCharsets.UTF_8);
      try {
        out.put(Long.parseLong(f), e.getValue());
      } catch (NumberFormatException bad) {
        redis.call("HDEL index", true, c -> c.hdel(key, e.getKey()));
      }
    }
    return out;
  }

  @Override
  public void clear() throws ParityStoreException {
    redis.call("DEL index", true, c -> c.del(key));
  }
}
