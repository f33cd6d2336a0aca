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
package org.pocache.experiments;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FSDataInputStream;

/** One way of reading a whole file into memory: the read modes a baseline compares. */
public interface WholeFileRead {
  /** Fills {@code buf} (exactly the file's length) from {@code in}. */
  void read(FSDataInputStream in, byte[] buf) throws IOException;

  /** Vanilla: plain sequential {@code read()} calls, as a MapReduce record reader does. */
  static WholeFileRead sequential(int chunkBytes) {
    return (in, buf) -> {
      int off = 0;
      while (off < buf.length) {
        int n = in.read(buf, off, Math.min(chunkBytes, buf.length - off));
        if (n < 0) {
          throw new IOException("end of file after " + off + " of " + buf.length + " bytes");
        }
        off += n;
      }
    };
  }

  /**
   * One positional read per block, one after another. With hedged reads enabled on
   * the client this is HR: HDFS 3.1 hedges preads only.
   */
  static WholeFileRead blockByBlockPread(long blockSize) {
    return (in, buf) -> {
      for (long pos = 0; pos < buf.length; pos += blockSize) {
        int len = (int) Math.min(blockSize, buf.length - pos);
        in.readFully(pos, buf, (int) pos, len);
      }
    };
  }

  /**
   * One positional read of the whole file. Through PoCacheFileSystem, for a file
   * whose parity is cached, it covers every substripe and so is read proactively.
   */
  static WholeFileRead positional() {
    return (in, buf) -> in.readFully(0, buf, 0, buf.length);
  }

  /** PR: positional reads of all blocks at once, one thread per block. */
  static WholeFileRead parallelBlockPreads(long blockSize, ExecutorService pool) {
    return (in, buf) -> {
      List<Future<?>> reads = new ArrayList<>();
      for (long pos = 0; pos < buf.length; pos += blockSize) {
        final long p = pos;
        final int len = (int) Math.min(blockSize, buf.length - pos);
        reads.add(pool.submit(() -> {
          in.readFully(p, buf, (int) p, len);
          return null;
        }));
      }
      try {
        for (Future<?> f : reads) {
          f.get();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted during parallel reads", e);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        throw c instanceof IOException ? (IOException) c : new IOException(c);
      } finally {
        for (Future<?> f : reads) {
          f.cancel(true);
        }
      }
    };
  }
}
