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

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.PositionedReadable;

/**
 * Positional reads of an HDFS stream that leave the FileSystem statistics as they
 * were. HDFS counts every read in the statistics of the thread that makes it; the
 * POCache stream reads pieces, rebuild inputs and read-ahead on its own threads and
 * counts the bytes it returns on its caller's thread instead, so a task's input
 * metrics (Spark reads the task thread's) are what HDFS's stream would give.
 */
final class UncountedReads implements PositionedReadable, java.io.Closeable {
  private final PositionedReadable in;
  private final FileSystem.Statistics stats;

  UncountedReads(PositionedReadable in, FileSystem.Statistics stats) {
    this.in = in;
    this.stats = stats;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    int n = in.read(position, buffer, offset, length);
    uncount(n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    in.readFully(position, buffer, offset, length);
    uncount(length);
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }

  private void uncount(int n) {
    if (stats != null && n > 0) {
      stats.incrementBytesRead(-n);
    }
  }

  /** Closes the reads it passes on, if they are {@link java.io.Closeable}: only a stream of its own may be given. */
  @Override
  public void close() throws IOException {
    if (in instanceof java.io.Closeable) {
      ((java.io.Closeable) in).close();
    }
  }
}
