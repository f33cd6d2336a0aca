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
 * Decides whether to cache the parity of an accessed file that is not cached
 * (CSAC's G_a), when no straggler is involved.
 */
public interface AdmissionPolicy {
  /** Every read of a file, cached or not. */
  void record(long fileId);

  /**
   * @param fits whether the file fits in the free space without evicting anything
   * @param eviction the eviction policy, to compare the candidate with its would-be victim
   */
  boolean admit(FileRef file, boolean fits, EvictionPolicy eviction);

  String name();
}
