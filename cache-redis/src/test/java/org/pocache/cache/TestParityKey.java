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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.fail;

import java.util.Random;
import org.junit.Test;
import org.pocache.testkit.redis.RedisServerFixture;
import org.pocache.testkit.redis.RespClient;

/** Key layout, checked against a real redis-server's own slot computation. */
public class TestParityKey {

  @Test
  public void layoutAndParts() {
    ParityKey k = ParityKey.of("pocache:prod:", 16386, 3, 2, 7, 1);
    assertEquals("pocache:prod:{16386}:3:2:7:1", k.toString());
    assertEquals("{16386}", k.hashTag());
    assertNotEquals(k, ParityKey.of("pocache:prod:", 16386, 4, 2, 7, 1));
    assertEquals(k, ParityKey.of("pocache:prod:", 16386, 3, 2, 7, 1));
  }

  @Test
  public void crc16MatchesTheClusterSpecVector() {
    assertEquals(0x31C3, ParityKey.crc16("123456789".getBytes()));
  }

  @Test
  public void allKeysOfAFileShareTheSlotRedisComputes() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().config("cluster-enabled", "yes").start();
         RespClient c = redis.client()) {
      Random r = new Random(5);
      for (int i = 0; i < 50; i++) {
        long fileId = r.nextInt(Integer.MAX_VALUE);
        ParityKey a = ParityKey.of("pc:", fileId, 1, 0, 0, 0);
        ParityKey b = ParityKey.of("pc:", fileId, 9, r.nextInt(100), r.nextInt(64), 2);
        long redisSlot = (Long) c.call("CLUSTER", "KEYSLOT", a.toString());
        assertEquals(a.toString(), redisSlot, a.slot());
        assertEquals(redisSlot, (long) (Long) c.call("CLUSTER", "KEYSLOT", b.toString()));
        assertEquals(a.slot(), b.slot());
      }
    }
  }

  @Test
  public void keysRoundTripThroughRedis() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start(); RespClient c = redis.client()) {
      ParityKey k = ParityKey.of("p:", 42, 1, 0, 3, 0);
      byte[] value = new byte[1 << 16];
      new Random(3).nextBytes(value);
      assertEquals("OK", c.call("SET", k.bytes(), value));
      assertArrayEquals(value, (byte[]) c.call("GET", k.bytes()));
    }
  }

  @Test
  public void badPartsAreNamed() {
    expect("key prefix 'a{b' must not contain braces, whitespace or control characters (found '{' at 1)",
        "a{b", 1, 1);
    expect("key prefix 'a b' must not contain braces, whitespace or control characters (found ' ' at 1)",
        "a b", 1, 1);
    expect("file id must be >= 0, got -5", "p", -5, 1);
    expect("generation must be >= 0, got -1", "p", 5, -1);
  }

  private static void expect(String message, String prefix, long fileId, long generation) {
    try {
      ParityKey.of(prefix, fileId, generation, 0, 0, 0);
      fail();
    } catch (IllegalArgumentException e) {
      assertEquals(message, e.getMessage());
    }
  }
}
