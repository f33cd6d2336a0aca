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
package org.pocache.testkit.redis;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import org.junit.Test;

/** The Redis fixture starts a real server, restarts it, and leaves nothing behind. */
public class TestRedisServerFixture {

  @Test
  public void startsServesStopsAndLeavesNoProcessOrPort() throws Exception {
    long pid;
    int port;
    try (RedisServerFixture redis = RedisServerFixture.builder().start()) {
      pid = redis.pid();
      port = redis.port();
      assertTrue(pid > 0);
      assertTrue(RedisServerFixture.isListening(port));
      try (RespClient c = redis.client()) {
        assertEquals("OK", c.call("SET", "k", "v1"));
        assertArrayEquals("v1".getBytes(StandardCharsets.UTF_8), (byte[]) c.call("GET", "k"));
      }
      // A crash loses the data set (persistence is off) but the port stays the same.
      redis.stop();
      assertFalse(redis.isRunning());
      assertFalse(RedisServerFixture.isListening(port));
      redis.start();
      assertEquals(port, redis.port());
      try (RespClient c = redis.client()) {
        assertNull(c.call("GET", "k"));
      }
    }
    assertFalse("redis-server " + pid + " outlived close()", ProcessHandle.of(pid).isPresent());
    assertFalse("port " + port + " still open after close()", RedisServerFixture.isListening(port));
  }

  @Test
  public void passwordIsRequired() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().password("pocache-test-pw").start()) {
      try (RespClient anonymous = new RespClient(redis.host(), redis.port(), 5_000)) {
        anonymous.call("GET", "k");
        fail("GET without AUTH must be refused");
      } catch (RespClient.RedisErrorReply expected) {
        assertTrue(expected.getMessage(), expected.getMessage().startsWith("NOAUTH"));
      }
      try (RespClient c = redis.client()) {
        assertEquals("PONG", c.call("PING"));
      }
    }
  }

  @Test
  public void embeddedBinaryIsAWorkingFallback() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().embeddedBinary().start()) {
      assertEquals(RedisBinary.Source.EMBEDDED, redis.binary().source());
      assertTrue(redis.binary().executable().getAbsolutePath(),
          redis.binary().executable().getAbsolutePath().contains("target"));
      assertTrue(redis.version(), redis.version().startsWith("6."));
      try (RespClient c = redis.client()) {
        assertEquals(1L, c.call("INCR", "n"));
      }
    }
  }
}
