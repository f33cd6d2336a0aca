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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

public class TestRecentOpens {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  private static FileInfo file(long id, boolean complete) {
    return new FileInfo(id, "/f" + id, 100, 1, 64, 0, 0, complete, Collections.singletonList("dn:1"), 42);
  }

  @Test
  public void answersOnlyTheUserThatOpenedThePathAndOnlyWithinItsTime() {
    RecentOpens r = new RecentOpens(1000);
    FileInfo f = file(1, true);
    r.put("alice@EXAMPLE.COM", "/f1", f, 0);
    assertSame(f, r.get("alice@EXAMPLE.COM", "/f1", 999 * MS));
    assertNull("another user asks the NameNode", r.get("bob@EXAMPLE.COM", "/f1", 1));
    assertNull("another path", r.get("alice@EXAMPLE.COM", "/f2", 1));
    assertNull("past its time", r.get("alice@EXAMPLE.COM", "/f1", 1000 * MS));
    assertNull("a call from inside the Manager has no user", r.get(null, "/f1", 1));
  }

  @Test
  public void remembersNeitherFilesBeingWrittenNorAnythingWhenOff() {
    RecentOpens r = new RecentOpens(1000);
    r.put("alice", "/f1", file(1, false), 0);
    assertNull(r.get("alice", "/f1", 1));
    RecentOpens off = new RecentOpens(0);
    off.put("alice", "/f1", file(1, true), 0);
    assertNull(off.get("alice", "/f1", 1));
    assertEquals(0, off.size());
  }

  @Test
  public void aNewerOpenReplacesTheOlderForItsUserOnly() {
    RecentOpens r = new RecentOpens(1000);
    FileInfo older = file(1, true);
    r.put("alice", "/f1", older, 0);
    r.put("bob", "/f1", older, 0);
    FileInfo newer = file(2, true);
    r.put("alice", "/f1", newer, 10 * MS);
    assertSame(newer, r.get("alice", "/f1", 20 * MS));
    assertSame(older, r.get("bob", "/f1", 20 * MS));
  }

  @Test
  public void aPathKeepsAtMostAFewUsersTheOldestGivingWay() {
    RecentOpens r = new RecentOpens(60_000);
    for (int u = 0; u <= RecentOpens.MAX_USERS_PER_PATH; u++) {
      r.put("user" + u, "/f1", file(1, true), u * MS);
    }
    assertNull("the first user gave way", r.get("user0", "/f1", 100 * MS));
    for (int u = 1; u <= RecentOpens.MAX_USERS_PER_PATH; u++) {
      assertEquals(1, r.get("user" + u, "/f1", 100 * MS).id);
    }
  }
}
