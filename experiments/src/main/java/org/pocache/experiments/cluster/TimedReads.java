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
package org.pocache.experiments.cluster;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Locale;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long MapReduce tasks wait on their input (Experiment 10's read latencies): file
 * systems that time every read call of the streams they open and, when a stream
 * closes, log one line at INFO into the task's log:
 *
 * <pre>timed reads: path=/ex/wc-in bytes=16777216 calls=4097 read_ms=812.4 max_call_ms=95.1</pre>
 *
 * <p>{@link Vanilla} is DistributedFileSystem and {@link PoCache} is POCache's
 * FileSystem, each with that alone added; the experiment ships them to a job with
 * {@code -libjars} and names one in {@code fs.hdfs.impl}. The job itself is not
 * changed. The cost is two clock reads per call.
 */
public final class TimedReads {
  private static final Logger LOG = LoggerFactory.getLogger(TimedReads.class);

  private TimedReads() {
  }

  /** Stock HDFS, timed. */
  public static class Vanilla extends DistributedFileSystem {
    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
      return timed(f, super.open(f, bufferSize));
    }
  }

  /** POCache, timed. */
  public static class PoCache extends PoCacheFileSystem {
    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
      return timed(f, super.open(f, bufferSize));
    }
  }

  static FSDataInputStream timed(Path f, FSDataInputStream in) {
    return new FSDataInputStream(new Timer(f.toUri().getPath(), in));
  }

  /** The stream a reader gets: every call goes to the opened one, reads are timed. */
  static final class Timer extends InputStream implements Seekable, PositionedReadable, ByteBufferReadable {
    private final String path;
    private final FSDataInputStream in;
    private long bytes;
    private long calls;
    private long nanos;
    private long maxNanos;
    private boolean closed;

    Timer(String path, FSDataInputStream in) {
      this.path = path;
      this.in = in;
    }

    private long start() {
      return System.nanoTime();
    }

    private int end(long t0, int n) {
      long d = System.nanoTime() - t0;
      calls++;
      nanos += d;
      maxNanos = Math.max(maxNanos, d);
      if (n > 0) {
        bytes += n;
      }
      return n;
    }

    @Override
    public int read() throws IOException {
      long t0 = start();
      int b = in.read();
      end(t0, b < 0 ? -1 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      long t0 = start();
      return end(t0, in.read(b, off, len));
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
      long t0 = start();
      return end(t0, in.read(buf));
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      long t0 = start();
      return end(t0, in.read(position, buffer, offset, length));
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      long t0 = start();
      try {
        in.readFully(position, buffer, offset, length);
      } catch (EOFException e) {
        end(t0, -1);
        throw e;
      }
      end(t0, length);
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }

    @Override
    public long skip(long n) throws IOException {
      return in.skip(n);
    }

    @Override
    public int available() throws IOException {
      return in.available();
    }

    @Override
    public void seek(long pos) throws IOException {
      in.seek(pos);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) throws IOException {
      return in.seekToNewSource(targetPos);
    }

    @Override
    public void close() throws IOException {
      try {
        in.close();
      } finally {
        if (!closed && calls > 0) {
          LOG.info(String.format(Locale.ROOT, "timed reads: path=%s bytes=%d calls=%d read_ms=%.1f max_call_ms=%.1f",
              path, bytes, calls, nanos / 1e6, maxNanos / 1e6));
        }
        closed = true;
      }
    }
  }
}
