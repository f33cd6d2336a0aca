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
package org.pocache.csac.policy;

/**
 * Read counts of files, cached or not, for frequency-based eviction: a popular file
 * evicted and admitted again comes back with its count, not as a newcomer. At most
 * {@code historyFiles} files are counted; past that every count is halved and the
 * zeros forgotten (as TinyLFU ages its sketch). Amortized O(1) per read.
 */
final class AccessCounts {
  private final LongLongMap counts = new LongLongMap();
  private final int historyFiles;

  /** @param historyFiles how many files' counts to keep (at least 1) */
  AccessCounts(int historyFiles) {
    if (historyFiles < 1) {
      throw new IllegalArgumentException("eviction history must keep at least 1 file, got " + historyFiles);
    }
    this.historyFiles = historyFiles;
  }

  /** Counts a read of {@code fileId}; returns its count now. */
  long record(long fileId) {
    long c = counts.get(fileId, 0) + 1;
    counts.put(fileId, c, 0);
    if (counts.size() > historyFiles) {
      // Down to half the bound, so the next pass is at least historyFiles / 2 new files
      // away: amortized O(1) per access even when most kept counts are large.
      while (counts.size() > historyFiles / 2) {
        halve();
      }
    }
    return c;
  }

  /** The count of {@code fileId}, at least 1 (a file being inserted has been read or written once). */
  long atLeastOne(long fileId) {
    return Math.max(1, counts.get(fileId, 0));
  }

  /** Files counted now. */
  int size() {
    return counts.size();
  }

  /** Halves every count and forgets the files whose count reaches 0. */
  private void halve() {
    long[] ids = new long[counts.size()];
    long[] halves = new long[ids.length];
    int[] n = {0};
    counts.forEach((id, c) -> {
      ids[n[0]] = id;
      halves[n[0]++] = c / 2;
      return 0;
    });
    for (int i = 0; i < n[0]; i++) {
      if (halves[i] == 0) {
        counts.remove(ids[i], 0);
      } else {
        counts.put(ids[i], halves[i], 0);
      }
    }
  }
}
