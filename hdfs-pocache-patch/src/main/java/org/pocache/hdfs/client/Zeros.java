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
package org.pocache.hdfs.client;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shared arrays of zeros, one per length, for the virtual data pieces of a short file's
 * stripe (blocks past the file's end): decoders only read them. A pooled array filled
 * with zeros instead cost a read of a one-block file k - 1 subblocks of zeroing for every
 * subblock it read. Nobody may write into an array from here.
 */
final class Zeros {
  /** Lengths kept at most (a reader uses a handful: the subblock times the runs it fetches). */
  private static final int MAX_LENGTHS = 16;
  private static final Map<Integer, byte[]> BY_LENGTH = new ConcurrentHashMap<>();

  private Zeros() {
  }

  /** An array of {@code length} zeros, shared: read it, never write it. */
  static byte[] of(int length) {
    byte[] z = BY_LENGTH.get(length);
    if (z != null) {
      return z;
    }
    z = new byte[length];
    if (BY_LENGTH.size() < MAX_LENGTHS) {
      BY_LENGTH.putIfAbsent(length, z);
    }
    return z;
  }
}
