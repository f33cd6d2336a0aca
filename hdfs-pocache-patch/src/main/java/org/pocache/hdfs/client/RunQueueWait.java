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
import java.io.RandomAccessFile;

/**
 * How long the calling thread has waited for a core so far: runnable, on a run queue,
 * while other threads ran (the second field of Linux's {@code /proc/thread-self/schedstat},
 * in nanoseconds). A read of a healthy DataNode that took long because its reader was not
 * running says nothing about the DataNode; on a host whose cores are all busy it is the
 * reader's own CPU that is short, and a rebuild from parity would only ask more of it.
 *
 * <p>About a microsecond a look (one positioned read of a file the thread keeps open).
 * Where the file cannot be read (not Linux, a kernel without schedstats) {@link #nanos()}
 * returns -1 from then on, and times are taken as they are.
 */
final class RunQueueWait {
  private static final String PATH = "/proc/thread-self/schedstat";

  /** False once the file could not be opened or read: nothing is looked at again. */
  private static volatile boolean available = true;

  /** Each thread's own file (/proc/thread-self names the thread that opens it) and buffer. */
  private static final ThreadLocal<Reader> READERS = new ThreadLocal<>();

  /** One thread's open file and the buffer its reads go into. */
  private static final class Reader {
    final RandomAccessFile file;
    final byte[] buffer = new byte[96];

    Reader(RandomAccessFile file) {
      this.file = file;
    }
  }

  private RunQueueWait() {
  }

  /** The calling thread's run-queue wait so far in nanoseconds, or -1 if unknown. */
  static long nanos() {
    if (!available) {
      return -1;
    }
    try {
      Reader r = READERS.get();
      if (r == null) {
        r = new Reader(new RandomAccessFile(PATH, "r"));
        READERS.set(r);
      }
      r.file.seek(0);
      int n = r.file.read(r.buffer, 0, r.buffer.length);
      long v = parse(r.buffer, n);
      if (v < 0) {
        available = false;
      }
      return v;
    } catch (IOException | SecurityException e) {
      available = false;
      return -1;
    }
  }

  /**
   * The second of the space-separated decimal fields in {@code b[0..n)}, or -1 if there is
   * none. Package-private for tests.
   */
  static long parse(byte[] b, int n) {
    int i = 0;
    while (i < n && b[i] != ' ') {
      if (b[i] < '0' || b[i] > '9') {
        return -1;
      }
      i++;
    }
    if (i == 0 || i >= n) {
      return -1;
    }
    i++;
    long v = 0;
    int digits = 0;
    while (i < n && b[i] >= '0' && b[i] <= '9') {
      v = v * 10 + (b[i] - '0');
      digits++;
      i++;
    }
    if (digits == 0 || digits > 18) {
      return -1;
    }
    return v;
  }
}
