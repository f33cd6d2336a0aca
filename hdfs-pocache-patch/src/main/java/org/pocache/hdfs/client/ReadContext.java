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

import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.fs.PositionedReadable;
import org.pocache.cache.ParitySeal;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.pocache.hdfs.client.read.Clock;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ParitySeals;

/**
 * What the readers of one open file share: where its data and parity come from, how
 * the file is laid out, the pools they borrow threads and arrays from, and what is
 * known about slow DataNodes. Immutable.
 */
final class ReadContext {
  /** The file's data as HDFS serves it (reads not counted twice in the statistics). */
  final PositionedReadable data;
  /**
   * The same data for the reads a rebuild makes of the other pieces: failing at once where a
   * block's DataNodes are all down ({@link FailFastPreads}), or {@link #data} itself.
   */
  final PositionedReadable rebuildData;
  final ParityDescriptor descriptor;
  /** How the file's parity values are sealed (the file key from its descriptor). */
  final ParitySeal seal;
  final StripeLayout layout;
  final ParityAccess parity;
  final ExecutorService pool;
  final BufferPool buffers;
  final SlowSources sources;
  final PieceLocations locations;
  /** No read is judged late before this many milliseconds. */
  final long minDeadlineMillis;
  /** Whether a proactive read asks for the parity with the data even when no DataNode is suspect. */
  final boolean proactiveAlways;
  /** Whether positional reads are HDFS's own while no DataNode is suspect (dfs.pocache.read.proactive lazy). */
  final boolean lazy;
  /** The file's data pieces read straight from its blocks (DirectBlockReads); null: read through {@link #data}. */
  final DirectBlockReads direct;
  /** Parity pieces of a substripe a proactive read asks for (dfs.pocache.read.parity.pieces); 0: all m. */
  final int parityPieces;
  /** Recent time to read one subblock from a DataNode, shared by the file system's streams. */
  final SubblockTimes times;
  /** The readers' time; {@link Clock#SYSTEM} but in tests. */
  final Clock clock = Clock.SYSTEM;

  ReadContext(PositionedReadable data, PositionedReadable rebuildData, ParityDescriptor descriptor,
      StripeLayout layout, ParityAccess parity,
      ExecutorService pool, BufferPool buffers, SlowSources sources, PieceLocations locations,
      long minDeadlineMillis, boolean proactiveAlways, boolean lazy, DirectBlockReads direct, int parityPieces,
      SubblockTimes times) {
    this.data = data;
    this.rebuildData = rebuildData;
    this.descriptor = descriptor;
    this.seal = ParitySeals.forReading(descriptor);
    this.layout = layout;
    this.parity = parity;
    this.pool = pool;
    this.buffers = buffers;
    this.sources = sources;
    this.locations = locations;
    this.minDeadlineMillis = minDeadlineMillis;
    this.proactiveAlways = proactiveAlways;
    this.lazy = lazy;
    this.direct = direct;
    this.parityPieces = parityPieces;
    this.times = times;
  }

  /** The DataNodes that hold piece i of stripe s. */
  List<String> where(long s, int i) {
    return locations.of(s, i);
  }
}
