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
import org.apache.hadoop.fs.FileSystem;

/**
 * The bytes a caller's small sequential reads are served from: a record reader asks for a
 * few hundred bytes a call (a SequenceFile's, TeraSort's 100-byte records) or 4 KiB
 * ({@code io.file.buffer.size}), and each call through the whole read path (the timing of
 * a subblock, the verdicts, HDFS's stream) costs microseconds in a task whose code the JIT
 * has barely compiled. A read under {@link #SMALL} bytes fills this buffer with one read of
 * {@link #FILL} bytes and takes its bytes from it; later small reads take theirs from here
 * with a copy. Larger reads go straight to the caller's array, as before.
 *
 * <p>The file system's read statistics count bytes as the caller takes them, as HDFS's
 * stream counts what it returns: a fill's bytes, counted where they were read, are taken
 * out again and counted as they are handed out.
 *
 * <p>Not thread-safe: the owning stream's synchronized methods call it.
 */
final class SmallReads {
  /** Reads of fewer bytes than this are served from the buffer. */
  static final int SMALL = 16 << 10;
  /** The most one fill reads. */
  static final int FILL = 64 << 10;

  /** Reads from where the buffer ends. */
  interface Source {
    int read(byte[] b, int off, int len) throws IOException;
  }

  private final FileSystem.Statistics stats;
  /** Made at the first small read; null after {@link #close}. */
  private byte[] bytes;
  /** The next byte to hand out, and the end of the bytes filled. */
  private int at;
  private int end;

  SmallReads(FileSystem.Statistics stats) {
    this.stats = stats;
  }

  /**
   * A read of up to {@code len} bytes into {@code b}: from what is buffered; else, for a
   * small read, from a fill of {@code source}; else from {@code source} straight.
   */
  int read(byte[] b, int off, int len, Source source) throws IOException {
    if (end > at) {
      return take(b, off, len);
    }
    if (len == 0 || len >= SMALL) {
      return source.read(b, off, len);
    }
    if (bytes == null) {
      bytes = new byte[FILL];
    }
    at = 0;
    end = 0;
    int n = source.read(bytes, 0, FILL);
    if (n <= 0) {
      return n;
    }
    end = n;
    count(-n);
    return take(b, off, len);
  }

  /** Bytes filled and not yet handed out. */
  int buffered() {
    return end - at;
  }

  /** Hands out up to {@code len} buffered bytes into {@code b}; at least one is buffered. */
  private int take(byte[] b, int off, int len) {
    int n = Math.min(len, end - at);
    System.arraycopy(bytes, at, b, off, n);
    at += n;
    count(n);
    return n;
  }

  /** Hands out up to {@code buf.remaining()} buffered bytes into {@code buf}; at least one is buffered. */
  int take(ByteBuffer buf) {
    int n = Math.min(buf.remaining(), end - at);
    buf.put(bytes, at, n);
    at += n;
    count(n);
    return n;
  }

  /**
   * Moves to file offset {@code target} within what was filled, if it is there: {@code pos}
   * is where the fill ended in the file. Returns whether it was.
   */
  boolean seekWithin(long pos, long target) {
    long start = pos - end;
    if (end == 0 || target < start || target > pos) {
      return false;
    }
    at = (int) (target - start);
    return true;
  }

  /** Skips {@code n} of the buffered bytes (at most {@link #buffered}). */
  void skip(int n) {
    at += n;
  }

  /** Forgets what is buffered. */
  void clear() {
    at = 0;
    end = 0;
  }

  /** Forgets what is buffered and lets go of the array. */
  void close() {
    clear();
    bytes = null;
  }

  private void count(long n) {
    if (stats != null) {
      stats.incrementBytesRead(n);
    }
  }
}
