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

import org.pocache.hdfs.client.read.Piece;

/**
 * Keeps reads that finish after a positional read returned out of the caller's
 * buffer: a read copies its piece in only between {@link #beginCopy} and
 * {@link #endCopy}, and only while the guard is open; {@link #closeAndAwait} shuts it
 * and waits for the copies under way (about a millisecond each), after which the
 * buffer is the caller's alone.
 */
final class CallerBufferGuard {
  private boolean closed;
  /** Copies into the caller's buffer under way now. */
  private int copying;

  /** Whether a read that arrived may copy into the caller's buffer now. */
  synchronized boolean beginCopy() {
    if (closed) {
      return false;
    }
    copying++;
    return true;
  }

  /** A copy begun with {@link #beginCopy} ended; {@code whole}: all of {@code p} is in the caller's buffer. */
  synchronized void endCopy(Piece p, boolean whole) {
    p.copiedWhole(whole);
    endCopy();
  }

  /** A copy of part of a piece, begun with {@link #beginCopy}, ended. */
  synchronized void endCopy() {
    if (--copying == 0) {
      notifyAll();
    }
  }

  /** No copy starts after this, and the ones under way have ended when it returns. */
  synchronized void closeAndAwait() {
    closed = true;
    boolean interrupted = false;
    while (copying > 0) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true; // the copies end by themselves; the caller's buffer must be ours first
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
