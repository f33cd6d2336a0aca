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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.FreePorts;
import org.pocache.testkit.TestDirs;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * A Kerberized MiniDFSCluster (MiniKdc) with the Manager in the NameNode, configured
 * as an operator would (no POCache security key set): a user with a ticket gets
 * descriptors and proactive reads; a caller without credentials is refused; a task
 * holding only an HDFS delegation token still gets descriptors.
 */
public class TestKerberizedManager {
  private static final long BLOCK = 1 << 20;
  private static MiniKdc kdc;
  private static File keytab;
  private static String realm;
  private static RedisServerFixture redis;
  private static MiniHdfs hdfs;
  private static InetSocketAddress managerAddress;

  @BeforeClass
  public static void start() throws Exception {
    File dir = TestDirs.fresh("kdc");
    kdc = new MiniKdc(MiniKdc.createConf(), dir);
    kdc.start();
    realm = kdc.getRealm();
    keytab = new File(dir, "test.keytab");
    kdc.createPrincipal(keytab, "hdfs/localhost", "HTTP/localhost", "alice");
    redis = RedisServerFixture.builder().start();
    int port = FreePorts.pick();
    managerAddress = new InetSocketAddress("127.0.0.1", port);
    Configuration secure = new Configuration();
    secure.set("hadoop.security.authentication", "kerberos");
    UserGroupInformation.setConfiguration(secure);
    UserGroupInformation.loginUserFromKeytab("hdfs/localhost@" + realm, keytab.getAbsolutePath());
    hdfs = MiniHdfs.builder().dataNodes(4)
        .set("hadoop.security.authentication", "kerberos")
        .set("dfs.namenode.kerberos.principal", "hdfs/localhost@" + realm)
        .set("dfs.namenode.keytab.file", keytab.getAbsolutePath())
        .set("dfs.datanode.kerberos.principal", "hdfs/localhost@" + realm)
        .set("dfs.datanode.keytab.file", keytab.getAbsolutePath())
        .set("dfs.web.authentication.kerberos.principal", "HTTP/localhost@" + realm)
        .set("dfs.web.authentication.kerberos.keytab", keytab.getAbsolutePath())
        .set("dfs.block.access.token.enable", "true")
        .set("ignore.secure.ports.for.testing", "true")
        .set(PoCacheConfigKeys.ENABLED_KEY, "true")
        .set("dfs.namenode.plugins", PoCacheNameNodePlugin.class.getName())
        .set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:" + port)
        .set(PoCacheConfigKeys.MANAGER_TICK_KEY, "100")
        .set(PoCacheConfigKeys.REDIS_HOSTS_KEY, redis.host() + ":" + redis.port())
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(256 << 10))
        .start();
    hdfs.fs().mkdirs(new Path("/alice"));
    hdfs.fs().setOwner(new Path("/alice"), "alice", "alice");
  }

  @AfterClass
  public static void stop() throws Exception {
    if (hdfs != null) {
      hdfs.close();
    }
    if (redis != null) {
      redis.close();
    }
    if (kdc != null) {
      kdc.stop();
    }
    UserGroupInformation.reset();
  }

  private static Configuration clientConf() {
    Configuration c = new Configuration(hdfs.conf());
    c.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    return c;
  }

  @Test
  public void ticketsAndDelegationTokensGetDescriptorsAndNothingElseDoes() throws Exception {
    UserGroupInformation alice = UserGroupInformation.loginUserFromKeytabAndReturnUGI("alice@" + realm,
        keytab.getAbsolutePath());
    Path p = new Path("/alice/data");
    alice.doAs((PrivilegedExceptionAction<Void>) () -> {
      try (FileSystem fs = FileSystem.newInstance(hdfs.fs().getUri(), clientConf());
           FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, BLOCK)) {
        byte[] b = new byte[(int) (4 * BLOCK)];
        DataPattern.fill(5, 0, b, 0, b.length);
        out.write(b);
      }
      return null;
    });
    // Cached on write: alice's lookups authenticate with her ticket.
    GenericTestUtils.waitFor(() -> {
      try {
        return alice.doAs((PrivilegedExceptionAction<Boolean>) () -> {
          try (ManagerClient m = new ManagerClient(managerAddress, clientConf(), 5000)) {
            return m.getDescriptor(p.toString()).hasParity();
          }
        });
      } catch (Exception e) {
        return false;
      }
    }, 100, 20_000);
    alice.doAs((PrivilegedExceptionAction<Void>) () -> {
      try (FileSystem fs = FileSystem.newInstance(hdfs.fs().getUri(), clientConf());
           FSDataInputStream in = fs.open(p)) {
        assertTrue("not a POCache stream: the lookup failed", in.getWrappedStream() instanceof PoCacheInputStream);
        byte[] b = new byte[(int) (4 * BLOCK)];
        in.readFully(0, b);
        assertEquals(-1, DataPattern.firstMismatch(5, 0, b, 0, b.length));
      }
      return null;
    });

    // No ticket, no token: refused by SASL before any Manager code runs.
    UserGroupInformation mallory = UserGroupInformation.createRemoteUser("mallory");
    try {
      mallory.doAs((PrivilegedExceptionAction<Object>) () -> {
        try (ManagerClient m = new ManagerClient(managerAddress, clientConf(), 5000)) {
          return m.getDescriptor(p.toString());
        }
      });
      fail("a caller without credentials was served");
    } catch (IOException e) {
      assertTrue("a caller without credentials must be refused by authentication, not fail otherwise: " + e,
          refusedByAuthentication(e));
    }

    // A task: only the HDFS delegation token its job collected for alice.
    Token<?> token = alice.doAs((PrivilegedExceptionAction<Token<?>>) () -> {
      try (FileSystem fs = FileSystem.newInstance(hdfs.fs().getUri(), hdfs.conf())) {
        return fs.getDelegationToken("yarn");
      }
    });
    UserGroupInformation task = UserGroupInformation.createRemoteUser("alice");
    task.addToken(token);
    boolean served = task.doAs((PrivilegedExceptionAction<Boolean>) () -> {
      try (ManagerClient m = new ManagerClient(managerAddress, clientConf(), 5000)) {
        return m.getDescriptor(p.toString()).hasParity();
      }
    });
    assertTrue("a task with alice's delegation token got no descriptor", served);
  }

  /** Whether {@code e} or one of its causes is SASL's or Hadoop's refusal to authenticate the caller. */
  private static boolean refusedByAuthentication(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof javax.security.sasl.SaslException
          || t instanceof org.apache.hadoop.security.AccessControlException
          || String.valueOf(t.getMessage()).contains("cannot authenticate via")) {
        return true;
      }
    }
    return false;
  }
}
