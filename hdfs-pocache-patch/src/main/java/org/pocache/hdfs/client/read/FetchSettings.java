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
package org.pocache.hdfs.client.read;

/** Tunables, fixed for a reader. */
public final class FetchSettings {
  final long minDeadlineNanos;
  final long heldRecheckNanos;
  final boolean proactiveAlways;

  /**
   * @param minDeadlineNanos no piece lags, and no read is late, sooner than this after its peers
   * @param heldRecheckNanos how often a held piece's DataNode backlog is looked at again
   * @param proactiveAlways ask for the parity with the data even when no DataNode is suspect
   */
  public FetchSettings(long minDeadlineNanos, long heldRecheckNanos, boolean proactiveAlways) {
    this.minDeadlineNanos = minDeadlineNanos;
    this.heldRecheckNanos = heldRecheckNanos;
    this.proactiveAlways = proactiveAlways;
  }

  /** No piece lags, and no read is late, sooner than this after its peers. */
  public long minDeadlineNanos() {
    return minDeadlineNanos;
  }
}
