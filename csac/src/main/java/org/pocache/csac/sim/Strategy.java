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
