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
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.pocache.cache.DaemonThreads;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The next blocks of a file read ahead in parallel, for a caller that reads the file front
 * to back past one block (as {@code hdfs dfs -cat} or a task with a whole-file split does).
 *
 * <p>A stream reads one block at a time from one DataNode; the k blocks of a stripe sit on
 * k different DataNodes (POCache's placement), so while the caller reads block b, blocks
 * b + 1 .. b + k - 1 are fetched at the same time, each by its own thread and its own HDFS
 * stream, and the caller takes their bytes from memory when it gets there. A block left to
 * parity (its DataNode listed, or late for this client) is not fetched: the caller's reads
 * of it are the {@link SequentialReader}'s, which rebuild it. A caller that reaches a fetch
 * not yet done takes what is in and reads the rest itself (so a slow DataNode is judged by
 * the caller's own reads, not waited on here). A fetched subblock later than the caller's
 * deadline stops its fetch and marks its DataNode slow for this client, so the caller's
 * reads of that block go to parity.
 *
 * <p>The fetches ramp up with the caller: nothing is fetched until the caller has read a
 * subblock past its run's first block (a task reads its split and only to the end of its
 * last record past it), and then each fetch may run twice as far into its block as the
 * caller has read past that first block, so a caller that stops early leaves little read
 * for nothing.
 * Memory is bounded per FileSystem ({@link Budget}): a fetch reserves its bytes up front,
 * and with the budget spent a block is not fetched (or only its first part is).
 *
 * <p>State is guarded by {@code lock}; a fetch thread writes its pieces outside the lock
 * (it is their only writer) and publishes them by raising {@code filled} under it. A
 * fetch's pieces go back to the pool only once its thread has ended.
 */
final class BlockPrefetch implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(BlockPrefetch.class);
  private static final int PIECE = SequentialReader.PIECE;

  /** Where a fetched subblock's time goes (the straggler judgement and the deadline's history). */
  interface SubblockTimer {
    /** Returns whether the subblock was on time: a late one stops its block's fetch. */
    boolean fetched(long subblockIndex, long nanos);
  }

  /** Bytes of fetched blocks a FileSystem's streams may hold together. */
  static final class Budget {
    private final AtomicLong free;

    Budget(long bytes) {
      free = new AtomicLong(bytes);
    }

    /** Reserves up to {@code want} bytes, at least {@code atLeast} or none; returns how many. */
    long reserve(long want, long atLeast) {
      while (true) {
        long f = free.get();
        long take = Math.min(want, f);
        if (take < atLeast || take <= 0) {
          return 0;
        }
        if (free.compareAndSet(f, f - take)) {
          return take;
        }
      }
    }

    void release(long bytes) {
      free.addAndGet(bytes);
    }

    long free() {
      return free.get();
    }
  }

  /** One block being fetched: bytes [start, start + filled) are in. */
  private static final class Fetch {
    final long block;
    final long start;
    /** Bytes reserved: the whole block or its first part. */
    final int len;
    final byte[][] pieces;
    /** How far the thread may read (grows with the caller). @GuardedBy("lock") */
    int allowed;
    /** @GuardedBy("lock") */
    int filled;
    /** The thread still runs (its pieces must not go back to the pool). @GuardedBy("lock") */
    boolean running = true;
    /** Dropped from the map: the thread stops, and its pieces go back once it has. @GuardedBy("lock") */
    boolean forgotten;

    Fetch(long block, long start, int len) {
      this.block = block;
      this.start = start;
      this.len = len;
      this.pieces = new byte[(len + PIECE - 1) / PIECE][];
    }
  }

  private final SequentialReader.Opener opener;
  private final long blockSize;
  private final long fileLength;
  private final int maxAhead;
  /**
   * Subblock size: the caller must have read this far past its run's first block before
   * anything is fetched, and fetched subblocks are timed at this grain.
   */
  private final int subblock;
  /** Takes the time a whole subblock took to fetch (HDFS reads only, not the waits for the caller). */
  private final SubblockTimer timer;
  private final Budget budget;
  private final BufferPool buffers;
  private final LongConsumer uncount;
  /**
   * Whether the block starting at this offset is not fetched: left to parity, or on a
   * listed DataNode the caller has not judged yet (it reads that block itself, at its pace).
   */
  private final LongPredicate notToFetch;
  /** Where a stopped read-ahead is said, once. */
  private final Warnings warnings;
  private final Object lock = new Object();
  /** Fetches by block number. @GuardedBy("lock") */
  private final Map<Long, Fetch> fetches = new HashMap<>();
  /** Blocks found not to fetch (see {@link #notToFetch}): not asked about again. @GuardedBy("lock") */
  private final java.util.Set<Long> notFetched = new java.util.HashSet<>();
  /** The block of the caller's last read here, -1 before any. @GuardedBy("lock") */
  private long lastBlock = -1;
  /** @GuardedBy("lock") */
  private boolean closed;
  private final AtomicLong fetchedBytes = new AtomicLong();

  /**
   * @param maxAhead blocks fetched ahead of the caller's (k - 1: a stripe's others)
   * @param subblock the file's subblock size: the caller must read this far past its run's
   *     first block before anything is fetched (a task's record reader reads only to the end
   *     of its last record past its split), and fetches are timed per subblock
   * @param uncount takes bytes read by a fetch thread off that thread's FileSystem statistics
   * @param timer takes each whole subblock fetched and how long its reads took
   * @param warnings where a stopped read-ahead is said
   */
  BlockPrefetch(SequentialReader.Opener opener, long blockSize, long fileLength, int maxAhead, int subblock,
      Budget budget, BufferPool buffers, LongConsumer uncount, LongPredicate notToFetch, SubblockTimer timer,
      Warnings warnings) {
    this.opener = opener;
    this.blockSize = blockSize;
    this.fileLength = fileLength;
    this.maxAhead = maxAhead;
    this.subblock = subblock;
    this.timer = timer;
    this.budget = budget;
    this.buffers = buffers;
    this.uncount = uncount;
    this.notToFetch = notToFetch;
    this.warnings = warnings;
  }

  /**
   * The caller, at {@code pos}, has read from {@code runStart} on without a jump: when that
   * is more than a block, the blocks after {@code pos}'s are fetched (or fetched further).
   */
  void ahead(long pos, long runStart) {
    long past = pos - runStart - blockSize;
    if (past < subblock) {
      return;
    }
    long allowed = Math.min(Integer.MAX_VALUE, 2 * past);
    long current = pos / blockSize;
    java.util.List<Fetch> start = null;
    synchronized (lock) {
      if (closed) {
        return;
      }
      for (long b = current + 1; b <= current + maxAhead; b++) {
        long from = b * blockSize;
        if (from >= fileLength) {
          break;
        }
        Fetch f = fetches.get(b);
        if (f == null) {
          if (notFetched.contains(b)) {
            continue;
          }
          // The budget first: asking about the straggler counts toward the list's probes, so
          // a block is asked about once, when it could be fetched.
          int want = (int) Math.min(blockSize, fileLength - from);
          int got = (int) budget.reserve(want, Math.min(want, PIECE));
          if (got == 0) {
            break; // the FileSystem's budget is spent
          }
          if (notToFetch.test(from)) {
            budget.release(got);
            notFetched.add(b);
            continue;
          }
          f = new Fetch(b, from, got);
          fetches.put(b, f);
          if (start == null) {
            start = new ArrayList<>(maxAhead);
          }
          start.add(f);
        }
        int a = (int) Math.min(f.len, allowed);
        if (a > f.allowed) {
          f.allowed = a;
          lock.notifyAll();
        }
      }
    }
    if (start != null) {
      for (Fetch f : start) {
        DaemonThreads.daemon(() -> run(f), "pocache-prefetch").start();
      }
    }
  }

  /**
   * Copies fetched bytes at {@code pos} into {@code b} (or {@code dst} if {@code b} is null);
   * returns how many, 0 when none are in at {@code pos} (the caller reads them itself). A
   * fetch the caller has reached but is not done with is stopped: the caller reads on.
   */
  int read(long pos, byte[] b, int off, int len, ByteBuffer dst) {
    synchronized (lock) {
      if (fetches.isEmpty()) {
        return 0;
      }
      long current = pos / blockSize;
      if (current != lastBlock) {
        lastBlock = current;
        for (Fetch x : new ArrayList<>(fetches.values())) {
          if (x.block < current) {
            forget(x); // behind the caller
          }
        }
      }
      Fetch f = fetches.get(current);
      if (f == null) {
        return 0;
      }
      long at = pos - f.start;
      if (at >= f.filled) {
        forget(f); // the caller got here first: it reads the rest itself
        return 0;
      }
      int i = (int) at;
      int n = (int) Math.min(Math.min(len, f.filled - i), PIECE - i % PIECE);
      byte[] piece = f.pieces[i / PIECE];
      if (b != null) {
        System.arraycopy(piece, i % PIECE, b, off, n);
      } else {
        dst.put(piece, i % PIECE, n);
      }
      return n;
    }
  }

  /** Drops a fetch: its reservation goes back now, its pieces once its thread has ended. @GuardedBy("lock") */
  private void forget(Fetch f) {
    if (f.forgotten) {
      return;
    }
    f.forgotten = true;
    fetches.remove(f.block);
    budget.release(f.len);
    if (!f.running) {
      releasePieces(f);
    }
    lock.notifyAll();
  }

  private void releasePieces(Fetch f) {
    for (int x = 0; x < f.pieces.length; x++) {
      if (f.pieces[x] != null) {
        buffers.release(f.pieces[x]);
        f.pieces[x] = null;
      }
    }
  }

  /** A fetch's thread: reads its block front to back through its own stream, as far as allowed. */
  private void run(Fetch f) {
    DFSInputStream in = null;
    long readNanos = 0;
    try {
      in = opener.open();
      in.seek(f.start);
      while (true) {
        byte[] piece;
        int from;
        int want;
        synchronized (lock) {
          while (!closed && !f.forgotten && f.filled >= f.allowed && f.filled < f.len) {
            lock.wait();
          }
          if (closed || f.forgotten || f.filled >= f.len) {
            return;
          }
          from = f.filled;
          int p = from / PIECE;
          if (f.pieces[p] == null) {
            f.pieces[p] = buffers.borrow(PIECE);
          }
          piece = f.pieces[p];
          want = Math.min(f.allowed - from, PIECE - from % PIECE);
        }
        long t0 = System.nanoTime();
        int n = in.read(piece, from % PIECE, want);
        readNanos += System.nanoTime() - t0;
        if (n < 0) {
          throw new EOFException("end of file at " + (f.start + from) + ", expected " + fileLength + " bytes");
        }
        uncount.accept(n);
        fetchedBytes.addAndGet(n);
        synchronized (lock) {
          f.filled += n;
        }
        long end = f.start + from + n;
        if (end % subblock == 0 || end == fileLength) {
          boolean onTime = timer.fetched((end - 1) / subblock, readNanos); // blocks start on subblock boundaries
          readNanos = 0;
          if (!onTime) {
            return; // a slow DataNode: what is in stays readable, the rest is the caller's (and parity's)
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      LOG.debug("prefetch of block {} stopped: {}", f.block, e.toString()); // the caller reads it itself
    } catch (RuntimeException | LinkageError e) {
      warnings.once("POCache's read-ahead of whole blocks stopped", e);
    } finally {
      if (in != null) {
        try {
          in.close();
        } catch (IOException e) {
          LOG.debug("closing a prefetch stream: {}", e.toString());
        }
      }
      synchronized (lock) {
        f.running = false;
        if (f.forgotten) {
          releasePieces(f);
        } else if (f.filled < f.len) {
          // Stopped early (an error, or closed): what is in stays readable; the rest is the caller's.
          lock.notifyAll();
        }
      }
    }
  }

  /**
   * Copies fetched file bytes {@code [at, at + n)} into {@code b} and returns true if all of
   * them are in: a rebuild of the caller's block takes the other blocks' pieces from here
   * rather than read them from their DataNodes a second time.
   */
  boolean copy(long at, byte[] b, int n) {
    synchronized (lock) {
      Fetch f = closed ? null : fetches.get(at / blockSize);
      if (f == null || f.forgotten || at < f.start || at - f.start + n > f.filled) {
        return false;
      }
      int i = (int) (at - f.start);
      int done = 0;
      while (done < n) {
        int c = Math.min(n - done, PIECE - (i + done) % PIECE);
        System.arraycopy(f.pieces[(i + done) / PIECE], (i + done) % PIECE, b, done, c);
        done += c;
      }
      return true;
    }
  }

  /** Whether block {@code block} is being fetched (or was, and is still held). */
  boolean fetching(long block) {
    synchronized (lock) {
      return fetches.containsKey(block);
    }
  }

  /** Bytes the fetch threads have read (for tests). */
  long fetchedBytes() {
    return fetchedBytes.get();
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      for (Fetch f : new ArrayList<>(fetches.values())) {
        forget(f);
      }
    }
  }
}
