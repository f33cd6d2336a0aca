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

import org.slf4j.Logger;

/**
 * The line a {@link PoCacheFileSystem} logs at INFO as it closes, if POCache did anything
 * for it: what its reads and writes did with parity and how often they fell back to plain
 * HDFS, from the counters operators and tests read.
 */
final class ClientSummary {
  private ClientSummary() {
  }

  /** Logs {@code fs}'s summary to {@code log}, unless it did nothing or logging is already shut down. */
  static void log(Logger log, PoCacheFileSystem fs, int writeMinBlocks) {
    if (fs.proactiveOpens() == 0 && fs.cachedWrites() == 0 && fs.shortWrites() == 0 && fs.fallbacks() == 0
        || loggingShutDown()) {
      return;
    }
    log.info("POCache client summary: {} proactive opens served {} substripes ({} rebuilt from parity, {} pieces"
        + " left to parity), {} fallbacks to plain HDFS ({} stale descriptors, {} Manager calls unanswered or"
        + " skipped, {} failed Redis connects), {} cached writes ({} abandoned), {} writes left to reads (shorter"
        + " than " + writeMinBlocks + " blocks), {} reader fills, {} erasure-coded pieces read through HDFS's"
        + " striped stream, {} replicated pieces through its positional read",
        fs.proactiveOpens(), fs.readSubstripes(), fs.decodedSubstripes(), fs.skippedPieces(), fs.fallbacks(),
        fs.staleDescriptors(), fs.managerCallsUnanswered() + fs.managerCallsSkipped(), fs.redisConnectFailures(),
        fs.cachedWrites(), fs.abandonedWrites(), fs.shortWrites(), fs.readerFills(), fs.stripedStreamReads(),
        fs.positionalReads());
  }

  /**
   * Whether this is the JVM's shutdown and log4j has already been shut down: a YARN task
   * (YarnChild) shuts log4j down before the FileSystem cache closes its file systems, and a
   * line logged then only makes log4j print "No appenders could be found" to the task's stderr.
   */
  private static boolean loggingShutDown() {
    try {
      return org.apache.hadoop.util.ShutdownHookManager.get().isShutdownInProgress()
          && !org.apache.log4j.LogManager.getRootLogger().getAllAppenders().hasMoreElements();
    } catch (RuntimeException | LinkageError e) {
      return false; // no log4j 1 here (a shaded client logging through another backend)
    }
  }
}
