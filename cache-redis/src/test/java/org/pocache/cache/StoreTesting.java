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
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/** Settings and payloads for store tests. */
final class StoreTesting {
  private StoreTesting() {
  }

  static Map<String, String> settings(String hosts) {
    Map<String, String> m = new HashMap<>();
    m.put(RedisSettings.HOSTS_KEY, hosts);
    m.put(RedisSettings.CONNECT_TIMEOUT_KEY, "500");
    m.put(RedisSettings.READ_TIMEOUT_KEY, "1000");
    m.put(RedisSettings.BREAKER_OPEN_KEY, "500");
    m.put(RedisSettings.RETRIES_KEY, "1");
    m.put(RedisSettings.PREFIX_KEY, "test:");
    return m;
  }

  static RedisParityStore connect(Map<String, String> m) {
    return RedisParityStore.connect(RedisSettings.from(m::get));
  }

  static ByteBuffer payload(int len, long seed) {
    byte[] b = new byte[len];
    new Random(seed).nextBytes(b);
    return ByteBuffer.wrap(b);
  }

  static int[] crcs(int k) {
    int[] c = new int[k];
    for (int i = 0; i < k; i++) {
      c[i] = 1000 + i;
    }
    return c;
  }

  static byte[] bytes(ParityValue v) {
    ByteBuffer p = v.payload();
    byte[] out = new byte[p.remaining()];
    p.get(out);
    return out;
  }
}
