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
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>The rebuilds of a block left to parity read the other blocks of its stripe subblock
 * after subblock, front to back. A positional read asks its DataNode for its range alone,
 * a new block read each time (a request, the DataNode opening the block, a reply), CPU
 * on both sides that a stream spends once; so a read that begins where an
 * earlier one ended goes on with a stream of its own instead ({@link Cursor}), one HDFS
 * block read for the run. At most {@code maxCursors} streams; a read that begins where a
 * stream's current read will end waits for it (the same DataNode would send both). Any
 * other read is a positional one.
 *
 * <p>When the fail-fast stream cannot be opened, the reads are {@code fallback}'s.
 */
final class FailFastPreads implements PositionedReadable, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FailFastPreads.class);
  /** How long a read waits for a stream's read under way before it, before it reads by itself. */
  private static final long FOLLOW_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);
  /**
   * How long a read waits for the reads between an idle stream and itself to come: long
   * enough for the rebuilds' other threads to be scheduled, short because a read between
   * may never come (its piece was in memory), and the stream then skips ahead.
   */
  private static final long BETWEEN_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  /** How many reads' lengths ahead of a stream a read may be and still wait for it. */
  private static final int FOLLOW_AHEAD = 8;
  /** Ends of the last reads looked at for a run to continue. */
  private static final int RECENT_ENDS = 16;

  /** A stream reading on from where its last read ended. Guarded by the outer lock, but for {@code in}'s reads. */
  private static final class Cursor {
    /** Its stream; null while it is being opened (it is busy then). */
    DFSInputStream in;
    /** The block it reads. */
    long block = -1;
    /** Where its next read would continue the run without a new block read. */
    long next = -1;
    /** A read is under way (its reader holds the stream). */
    boolean busy;
    /** When it was last used, for the pick of a stream to move. */
    long used;

  }

  private final SequentialReader.Opener opener;
  private final PositionedReadable fallback;
  private final Warnings warnings;
  private final int maxCursors;
  private final long blockSize;
  private PositionedReadable stream;
  private DFSInputStream opened;
  private boolean closed;
  /** @GuardedBy("this") */
  private final List<Cursor> cursors = new ArrayList<>();
  /**
   * Where recent reads not continuing a stream end (noted as they begin), a ring: a read
   * beginning at one of them is a run, and goes on in a stream. @GuardedBy("this")
   */
  private final long[] ends = new long[RECENT_ENDS];
  private int endAt;
  /** Reads served by a stream continuing a run (for tests and the close's DEBUG line). @GuardedBy("this") */
  private long streamedReads;
  private long useClock;

  FailFastPreads(SequentialReader.Opener opener, PositionedReadable fallback, Warnings warnings) {
    this(opener, fallback, warnings, 0, Long.MAX_VALUE);
  }

  /**
   * As above; {@code maxCursors}: streams for runs of reads of a block (0: every read
   * positional), one per block of {@code blockSize} bytes at a time.
   */
  FailFastPreads(SequentialReader.Opener opener, PositionedReadable fallback, Warnings warnings, int maxCursors,
      long blockSize) {
    this.opener = opener;
    this.fallback = fallback;
    this.warnings = warnings;
    this.maxCursors = maxCursors;
    this.blockSize = blockSize;
    java.util.Arrays.fill(ends, -1);
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
    PositionedReadable s = stream();
    Cursor c = length > 0 && s == opened ? claim(position, length) : null;
    if (c == null) {
      s.readFully(position, buffer, offset, length);
      return;
    }
    boolean done = false;
    try {
      if (c.in.getPos() != position) {
        c.in.seek(position);
      }
      for (int off = 0; off < length; ) {
        int n = c.in.read(buffer, offset + off, length - off);
        if (n < 0) {
          throw new EOFException("End of file reached before reading fully: " + length + " bytes at " + position);
        }
        off += n;
      }
      done = true;
    } finally {
      release(c, done);
    }
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }

  /** Number of reads a stream served by going on from the read before (for tests). */
  synchronized long streamedReads() {
    return streamedReads;
  }

  /**
   * A stream for the read of {@code length} bytes at {@code position}, now the caller's,
   * or null: read it positionally. The stream of the block {@code position} is in, if it
   * stands at {@code position} or a little before it: a read under way, or reads of the
   * subblocks between, that other threads of the same rebuilds are about to make, are
   * waited for (briefly: a read between may never come, served from memory). Else, when
   * an earlier read of the block ends there (a run), an idle stream moved to it, or a new
   * one.
   */
  private Cursor claim(long position, int length) throws IOException {
    if (maxCursors <= 0) {
      return null;
    }
    long block = position / blockSize;
    Cursor fresh = null;
    synchronized (this) {
      long began = System.nanoTime();
      while (true) {
        if (closed) {
          throw new IOException("Stream closed");
        }
        Cursor mine = null;
        for (Cursor c : cursors) {
          if (c.block == block) {
            mine = c;
            break;
          }
        }
        if (mine == null || mine.next > position || position - mine.next > FOLLOW_AHEAD * (long) length) {
          break; // no stream of the block, or not near enough behind: see below
        }
        if (!mine.busy && mine.next == position) {
          return take(mine, position, length);
        }
        long waited = System.nanoTime() - began;
        long left = (mine.busy ? FOLLOW_WAIT_NANOS : BETWEEN_WAIT_NANOS) - waited;
        if (left <= 0) {
          if (mine.busy) {
            return null;
          }
          return take(mine, position, length); // the reads between did not come: the stream skips them
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while waiting for a rebuild's read");
        }
      }
      boolean run = endedAt(position);
      ends[endAt] = position + length; // this read's end, before it is made: the next one may follow
      endAt = (endAt + 1) % ends.length;
      if (!run) {
        return null; // not a run (yet): one positional read
      }
      Cursor idle = null;
      for (Cursor c : cursors) {
        if (c.block == block) {
          if (c.busy) {
            return null; // the block's stream is elsewhere in it: this read out of its run goes positionally
          }
          idle = c;
          break;
        }
        if (!c.busy && (idle == null || c.used < idle.used)) {
          idle = c;
        }
      }
      if (idle != null && (idle.block == block || cursors.size() >= maxCursors)) {
        return take(idle, position, length);
      }
      if (cursors.size() >= maxCursors) {
        return null;
      }
      fresh = new Cursor(); // busy, in the list while it opens: the reads after this one wait for it
      cursors.add(fresh);
      take(fresh, position, length);
    }
    DFSInputStream in = null;
    try {
      in = opener.open();
    } catch (IOException | RuntimeException | LinkageError e) {
      LOG.debug("a rebuild's stream could not be opened; reading positionally: {}", e.toString());
    }
    synchronized (this) {
      fresh.in = in;
    }
    if (in == null) {
      release(fresh, false);
      return null;
    }
    return fresh;
  }

  /** @GuardedBy("this") */
  private Cursor take(Cursor c, long position, int length) {
    if (c.next == position) {
      streamedReads++;
    }
    c.block = position / blockSize;
    c.busy = true;
    c.next = position + length; // where the read under way ends: a read beginning there waits for it
    c.used = ++useClock;
    return c;
  }

  /** @GuardedBy("this") */
  private boolean endedAt(long position) {
    for (long e : ends) {
      if (e == position) {
        return true;
      }
    }
    return false;
  }

  private void release(Cursor c, boolean done) {
    boolean drop;
    synchronized (this) {
      c.busy = false;
      drop = closed || !done;
      if (drop) {
        cursors.remove(c); // failed: its stream may be broken; a later run opens another
      }
      notifyAll();
    }
    if (drop && c.in != null) {
      closeQuietly(c.in);
    }
  }

  private static void closeQuietly(DFSInputStream in) {
    try {
      in.close();
    } catch (IOException | RuntimeException e) {
      // a stream of reads made for rebuilds: nothing depends on its close
    }
  }

  @Override
  public void close() throws IOException {
    DFSInputStream s;
    List<Cursor> idle = new ArrayList<>();
    synchronized (this) {
      if (LOG.isDebugEnabled() && !closed && maxCursors > 0) {
        LOG.debug("closed: {} of a rebuild's reads went on in a stream ({} streams)", streamedReads,
            cursors.size());
      }
      closed = true;
      s = opened;
      opened = null;
      for (Cursor c : cursors) {
        if (!c.busy) {
          idle.add(c); // a busy one is closed by its reader on release
        }
      }
      cursors.removeAll(idle);
      notifyAll();
    }
    for (Cursor c : idle) {
      closeQuietly(c.in);
    }
    if (s != null) {
      s.close();
    }
  }
}
