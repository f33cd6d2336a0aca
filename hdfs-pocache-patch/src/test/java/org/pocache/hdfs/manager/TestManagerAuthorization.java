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
package org.pocache.hdfs.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.WriteAdmission;

/**
 * What an ordinary user, bob, tries against the Manager's RPCs, each as he would:
 * heartbeats for DataNodes he is not, listing other users' files, ending a
 * reservation that is not his, and reserving the whole cache with admitWrites.
 */
public class TestManagerAuthorization {
  private static ManagerCluster cluster;
  private static ManagerClient owner;

  @BeforeClass
  public static void start() throws Exception {
    Map<String, String> conf = new HashMap<>();
    conf.put(PoCacheConfigKeys.MANAGER_USER_SHARE_KEY, "0.05"); // 64 MiB cache: 3.2 MiB per user
    cluster = ManagerCluster.start(4, conf);
    owner = cluster.client();
    GenericTestUtils.waitFor(() -> cluster.manager().cache().ready(), 50, 10_000);
    FileSystem fs = cluster.hdfs.fs();
    fs.mkdirs(new Path("/bob"));
    fs.setOwner(new Path("/bob"), "bob", "bob");
    fs.mkdirs(new Path("/alice"));
    fs.setPermission(new Path("/alice"), new FsPermission((short) 0777));
  }

  @AfterClass
  public static void stop() throws Exception {
    if (owner != null) {
      owner.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  public void heartbeatsComeOnlyFromRegisteredDataNodes() throws Exception {
    String dn = cluster.hdfs.dataNode(1).getDatanodeId().getXferAddr();
    try {
      as("bob", m -> {
        m.heartbeat(dn, 1 << 20, 60_000, 1);
        return null;
      });
      fail("bob sent a heartbeat for " + dn);
    } catch (AccessControlException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("user bob may not send DataNode heartbeats"));
    }
    // The DataNodes' own user, naming a DataNode that does not exist.
    GenericTestUtils.waitFor(() -> {
      try {
        owner.heartbeat("127.0.0.1:1", 1 << 20, 1000, 1);
        return false;
      } catch (IOException e) {
        return e.getMessage().contains("is not a DataNode the NameNode has registered");
      }
    }, 50, 10_000);
    assertFalse(owner.getStragglers().dataNodes.contains("127.0.0.1:1"));
    owner.heartbeat(dn, 1 << 20, 10, 1); // the real one is taken
  }

  @Test
  public void bobCannotListOthersFiles() throws Exception {
    try {
      as("bob", m -> m.listCached("/", 100));
      fail("bob listed the cache");
    } catch (AccessControlException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("user bob may not list cached files"));
    }
    owner.listCached("/", 100); // the Manager's user (an operator) may
  }

  @Test
  public void bobCannotEndAlicesReservation() throws Exception {
    Path p = new Path("/alice/report");
    FSDataOutputStream out = asFs("alice").create(p);
    WriteAdmission a = as("alice", m -> m.admitWrite(p.toString(), 0));
    assertTrue(a.getReason(), a.hasReservation());
    long id = a.getReservation().getId();
    // Not guessable from what the Manager lists: not the generation, not the clock.
    assertTrue(id != a.getReservation().getParity().getGeneration());
    for (Call<Object> steal : List.<Call<Object>>of(
        m -> {
          m.abort(id, "bob wants it gone");
          return null;
        },
        m -> {
          m.commit(id, a.getReservation().getParity().getFileId(), 0, 0, new byte[0]);
          return null;
        })) {
      try {
        as("bob", steal);
        fail("bob ended alice's reservation");
      } catch (AccessControlException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("user bob may not end reservation " + id
            + ": it belongs to alice"));
      }
    }
    out.close();
    as("alice", m -> {
      m.abort(id, "done");
      return null;
    });
  }

  @Test
  public void oneUserCannotReserveTheWholeCache() throws Exception {
    FileSystem bobFs = asFs("bob");
    List<FSDataOutputStream> open = new ArrayList<>();
    int admitted = 0;
    String refusal = null;
    for (int i = 0; i < 20; i++) {
      Path p = new Path("/bob/hog-" + i);
      open.add(bobFs.create(p, true, 4096, (short) 1, ManagerCluster.BLOCK));
      WriteAdmission a = as("bob", m -> m.admitWrite(p.toString(), 0));
      if (a.hasReservation()) {
        admitted++;
      } else {
        refusal = a.getReason();
      }
    }
    // One stripe of k = 4 blocks of 256 KiB reserves 256 KiB; 3.2 MiB is bob's share.
    assertEquals(12, admitted);
    assertTrue(refusal, refusal.contains("user bob already holds") && refusal.contains(
        PoCacheConfigKeys.MANAGER_USER_SHARE_KEY));
    Path mine = new Path("/alice/still-cached");
    try (FSDataOutputStream out = asFs("alice").create(mine, true, 4096, (short) 1, ManagerCluster.BLOCK)) {
      WriteAdmission a = as("alice", m -> m.admitWrite(mine.toString(), 0));
      assertTrue(a.getReason(), a.hasReservation());
    }
    for (FSDataOutputStream o : open) {
      o.close();
    }
  }

  /**
   * The Manager takes a user's READ permission as the NameNode granted it for at most
   * dfs.pocache.manager.lookup.cache.ms (1 s by default): taken away, it stops that
   * user's lookups within that time, and a user the NameNode never granted it is
   * refused at once, whatever another user was granted.
   */
  @Test
  public void aReadPermissionTakenAwayEndsLookupsWithinTheLookupCacheTime() throws Exception {
    Path p = new Path("/alice/shared");
    FileSystem aliceFs = asFs("alice");
    try (FSDataOutputStream out = aliceFs.create(p)) {
      out.write(new byte[1000]);
    }
    aliceFs.setPermission(p, new FsPermission((short) 0644));
    as("bob", m -> m.getDescriptor(p.toString())); // granted, and remembered for bob
    aliceFs.setPermission(p, new FsPermission((short) 0600));
    try {
      as("carol", m -> m.getDescriptor(p.toString()));
      fail("carol looked up a file she may not read");
    } catch (AccessControlException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("carol"));
    }
    GenericTestUtils.waitFor(() -> {
      try {
        as("bob", m -> m.getDescriptor(p.toString()));
        return false;
      } catch (AccessControlException e) {
        return true;
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }, 50, 10_000);
  }

  private interface Call<T> {
    T run(ManagerClient m) throws IOException;
  }

  private static FileSystem asFs(String user) throws Exception {
    return UserGroupInformation.createRemoteUser(user).doAs(
        (PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(cluster.hdfs.fs().getUri(),
            cluster.hdfs.conf()));
  }

  private static <T> T as(String user, Call<T> call) throws Exception {
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    try {
      return ugi.doAs((PrivilegedExceptionAction<T>) () -> {
        try (ManagerClient m = cluster.client()) {
          return call.run(m);
        }
      });
    } catch (java.lang.reflect.UndeclaredThrowableException e) {
      throw (Exception) e.getCause();
    }
  }
}
