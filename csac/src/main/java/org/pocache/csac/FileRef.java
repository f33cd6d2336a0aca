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
 * or parity bytes, in the cache's unit; see {@link ParityFootprint}), the data its
 * parity protects in the same unit (its length; a one-block file's parity protects as
 * much data as it takes, a full stripe's k times that), and the DataNodes holding its
 * data blocks, supplied by the caller.
 */
public final class FileRef {
  private final long id;
  private final long weight;
  private final long dataWeight;
  private final String[] dataNodes;

  /**
   * A file whose protected data is not known: taken as its weight.
   *
   * @throws IllegalArgumentException if the id is negative, the weight is not positive, or a DataNode is null
   */
  public FileRef(long id, long weight, String... dataNodes) {
    this(id, weight, weight, dataNodes);
  }

  /**
   * @param dataWeight the file's data in the weight's unit (bytes when the weight is parity bytes)
   * @throws IllegalArgumentException if the id is negative, the weight or the data weight is not positive, or a
   *     DataNode is null
   */
  public FileRef(long id, long weight, long dataWeight, String... dataNodes) {
    if (id < 0) {
      throw new IllegalArgumentException("file id must be >= 0, got " + id);
    }
    if (weight <= 0) {
      throw new IllegalArgumentException("weight of file " + id + " must be > 0, got " + weight);
    }
    if (dataWeight <= 0) {
      throw new IllegalArgumentException("data weight of file " + id + " must be > 0, got " + dataWeight);
    }
    for (String d : dataNodes) {
      if (d == null) {
        throw new IllegalArgumentException("file " + id + " has a null DataNode");
      }
    }
    this.id = id;
    this.weight = weight;
    this.dataWeight = dataWeight;
    this.dataNodes = dataNodes.clone();
  }

  public long id() {
    return id;
  }

  public long weight() {
    return weight;
  }

  /** The data the file's parity protects, in the weight's unit. */
  public long dataWeight() {
    return dataWeight;
  }

  /**
   * The share of {@link #dataWeight} on {@code stragglers}: the data a read of the file
   * would otherwise wait for, counting each listed DataNode entry as an equal share.
   */
  public long dataWeightOn(java.util.Set<String> stragglers) {
    if (dataNodes.length == 0) {
      return dataWeight;
    }
    int on = 0;
    for (String d : dataNodes) {
      if (stragglers.contains(d)) {
        on++;
      }
    }
    return Math.max(1, dataWeight * on / dataNodes.length);
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
    return "file " + id + " (weight " + weight + ", data " + dataWeight + ", on " + Arrays.toString(dataNodes) + ")";
  }
}
