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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * HDFS's stream for a replicated file without cached parity (or being filled), whose positional reads
 * that span several blocks read those blocks at once, one read per block, as POCache's
 * reads of a cached file do (HDFS reads them one after another). Everything else is
 * HDFS's stream as it is: sequential reads, seeks, statistics, capabilities.
 *
 * <p>The caller's thread reads the first block's part and then any part no pool thread
 * has started; it returns only when every part has ended, so no read writes into the
 * caller's buffer afterwards. Parts read on pool threads are counted in the caller's
 * thread statistics, as HDFS counts a positional read.
 */
final class ParallelBlockPreads extends HdfsDataInputStream {
  private final DFSInputStream in;
  private final Executor pool;
  private final FileSystem.Statistics stats;
  private final AtomicLong parallelReads;
  /** Where each listed block starts, and where the last one ends; null until needed. */
  private volatile long[] bounds;

  ParallelBlockPreads(DFSInputStream in, Executor pool, FileSystem.Statistics stats, AtomicLong parallelReads) {
    super(in);
    this.in = in;
    this.pool = pool;
    this.stats = stats;
    this.parallelReads = parallelReads;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    long fileLength = in.getFileLength();
    if (buffer == null || length <= 0 || position < 0 || position >= fileLength || offset < 0
        || length > buffer.length - offset) {
      return super.read(position, buffer, offset, length); // HDFS's own answer, or its error
    }
    int n = (int) Math.min(length, fileLength - position);
    readFully(position, buffer, offset, n); // a positional read returns all it can, as HDFS's does
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    if (buffer == null) {
      super.readFully(position, buffer); // HDFS's own error
      return;
    }
    readFully(position, buffer, 0, buffer.length);
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    List<long[]> parts = buffer == null || length <= 0 || position < 0 || offset < 0 || length > buffer.length - offset
        || position + length > in.getFileLength() ? null : parts(position, length);
    if (parts == null || parts.size() < 2) {
      super.readFully(position, buffer, offset, length); // HDFS's own answer, or its error
      return;
    }
    parallelReads.incrementAndGet();
    List<Part> started = new ArrayList<>();
    for (int i = 1; i < parts.size(); i++) {
      long[] p = parts.get(i);
      Part part = new Part(p[0], buffer, offset + (int) (p[0] - position), (int) p[1]);
      started.add(part);
      try {
        pool.execute(part);
      } catch (RejectedExecutionException closed) {
        // The file system is closing: the caller reads it below.
      }
    }
    IOException failure = null;
    long elsewhere = 0;
    try {
      try {
        super.readFully(position, buffer, offset, (int) parts.get(0)[1]);
      } catch (IOException e) {
        failure = e;
      }
      for (Part p : started) {
        if (p.claim()) { // no pool thread has started it: read it here, unless the read has failed
          IOException e = null;
          try {
            if (failure == null) {
              super.readFully(p.position, p.buffer, p.offset, p.length);
            }
          } catch (IOException x) {
            e = x;
          } finally {
            p.finish(e, false);
          }
        }
      }
    } finally {
      // Every part ends before the caller has its buffer back, whatever happened here.
      for (Part p : started) {
        if (p.claim()) { // left by a failure above (never run by a pool thread): not read at all
          p.finish(failure != null ? failure : new IOException("not read"), false);
        }
        IOException e = p.await();
        if (failure == null && e != null) {
          failure = e;
        }
        if (p.onPool) {
          elsewhere += p.length;
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    if (stats != null && elsewhere > 0) {
      stats.incrementBytesRead(elsewhere); // taken off the pool threads' statistics, counted here
    }
  }

  /** [position, length) cut at block boundaries as {offset, length} pairs; null if it cannot be. */
  private List<long[]> parts(long position, int length) throws IOException {
    long[] b = bounds;
    if (b == null) {
      List<LocatedBlock> blocks = in.getAllBlocks();
      b = new long[blocks.size() + 1];
      for (int i = 0; i < blocks.size(); i++) {
        b[i] = blocks.get(i).getStartOffset();
        b[i + 1] = b[i] + blocks.get(i).getBlockSize();
      }
      bounds = b;
    }
    List<long[]> out = new ArrayList<>();
    long end = position + length;
    long at = position;
    for (int i = 0; i + 1 < b.length && at < end; i++) {
      if (b[i + 1] > at) {
        if (b[i] > at) {
          return null; // a gap in the listed blocks: HDFS answers
        }
        long to = Math.min(end, b[i + 1]);
        out.add(new long[] {at, to - at});
        at = to;
      }
    }
    if (at < end) {
      out.add(new long[] {at, end - at}); // past the listed blocks (a file being written): one read
    }
    return out;
  }

  /** One block's part of a positional read, run by a pool thread or, if none took it, by the caller. */
  private final class Part implements Runnable {
    final long position;
    final byte[] buffer;
    final int offset;
    final int length;
    private boolean claimed;
    private boolean done;
    private IOException failure;
    boolean onPool;

    Part(long position, byte[] buffer, int offset, int length) {
      this.position = position;
      this.buffer = buffer;
      this.offset = offset;
      this.length = length;
    }

    /** Whether this thread is the one to read it. */
    synchronized boolean claim() {
      if (claimed) {
        return false;
      }
      claimed = true;
      return true;
    }

    @Override
    public void run() {
      if (!claim()) {
        return;
      }
      IOException e = null;
      boolean read = false;
      try {
        ParallelBlockPreads.super.readFully(position, buffer, offset, length);
        read = true;
        if (stats != null) {
          stats.incrementBytesRead(-length); // the caller's thread counts it
        }
      } catch (IOException x) {
        e = x;
      } catch (RuntimeException | LinkageError x) {
        e = new IOException("reading " + length + " bytes at " + position + " failed", x);
      }
      finish(e, read);
    }

    synchronized void finish(IOException e, boolean readOnPool) {
      failure = e;
      onPool = readOnPool;
      done = true;
      notifyAll();
    }

    /** Waits until it has ended (uninterruptibly: the caller's buffer must be the caller's first). */
    synchronized IOException await() {
      boolean interrupted = false;
      while (!done) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      return failure;
    }
  }
}
