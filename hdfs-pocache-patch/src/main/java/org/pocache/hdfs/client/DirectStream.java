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
import java.nio.ByteBuffer;
import org.apache.hadoop.hdfs.DFSInputStream;

/**
 * The stream a replicated file's <em>direct</em> reads (the caller's own reads of HDFS's
 * stream, see {@link SequentialReads}) go through: a fail-fast stream of the same file,
 * whose DataNode failures end its read at once ({@code dfs.client.max.block.acquire.failures}
 * 0), so a block whose DataNode is down (a restart) goes to parity at once, not after
 * HDFS's retries with seconds of back-off; HDFS's own stream if there is no opener or it
 * failed. Opened at the first direct read: positional readers never need it.
 *
 * <p>Not thread-safe: the owning stream's synchronized methods call it.
 */
final class DirectStream {
  /**
   * Most bytes one read asks HDFS's stream for: a caller's large read (Parquet reads a
   * column chunk of many MiB in one call) is judged between chunks, not once it is over.
   */
  static final int CHUNK = SequentialReader.PIECE;

  private final DFSInputStream in;
  /** Opens the fail-fast stream; null: reads go through {@code in}. */
  private final SequentialReader.Opener failFast;
  private final Warnings warnings;
  /** The stream reads go through, null before the first (read unlocked: read statistics). */
  private volatile DFSInputStream stream;
  /** The stream may not be at the caller's position (a seek, bytes served from elsewhere). */
  private boolean behind;

  DirectStream(DFSInputStream in, SequentialReader.Opener failFast, Warnings warnings) {
    this.in = in;
    this.failFast = failFast;
    this.warnings = warnings;
  }

  /**
   * Makes the stream ready to read at {@code pos}: opened at the first call, moved there if
   * it may be elsewhere. Returns whether it was moved (opened or sought). {@code closed}:
   * the owning stream was closed meanwhile (its failed open is then the caller's error).
   */
  boolean at(long pos, boolean closed) throws IOException {
    if (stream == null) {
      DFSInputStream s = null;
      if (failFast != null) {
        try {
          s = failFast.open();
        } catch (IOException | RuntimeException | LinkageError e) {
          if (closed) {
            throw new IOException("Stream closed");
          }
          warnings.once("POCache could not open its fail-fast stream; sequential reads wait out HDFS's retries"
              + " on a DataNode that is down", e);
        }
      }
      stream = s != null ? s : in;
      behind = true;
    }
    if (!behind) {
      return false;
    }
    stream.seek(pos);
    behind = false;
    return true;
  }

  /** One read of at most {@link #CHUNK} bytes into {@code b}, or else into {@code buf}. */
  int read(byte[] b, int off, int len, ByteBuffer buf) throws IOException {
    if (buf == null) {
      return stream.read(b, off, Math.min(len, CHUNK));
    }
    if (buf.remaining() <= CHUNK) {
      return stream.read(buf);
    }
    ByteBuffer part = buf.duplicate();
    part.limit(part.position() + CHUNK);
    int n = stream.read(part);
    if (n > 0) {
      buf.position(buf.position() + n);
    }
    return n;
  }

  /** Whether reads go through the fail-fast stream, whose failures end at once. */
  boolean failsFast() {
    DFSInputStream s = stream;
    return s != null && s != in;
  }

  /** The stream is to be moved to the caller's position before its next read (or not: {@code false}). */
  void behind(boolean b) {
    behind = b;
  }

  /** The fail-fast stream if it was opened (its read statistics count too), else null. */
  DFSInputStream separate() {
    DFSInputStream s = stream;
    return s == in ? null : s;
  }

  /** Closes the fail-fast stream (not {@code in}). */
  void close() {
    try {
      if (failsFast()) {
        stream.close();
      }
    } catch (IOException e) {
      // nothing of the caller's depends on it
    }
  }
}
