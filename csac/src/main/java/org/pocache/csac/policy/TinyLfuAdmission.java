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

import org.pocache.csac.FileRef;

/**
 * TinyLFU admission (Einziger, Friedman and Manes, "TinyLFU: a highly efficient
 * cache admission policy", ACM ToS 2017): a count-min sketch of recent access
 * frequencies (4 rows of 4-bit counters) that is halved after every W recorded
 * accesses, so old popularity fades. A candidate that fits is admitted; otherwise
 * only if its estimated frequency is higher than that of the file the eviction
 * policy would evict. Constant memory and time per access.
 */
public final class TinyLfuAdmission implements AdmissionPolicy {
  private static final long[] SEEDS = {0x9E3779B97F4A7C15L, 0xC2B2AE3D27D4EB4FL, 0x165667B19E3779F9L,
      0xD6E8FEB86659FD93L};

  private final byte[][] table;
  private final int mask;
  private final long sampleSize;
  private long samples;

  /**
   * @param expectedFiles roughly how many distinct files are read in a window
   * @throws IllegalArgumentException if expectedFiles <= 0
   */
  public TinyLfuAdmission(int expectedFiles) {
    if (expectedFiles <= 0) {
      throw new IllegalArgumentException("expected files must be > 0, got " + expectedFiles);
    }
    int width = Integer.highestOneBit(Math.max(16, expectedFiles - 1)) << 1;
    table = new byte[4][width];
    mask = width - 1;
    sampleSize = 10L * width;
  }

  @Override
  public String name() {
    return "tinylfu";
  }

  @Override
  public void record(long fileId) {
    for (int r = 0; r < 4; r++) {
      int i = index(fileId, r);
      if (table[r][i] < 15) {
        table[r][i]++;
      }
    }
    if (++samples >= sampleSize) {
      age();
    }
  }

  /** The estimated recent access count of a file. */
  public int frequency(long fileId) {
    int f = Integer.MAX_VALUE;
    for (int r = 0; r < 4; r++) {
      f = Math.min(f, table[r][index(fileId, r)]);
    }
    return f;
  }

  @Override
  public boolean admit(FileRef file, boolean fits, EvictionPolicy eviction) {
    if (fits) {
      return true;
    }
    long victim = eviction.peekVictim(file.id());
    return victim < 0 || frequency(file.id()) > frequency(victim);
  }

  private void age() {
    for (byte[] row : table) {
      for (int i = 0; i < row.length; i++) {
        row[i] >>= 1;
      }
    }
    samples /= 2;
  }

  private int index(long id, int row) {
    long h = (id + SEEDS[row]) * SEEDS[(row + 1) & 3];
    h ^= h >>> 29;
    return (int) h & mask;
  }
}
