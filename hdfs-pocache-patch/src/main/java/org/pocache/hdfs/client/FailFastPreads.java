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

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.hdfs.DFSInputStream;

/**
 * Positional reads of a file that fail at once where no DataNode of a block answers,
 * through a stream of the {@link FailFastClient} opened at the first read; for the reads
 * a rebuild makes of the pieces other than the one it rebuilds.
 *
 * <p>A rebuild is worth making only while its inputs answer. One of them on a DataNode
 * that is down (restarting, say) cannot be read, and through HDFS's own stream such a read
 * waits out HDFS's retries, seconds, while the reader waits on the rebuild; with m = 1
 * that rebuild could never have been done. Failing at once, the rebuild fails at once and
 * the reader goes on with what it had (the block's own stream). What cannot do without
 * HDFS's retries, the reads of a block nothing else can stand in for, keeps HDFS's stream.
 *
 * <p>When the fail-fast stream cannot be opened, the reads are {@code fallback}'s.
 */
final class FailFastPreads implements PositionedReadable, Closeable {
  private final SequentialReader.Opener opener;
  private final PositionedReadable fallback;
  private final Warnings warnings;
  private PositionedReadable stream;
  private DFSInputStream opened;
  private boolean closed;

  FailFastPreads(SequentialReader.Opener opener, PositionedReadable fallback, Warnings warnings) {
    this.opener = opener;
    this.fallback = fallback;
    this.warnings = warnings;
  }

  private synchronized PositionedReadable stream() throws IOException {
    if (closed) {
      throw new IOException("Stream closed");
    }
    if (stream == null) {
      try {
        opened = opener.open();
        stream = opened;
      } catch (IOException | RuntimeException | LinkageError e) {
        warnings.once("POCache could not open its fail-fast stream; rebuilds wait out HDFS's retries on a"
            + " DataNode that is down", e);
        stream = fallback;
      }
    }
    return stream;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    return stream().read(position, buffer, offset, length);
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    stream().readFully(position, buffer, offset, length);
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    stream().readFully(position, buffer);
  }

  @Override
  public void close() throws IOException {
    DFSInputStream s;
    synchronized (this) {
      closed = true;
      s = opened;
      opened = null;
    }
    if (s != null) {
      s.close();
    }
  }
}
