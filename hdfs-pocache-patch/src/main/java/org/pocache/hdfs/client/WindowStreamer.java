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

import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that fills a {@link SequentialReader}'s window: it asks the window for the next
 * read to make ({@link Window#claim}), reads it into the slot's piece through its own
 * {@link DFSInputStream} (a fail-fast one: where no DataNode of a block answers it fails at
 * once instead of retrying), exactly as HDFS's block reader streams a block, and hands the
 * outcome back ({@link Window#landed}). Which slot to read, when to wait and what a read
 * means are the window's; this class only does the I/O. Its stream is its thread's alone.
 */
final class WindowStreamer implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(WindowStreamer.class);

  /** What the streamer asks of the window (each call takes the window's lock). */
  interface Window {
    /** The next read to make, waiting while there is none; null once the reader is closed. */
    Claim claim() throws InterruptedException;

    /** The read of {@code c} ended: {@code n} bytes landed in its slot's piece, or it failed with {@code error}. */
    void landed(Claim c, int n, IOException error);

    /** The stream could not be opened: the caller goes back to HDFS's own stream. */
    void openFailed(IOException e);

    /** The streamer stops on an error of its own (not of a DataNode's). */
    void failed(Throwable t);

    /** The streamer's thread ends. */
    void exited();
  }

  /** One read the streamer makes: up to {@code want} bytes of slot {@code slot} from {@code from}. */
  static final class Claim {
    final WindowSlot slot;
    /** The window's epoch and the slot's subblock when claimed: a read for an older window is dropped. */
    final long epoch;
    final long g;
    final int from;
    final int want;

    Claim(WindowSlot slot, long epoch, int want) {
      this.slot = slot;
      this.epoch = epoch;
      this.g = slot.g;
      this.from = slot.filled;
      this.want = want;
    }
  }

  private final Window window;
  private final SequentialReader.Opener opener;
  private final LongConsumer uncount;
  private final long fileLength;
  private final int piece;
  /** Bytes read from HDFS so far. */
  private final AtomicLong streamedBytes;
  private DFSInputStream stream;
  /** Where the stream stands, -1 before it is opened. */
  private long streamPos = -1;

  /**
   * @param uncount takes the bytes read off the FileSystem statistics of this thread (the caller
   *     counts what it takes on its own thread)
   * @param piece the length of a slot's piece arrays
   */
  WindowStreamer(Window window, SequentialReader.Opener opener, LongConsumer uncount, long fileLength, int piece,
      AtomicLong streamedBytes) {
    this.window = window;
    this.opener = opener;
    this.uncount = uncount;
    this.fileLength = fileLength;
    this.piece = piece;
    this.streamedBytes = streamedBytes;
  }

  @Override
  public void run() {
    try {
      while (true) {
        Claim c = window.claim();
        if (c == null) {
          return;
        }
        int n;
        IOException error = null;
        try {
          if (stream == null) {
            try {
              stream = opener.open();
            } catch (IOException e) {
              window.openFailed(e);
              return;
            }
          }
          n = read(c);
        } catch (IOException e) {
          n = 0;
          error = e;
          closeStream(); // reopen afresh next time (HDFS's own retries already ran)
        }
        window.landed(c, n, error);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | LinkageError e) {
      LOG.warn("POCache's sequential read-ahead stopped; reads of this stream wait for HDFS", e);
      window.failed(e);
    } finally {
      closeStream();
      window.exited();
    }
  }

  private int read(Claim c) throws IOException {
    long at = c.slot.start + c.from;
    if (streamPos != at) {
      stream.seek(at);
      streamPos = at;
    }
    int n = stream.read(c.slot.pieces[c.from / piece], c.from % piece, Math.min(c.want, piece - c.from % piece));
    if (n < 0) {
      throw new EOFException("end of file at " + at + ", expected " + fileLength + " bytes");
    }
    streamPos += n;
    streamedBytes.addAndGet(n);
    uncount.accept(n);
    return n;
  }

  private void closeStream() {
    DFSInputStream s = stream;
    stream = null;
    streamPos = -1;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        LOG.debug("closing the read-ahead stream: {}", e.toString());
      }
    }
  }
}
