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
