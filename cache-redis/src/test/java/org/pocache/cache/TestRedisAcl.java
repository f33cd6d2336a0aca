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
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import org.junit.Test;
import org.pocache.testkit.redis.RedisServerFixture;
import org.pocache.testkit.redis.RespClient;

/**
 * The least-privilege Redis ACL users docs/security.md documents, for the prefix "test:":
 * a client can store, read and delete parity but not reconfigure or flush Redis; the
 * Manager can also keep its index and read what it needs of the server's state.
 */
public class TestRedisAcl {
  // The lines of docs/security.md, with the key pattern of this test's prefix.
  private static final String CLIENT = "~test:* -@all +get +set +del +getrange +strlen +exists +ping +auth"
      + " +client|setname +hello";
  private static final String MANAGER = "~test:* -@all +@read +@write +@keyspace +ping +auth +info +config|get"
      + " +client|setname +hello";

  private static void setUser(RespClient admin, String name, String password, String rules) throws Exception {
    String[] parts = ("ACL SETUSER " + name + " on >" + password + " " + rules).split(" ");
    assertEquals("OK", admin.call((Object[]) parts));
  }

  private static RedisParityStore connectAs(RedisServerFixture redis, String user, String password) {
    Map<String, String> m = StoreTesting.settings(redis.host() + ":" + redis.port());
    m.put(RedisSettings.USER_KEY, user);
    m.put(RedisSettings.PASSWORD_KEY, password);
    return StoreTesting.connect(m);
  }

  @Test
  public void theDocumentedUsersCanDoTheirJobAndNoMore() throws Exception {
    try (RedisServerFixture redis = RedisServerFixture.builder().start(); RespClient admin = redis.client()) {
      setUser(admin, "pocache-client", "client-pw", CLIENT);
      setUser(admin, "pocache-manager", "manager-pw", MANAGER);

      try (RedisParityStore client = connectAs(redis, "pocache-client", "client-pw")) {
        ParityKey k = client.key(7, 1, 0, 0, 0);
        ByteBuffer p = StoreTesting.payload(300_000, 1);
        client.put(k, StoreTesting.crcs(4), p);
        assertArrayEquals(p.array(), StoreTesting.bytes(client.get(k)));
        ParityKey async = client.key(7, 1, 0, 1, 0);
        byte[] room = new byte[ParityValue.headerBytes(4) + 70_000];
        client.putInPlaceAsync(async, StoreTesting.crcs(4), room).get(); // the RESP SET connections
        assertEquals(70_000, client.getAll(Arrays.asList(k, async))[1].payloadLength());
        assertTrue(client.exists(k));
        client.delete(k);
        assertNull(client.get(k));
      }
      try (RespClient bob = redis.client()) {
        bob.call("AUTH", "pocache-client", "client-pw");
        for (Object[] cmd : new Object[][] {{"CONFIG", "SET", "maxmemory", "1mb"}, {"FLUSHALL"},
            {"SET", "other:key", "x"}, {"KEYS", "*"}}) {
          try {
            bob.call(cmd);
            fail("the client user could run " + Arrays.toString(cmd));
          } catch (RespClient.RedisErrorReply e) {
            assertTrue(e.getMessage(), e.getMessage().contains("NOPERM"));
          }
        }
      }

      try (RedisParityStore manager = connectAs(redis, "pocache-manager", "manager-pw")) {
        manager.index().put(9, new byte[] {1, 2, 3});
        assertEquals(Collections.singleton(9L), manager.index().load().keySet());
        manager.index().remove(9);
        assertTrue(manager.server().runId().length() > 0);
        manager.server().maxMemory();
        ParityKey k = manager.key(9, 1, 0, 0, 0);
        manager.put(k, StoreTesting.crcs(4), StoreTesting.payload(1000, 2));
        assertEquals(1, manager.deleteFile(9, 1, 1, 1, 1));
      }
    }
  }
}
