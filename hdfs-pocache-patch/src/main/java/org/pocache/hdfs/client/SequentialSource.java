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
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * What serves a {@link PoCacheInputStream}'s sequential reads once they are not HDFS's
 * own stream's: the {@link SequentialReader} of a replicated file, the
 * {@link StripedReadAhead} of an erasure-coded one. The stream keeps the caller's
 * position and calls in with its lock held, one read at a time.
 */
interface SequentialSource extends Closeable {
  /**
   * Copies up to {@code len} (&gt; 0) bytes from file offset {@code pos} (inside the file)
   * into {@code b}; returns how many (at least 1). Throws {@link SequentialReader.FallBack}
   * when HDFS's stream is to serve from {@code pos} on.
   */
  int read(long pos, byte[] b, int off, int len) throws IOException;

  /** As {@link #read(long, byte[], int, int)}, into {@code dst}'s remaining bytes. */
  int read(long pos, ByteBuffer dst) throws IOException;

  /** Lets go of what it holds ahead of the caller (the caller unbuffered); reads go on as before. */
  default void release() {
  }

  /** Stops reading ahead; reads still under way finish into their own buffers. */
  @Override
  void close();
}
