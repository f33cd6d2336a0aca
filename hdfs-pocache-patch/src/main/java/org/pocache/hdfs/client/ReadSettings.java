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

import org.apache.hadoop.conf.Configuration;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;

/**
 * A client FileSystem's read keys ({@code dfs.pocache.read.*} and the coder), read and
 * checked once when it is initialized; a bad value fails there, naming its key.
 */
final class ReadSettings {
  /** dfs.pocache.read.threads: the read pool's threads. */
  final int threads;
  /** dfs.pocache.read.inflight.substripes: substripes a proactive read has under way at once. */
  final int inflight;
  /** dfs.pocache.coder: which erasure coder decodes. */
  final String coderKind;
  /** dfs.pocache.read.buffer.pool.bytes: subblock arrays kept for reuse. */
  final long bufferPoolBytes;
  /** dfs.pocache.read.deadline.factor: a read is late past this many times its mean. */
  final double deadlineFactor;
  /** dfs.pocache.read.deadline.min.ms: and never sooner than this. */
  final long deadlineMinMillis;
  /** dfs.pocache.read.datanode.timeout.ms: how long the fail-fast client waits on a DataNode. */
  final int dataNodeTimeoutMillis;
  /** dfs.pocache.read.parity.pieces: parity pieces per substripe a read asks for; 0: all m. */
  final int parityPieces;
  /** dfs.pocache.read.parallel.blocks: positional reads across blocks of files without parity read them at once. */
  final boolean parallelBlocks;
  /** dfs.pocache.read.striped.sequential: sequential reads of cached erasure-coded files race parity. */
  final boolean stripedSequential;
  /** dfs.pocache.read.proactive = always: every read of a cached file asks for its parity. */
  final boolean proactiveAlways;
  /** dfs.pocache.read.proactive = lazy: HDFS's own reads while no DataNode is suspect. */
  final boolean proactiveLazy;
  /** dfs.pocache.read.prefetch.bytes: bytes of whole blocks fetched ahead (at most an eighth of the heap). */
  final long prefetchBytes;
  /** dfs.pocache.read.fill.max.bytes: the largest parity accumulators a reader fills with; 0: none. */
  final long fillMaxBytes;

  private ReadSettings(Configuration conf) {
    threads = PoCacheConfig.getInt(conf, PoCacheConfigKeys.READ_THREADS_KEY,
        PoCacheConfigKeys.READ_THREADS_DEFAULT, 1, 4096);
    inflight = PoCacheConfig.getInt(conf, PoCacheConfigKeys.READ_INFLIGHT_KEY,
        PoCacheConfigKeys.READ_INFLIGHT_DEFAULT, 1, 1024);
    coderKind = PoCacheConfig.getCoder(conf);
    bufferPoolBytes = PoCacheConfig.getLong(conf, PoCacheConfigKeys.READ_BUFFER_POOL_KEY,
        PoCacheConfigKeys.READ_BUFFER_POOL_DEFAULT, 0, Long.MAX_VALUE);
    deadlineFactor = PoCacheConfig.getDouble(conf, PoCacheConfigKeys.READ_DEADLINE_FACTOR_KEY,
        PoCacheConfigKeys.READ_DEADLINE_FACTOR_DEFAULT, 1, 1000);
    deadlineMinMillis = PoCacheConfig.getLong(conf, PoCacheConfigKeys.READ_DEADLINE_MIN_KEY,
        PoCacheConfigKeys.READ_DEADLINE_MIN_DEFAULT, 0, 3_600_000);
    dataNodeTimeoutMillis = PoCacheConfig.getInt(conf, PoCacheConfigKeys.READ_DATANODE_TIMEOUT_KEY,
        PoCacheConfigKeys.READ_DATANODE_TIMEOUT_DEFAULT, 100, 3_600_000);
    parityPieces = PoCacheConfig.getInt(conf, PoCacheConfigKeys.READ_PARITY_PIECES_KEY,
        PoCacheConfigKeys.READ_PARITY_PIECES_DEFAULT, 0, Integer.MAX_VALUE);
    parallelBlocks = PoCacheConfig.getBoolean(conf, PoCacheConfigKeys.READ_PARALLEL_BLOCKS_KEY,
        PoCacheConfigKeys.READ_PARALLEL_BLOCKS_DEFAULT);
    stripedSequential = PoCacheConfig.getBoolean(conf, PoCacheConfigKeys.READ_STRIPED_SEQUENTIAL_KEY,
        PoCacheConfigKeys.READ_STRIPED_SEQUENTIAL_DEFAULT);
    String proactive = PoCacheConfig.getChoice(conf, PoCacheConfigKeys.READ_PROACTIVE_KEY,
        PoCacheConfigKeys.READ_PROACTIVE_DEFAULT, PoCacheConfigKeys.READ_PROACTIVE_CHOICES);
    proactiveAlways = "always".equals(proactive);
    proactiveLazy = "lazy".equals(proactive);
    prefetchBytes = Math.min(Runtime.getRuntime().maxMemory() / 8, PoCacheConfig.getLong(conf,
        PoCacheConfigKeys.READ_PREFETCH_KEY, PoCacheConfigKeys.READ_PREFETCH_DEFAULT, 0, Long.MAX_VALUE));
    fillMaxBytes = PoCacheConfig.getLong(conf, PoCacheConfigKeys.READ_FILL_MAX_KEY,
        PoCacheConfigKeys.READ_FILL_MAX_DEFAULT, 0, Long.MAX_VALUE);
  }

  static ReadSettings from(Configuration conf) {
    return new ReadSettings(conf);
  }
}
