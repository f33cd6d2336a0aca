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
package org.pocache.csac;

import java.util.Arrays;

/**
 * A file as CSAC sees it: an id (the HDFS inode id), its weight n_f (parity blocks,
 * or parity bytes, in the cache's unit; see {@link ParityFootprint}), and the
 * DataNodes holding its data blocks, supplied by the caller.
 */
public final class FileRef {
  private final long id;
  private final long weight;
  private final String[] dataNodes;

  /**
   * @throws IllegalArgumentException if the id is negative, the weight is not positive, or a DataNode is null
   */
  public FileRef(long id, long weight, String... dataNodes) {
    if (id < 0) {
      throw new IllegalArgumentException("file id must be >= 0, got " + id);
    }
    if (weight <= 0) {
      throw new IllegalArgumentException("weight of file " + id + " must be > 0, got " + weight);
    }
    for (String d : dataNodes) {
      if (d == null) {
        throw new IllegalArgumentException("file " + id + " has a null DataNode");
      }
    }
    this.id = id;
    this.weight = weight;
    this.dataNodes = dataNodes.clone();
  }

  public long id() {
    return id;
  }

  public long weight() {
    return weight;
  }

  /** The DataNodes holding the file's data blocks (a copy). */
  public String[] dataNodes() {
    return dataNodes.clone();
  }

  /** Whether any of the file's data blocks is on one of {@code stragglers}. */
  public boolean touches(java.util.Set<String> stragglers) {
    if (stragglers.isEmpty()) {
      return false;
    }
    for (String d : dataNodes) {
      if (stragglers.contains(d)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "file " + id + " (weight " + weight + ", on " + Arrays.toString(dataNodes) + ")";
  }
}
