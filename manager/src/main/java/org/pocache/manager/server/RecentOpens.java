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

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What the NameNode said of a complete file when it let a user open it, remembered
 * for a short time ({@code dfs.pocache.manager.lookup.cache.ms}) by user and path, so
 * that a hot file's lookups do not each cost the NameNode a READ permission check and
 * a block listing: the Manager only asks whether the path is still the same file
 * with the same length and modification time ({@link Namespace#unchanged}). Within
 * that time a user keeps the READ permission it had a moment ago, as an HDFS block
 * token lets a reader go on reading: one taken away shows at the latest when the
 * entry ends. Entries are per user (the RPC caller's full name), so one user's
 * lookups never answer another's.
 */
final class RecentOpens {
  /** Paths kept at most; past it an arbitrary tenth goes (reached only with more hot files than this). */
  static final int MAX_PATHS = 65_536;
  /** Users remembered per path; the one seen longest ago gives way. */
  static final int MAX_USERS_PER_PATH = 8;

  /** One user's open of a path. */
  private static final class Seen {
    final String user;
    final FileInfo file;
    final long at;

    Seen(String user, FileInfo file, long at) {
      this.user = user;
      this.file = file;
      this.at = at;
    }
  }

  private final long ttlNanos;
  /** By path: the users seen opening it, each array replaced whole, never changed. */
  private final ConcurrentHashMap<String, Seen[]> byPath = new ConcurrentHashMap<>();

  /** @param ttlMillis how long an entry answers; 0 remembers nothing */
  RecentOpens(long ttlMillis) {
    this.ttlNanos = TimeUnit.MILLISECONDS.toNanos(ttlMillis);
  }

  /** The file {@code user} opened as {@code path} less than the time to live before {@code nowNanos}, or null. */
  FileInfo get(String user, String path, long nowNanos) {
    if (ttlNanos == 0 || user == null) {
      return null;
    }
    Seen[] seen = byPath.get(path);
    if (seen != null) {
      for (Seen x : seen) {
        if (x.user.equals(user)) {
          return nowNanos - x.at < ttlNanos ? x.file : null;
        }
      }
    }
    return null;
  }

  /** Remembers that {@code user} was allowed to open {@code path}, a complete file, as {@code file}. */
  void put(String user, String path, FileInfo file, long nowNanos) {
    if (ttlNanos == 0 || user == null || !file.complete) {
      return;
    }
    if (byPath.size() >= MAX_PATHS) {
      Iterator<String> it = byPath.keySet().iterator();
      for (int n = MAX_PATHS / 10; n > 0 && it.hasNext(); n--) {
        it.next();
        it.remove();
      }
    }
    Seen now = new Seen(user, file, nowNanos);
    byPath.compute(path, (p, old) -> {
      if (old == null) {
        return new Seen[] {now};
      }
      int oldest = 0;
      for (int x = 0; x < old.length; x++) {
        if (old[x].user.equals(user)) {
          Seen[] out = old.clone();
          out[x] = now;
          return out;
        }
        if (old[x].at - old[oldest].at < 0) {
          oldest = x;
        }
      }
      if (old.length >= MAX_USERS_PER_PATH) {
        Seen[] out = old.clone();
        out[oldest] = now;
        return out;
      }
      Seen[] out = java.util.Arrays.copyOf(old, old.length + 1);
      out[old.length] = now;
      return out;
    });
  }

  /** Paths remembered now. */
  int size() {
    return byPath.size();
  }
}
