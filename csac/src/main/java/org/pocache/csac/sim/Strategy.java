package org.pocache.csac.sim;

import java.util.Set;
import org.pocache.csac.FileRef;

/** One caching strategy under simulation. */
public interface Strategy {
  /** The file was just written (write-time admission). */
  void onWrite(FileRef f);

  /** The estimated straggler list changed. */
  void onStragglers(Set<String> estimated);

  /**
   * A read of f while {@code actual} are the real stragglers.
   *
   * @return whether the read hit a straggler (a data block on a real straggler
   *     that the cache did not cover)
   */
  boolean read(FileRef f, Set<String> actual);

  /** Whether f's read was served with help from the cache (for the hit ratio). */
  boolean lastReadHit();

  /** Weight put in the cache, evicted, and prefetched so far. */
  long cachedWeight();

  long evictedWeight();

  long prefetchedWeight();

  String name();
}
