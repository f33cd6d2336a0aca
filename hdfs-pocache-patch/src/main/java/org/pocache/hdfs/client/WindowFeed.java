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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.pocache.cache.DaemonThreads;
import org.pocache.coder.layout.SubblockAddress;

/**
 * A {@link SequentialReader}'s window as its streamer sees it: which read to make next, how
 * far ahead of the caller it may go, and what a read's outcome means for the slot, its
 * block and the deadlines. The streamer's thread ({@link WindowStreamer}, started on the
 * caller's first read) does the I/O; everything here runs under the window's lock.
 *
 * <p>The read-ahead does not run into the next block: a task's split is one block and its
 * record reader reads only a little past the boundary (to the end of its last record), so
 * past it the streamer reads the next block's first {@link ReadWindow#CHUNK} bytes and
 * waits until the caller gets there; read further, those bytes would cost the next
 * block's DataNode (and the task reading that block) time for nothing. Within a block the
 * read-ahead ramps up: the streamer runs at most as far ahead of the caller as the caller
 * has read of the block (at least a chunk), so a reader of whole files gets the whole
 * window a few subblocks into each block.
 */
final class WindowFeed implements WindowStreamer.Window {
  private final ReadWindow w;
  private final WindowRebuilds rebuilds;
  private final DegradedReader reports;
  private final SequentialReader.Opener opener;
  private final LongConsumer uncount;
  /** Bytes the streamer has read from HDFS. */
  private final AtomicLong streamedBytes = new AtomicLong();

  WindowFeed(ReadWindow w, WindowRebuilds rebuilds, DegradedReader reports, SequentialReader.Opener opener,
      LongConsumer uncount) {
    this.w = w;
    this.rebuilds = rebuilds;
    this.reports = reports;
    this.opener = opener;
    this.uncount = uncount;
  }

  /** Starts the streamer's thread unless it runs already or the reader is closed. @GuardedBy("lock") */
  void ensureStreamer() {
    if (w.streamer == null && !w.closed) {
      Thread t = DaemonThreads.daemon(new WindowStreamer(this, opener, uncount, w.fileLength, ReadWindow.PIECE,
          streamedBytes), "pocache-stream");
      w.streamer = t;
      t.start();
    }
  }

  /** Bytes the streamer has read from HDFS so far. */
  long streamedBytes() {
    return streamedBytes.get();
  }

  @Override
  public WindowStreamer.Claim claim() throws InterruptedException {
    synchronized (w.lock) {
      long idleSince = 0;
      WindowSlot slot;
      while (true) {
        if (w.closed) {
          return null;
        }
        slot = next();
        if (slot != null) {
          break;
        }
        if (idleSince == 0) {
          idleSince = System.nanoTime();
        }
        // Held back by the read-ahead limit, the caller's progress wakes it (a moved
        // window or a close wakes it anyway).
        w.wakeStreamerAt = w.limitedAt >= 0 ? w.callerPos + ReadWindow.CHUNK / 4 : Long.MAX_VALUE;
        w.streamerWaiting = true;
        try {
          w.lock.wait();
        } finally {
          w.streamerWaiting = false;
        }
      }
      if (slot.streamStart == 0) {
        slot.streamStart = System.nanoTime();
      } else if (idleSince != 0) {
        // Paused inside this slot at the read-ahead limit: the pause is not the DataNode's time.
        slot.streamStart += System.nanoTime() - idleSince;
      }
      return new WindowStreamer.Claim(slot, w.epoch, Math.min(ReadWindow.CHUNK, slot.len - slot.filled));
    }
  }

  @Override
  public void landed(WindowStreamer.Claim c, int n, IOException error) {
    WindowSlot slot = c.slot;
    synchronized (w.lock) {
      if (w.epoch != c.epoch || slot.g != c.g) {
        return; // the window moved while this read ran: its bytes are not wanted
      }
      if (error != null) {
        slot.error = error;
        slot.skipStream = true; // until the caller decides (rebuild or throw)
        w.verdicts.streamFailed(w.blockOf(slot.g)); // its DataNodes failed (the stream gives up at once)
      } else {
        slot.filled += n;
        if (slot.firstBytesAt == 0 && n > 0) {
          slot.firstBytesAt = System.nanoTime();
          slot.firstFilled = slot.filled;
        }
        if (slot.filled == slot.len) {
          streamedWhole(slot);
        }
      }
      w.lock.notifyAll();
    }
  }

  @Override
  public void openFailed(IOException e) {
    synchronized (w.lock) {
      w.openFailure = e;
      w.lock.notifyAll();
    }
  }

  @Override
  public void failed(Throwable t) {
    synchronized (w.lock) {
      for (WindowSlot s : w.slots()) {
        if (!s.complete() && s.error == null) {
          s.error = new IOException("read-ahead failed", t);
        }
      }
      w.lock.notifyAll();
    }
  }

  @Override
  public void exited() {
    synchronized (w.lock) {
      w.streamer = null;
      if (w.closed) {
        w.releasePieces();
      }
    }
  }

  /** The streamer read the whole of a slot: timed, unless a rebuild had served it first. @GuardedBy("lock") */
  private void streamedWhole(WindowSlot slot) {
    long took = System.nanoTime() - slot.streamStart;
    SubblockAddress a = w.layout.locate(slot.start);
    long block = w.blockOf(slot.g);
    if (slot.rebuilt == null) {
      w.deadlines.learn(took);
      w.countSubstripe(false);
      w.verdicts.onTime(block);
      reports.streamed(a.stripe, a.dataIndex, slot.len, took, false, slot.rebuilding);
      if (slot.rebuilding) {
        // The stream beat a rebuild: its DataNode serves, the rebuild waited on another.
        rebuilds.streamedAfterAll(block);
      }
    } else if (w.verdicts.leftToParity(block)) {
      reports.streamed(a.stripe, a.dataIndex, slot.len, took, true); // late: the rebuild served
    }
  }

  /**
   * How far ahead of the caller the streamer may read: as far past the caller as the
   * caller has read of its block (at least a chunk), and at most one chunk into the
   * next block (see the class comment). @GuardedBy("lock")
   */
  private long readAheadLimit() {
    long blockSize = w.layout.blockSize();
    long blockStart = w.callerPos / blockSize * blockSize;
    long limit = w.callerPos + Math.max(ReadWindow.CHUNK, w.callerPos - blockStart);
    return Math.min(limit, blockStart + blockSize + ReadWindow.CHUNK);
  }

  /** The first slot of the window the streamer should read, or null. @GuardedBy("lock") */
  private WindowSlot next() {
    if (w.head < 0) {
      return null;
    }
    w.limitedAt = -1;
    long callerBlock = w.blockOf(w.head);
    long limit = readAheadLimit();
    for (long x = w.head; x < w.head + w.window; x++) {
      WindowSlot s = w.slotOf(x);
      if (s.g != x || !s.wantsStream()) {
        continue;
      }
      if (s.start + s.filled >= limit) {
        w.limitedAt = s.start + s.filled;
        return null;
      }
      long block = w.blockOf(x);
      if (block != callerBlock && w.verdicts.leftToParity(block)) {
        return null;
      }
      return s;
    }
    return null;
  }
}
