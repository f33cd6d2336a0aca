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

/**
 * A caller's current run of sequential reads without a jump: where it began, and how much
 * of the caller's time since went into its reads. A caller that spends at least half of it
 * waiting in reads reads as fast as bytes come ({@code hdfs dfs -cat}), and blocks fetched
 * in parallel would serve it sooner; a task that computes on what it reads waits far less,
 * and its blocks are not fetched ahead (its split may end within the next block: fetches
 * past it would load the DataNodes the tasks of the next splits read).
 */
final class ReadRun {
  /** Where the run began (a file offset). */
  private long start;
  /** When the run's first read began (System.nanoTime), 0 before it. */
  private long startNanos;
  /** Time the caller has spent inside reads in this run. */
  private long readNanos;
  /** The next look at the fetches ahead comes once the caller reads at or past here. */
  private long lookAt;

  /** A read begins: returns the time now (the run's first read also starts its clock). */
  long enter() {
    long now = System.nanoTime();
    if (startNanos == 0) {
      startNanos = now;
    }
    return now;
  }

  /** The read that began at {@code entered} ended at {@code ended} (0: now). */
  void left(long entered, long ended) {
    readNanos += (ended != 0 ? ended : System.nanoTime()) - entered;
  }

  /** Where the run began. */
  long start() {
    return start;
  }

  /** Whether the caller has spent at least half its run waiting in reads. */
  boolean waitsOnReads() {
    return readNanos * 2 >= System.nanoTime() - startNanos;
  }

  /** Whether to look at the fetches ahead at {@code pos}: at most once per {@code every} bytes read. */
  boolean lookAhead(long pos, int every) {
    if (pos < lookAt) {
      return false;
    }
    lookAt = pos + every;
    return true;
  }

  /** The caller jumped to {@code at}: a new run begins there. */
  void restart(long at) {
    start = at;
    startNanos = 0;
    readNanos = 0;
    lookAt = 0;
  }
}
