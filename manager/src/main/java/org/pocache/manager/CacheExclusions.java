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
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files POCache leaves alone ({@value PoCacheConfigKeys#EXCLUDE_DIRS_KEY}): those under
 * a directory with one of the configured names, by default MapReduce's {@code .staging}
 * (job.jar, job.xml, the splits every task reads once) and {@code done_intermediate}
 * (job history). They are not cached on write, not admitted when read, and the client
 * opens them without asking the Manager: a task's read of its 1 KB split description
 * would otherwise cost a lookup, and, once some reader had the file admitted, a race
 * against Redis in a JVM that has not yet connected to it. Both the client and the
 * Manager (which refuses such an admission from any client) ask.
 */
public final class CacheExclusions {
  private static final Logger LOG = LoggerFactory.getLogger(CacheExclusions.class);
  private static final AtomicBoolean WARNED_DEPRECATED = new AtomicBoolean();
  private final Set<String> dirs;

  private CacheExclusions(Set<String> dirs) {
    this.dirs = dirs;
  }

  /**
   * The exclusions {@code conf} sets; {@value PoCacheConfigKeys#DEPRECATED_WRITE_EXCLUDE_DIRS}
   * is read when the current key is not set.
   *
   * @throws IllegalArgumentException naming the key when it lists a path instead of a name
   */
  public static CacheExclusions from(Configuration conf) {
    String key = PoCacheConfigKeys.EXCLUDE_DIRS_KEY;
    if (conf.get(key) == null && conf.get(PoCacheConfigKeys.DEPRECATED_WRITE_EXCLUDE_DIRS) != null) {
      key = PoCacheConfigKeys.DEPRECATED_WRITE_EXCLUDE_DIRS;
      if (WARNED_DEPRECATED.compareAndSet(false, true)) {
        LOG.warn("{} is deprecated: set {} instead (it now also keeps reads of those files away from the cache)",
            key, PoCacheConfigKeys.EXCLUDE_DIRS_KEY);
      }
    }
    Set<String> dirs = new LinkedHashSet<>();
    for (String d : conf.getTrimmedStrings(key, PoCacheConfigKeys.EXCLUDE_DIRS_DEFAULT.split(","))) {
      if (d.contains("/")) {
        throw new IllegalArgumentException(key + " lists directory names, not paths; got '" + d + "'");
      }
      if (!d.isEmpty()) {
        dirs.add(d);
      }
    }
    return new CacheExclusions(Collections.unmodifiableSet(dirs));
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
