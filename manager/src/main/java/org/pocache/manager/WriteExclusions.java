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
package org.pocache.manager;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * Which writes are not cached on write ({@value PoCacheConfigKeys#WRITE_EXCLUDE_DIRS_KEY}):
 * files under a directory with one of the configured names (by default MapReduce's
 * {@code .staging}). Both the client (which then skips the Manager) and the Manager
 * (which refuses such an admission from any client) ask.
 */
public final class WriteExclusions {
  private final Set<String> dirs;

  private WriteExclusions(Set<String> dirs) {
    this.dirs = dirs;
  }

  public static WriteExclusions from(Configuration conf) {
    Set<String> dirs = new LinkedHashSet<>();
    for (String d : conf.getTrimmedStrings(PoCacheConfigKeys.WRITE_EXCLUDE_DIRS_KEY,
        PoCacheConfigKeys.WRITE_EXCLUDE_DIRS_DEFAULT.split(","))) {
      if (d.contains("/")) {
        throw new IllegalArgumentException(PoCacheConfigKeys.WRITE_EXCLUDE_DIRS_KEY
            + " lists directory names, not paths; got '" + d + "'");
      }
      if (!d.isEmpty()) {
        dirs.add(d);
      }
    }
    return new WriteExclusions(Collections.unmodifiableSet(dirs));
  }

  /** The directory name that excludes {@code path} (an absolute HDFS path), or null. */
  public String excludedBy(String path) {
    if (dirs.isEmpty() || path == null) {
      return null;
    }
    int end = path.lastIndexOf('/'); // the file's own name does not count
    int start = 0;
    while (start < end) {
      int slash = path.indexOf('/', start);
      if (slash < 0 || slash > end) {
        slash = end;
      }
      if (slash > start && dirs.contains(path.substring(start, slash))) {
        return path.substring(start, slash);
      }
      start = slash + 1;
    }
    return null;
  }
}
