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

import java.util.List;
import java.util.TreeSet;

/** What INFO says about the Redis server(s) behind a store: its identity and its maxmemory. */
final class RedisServerInfo implements ParityStore.ServerInfo {
  private final RedisConnector redis;

  RedisServerInfo(RedisConnector redis) {
    this.redis = redis;
  }

  @Override
  public String runId() throws ParityStoreException {
    List<String> ids = redis.onEachMaster("INFO server", c -> parseInfoField(c.info("server"), "run_id"));
    return String.join(",", new TreeSet<>(ids));
  }

  @Override
  public long maxMemory() throws ParityStoreException {
    long sum = 0;
    for (long m : redis.onEachMaster("INFO memory", c -> parseMaxMemory(c.info("memory")))) {
      sum += m;
    }
    return sum;
  }

  static String parseInfoField(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(name + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return "";
  }

  static long parseMaxMemory(String info) {
    String v = parseInfoField(info, "maxmemory");
    return v.isEmpty() ? 0 : Long.parseLong(v);
  }
}
