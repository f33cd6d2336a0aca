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
package org.pocache.hdfs.client.write;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DFSStripedOutputStream;
import org.pocache.cache.ParityStore;
import org.pocache.coder.ErasureCoder;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.pocache.manager.CacheExclusions;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ParitySeals;
import org.pocache.manager.protocol.WriteAdmission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write side of a FileSystem: decides whether a file HDFS has just created is cached
 * on write, and if so wraps HDFS's stream in a {@link PoCacheOutputStream} that encodes
 * the parity as the bytes go by. A replicated file is cached only from min(min.blocks, k)
 * full blocks, so the Manager is asked once it is longer than one block less than that
 * (a {@code _SUCCESS} marker or a small output never asks); an erasure-coded file is asked
 * about at once. Whatever fails here, the caller gets HDFS's stream back and the file is
 * written without parity.
 */
public final class CachedWrites {
  private static final Logger LOG = LoggerFactory.getLogger(CachedWrites.class);
  private static final String UNCACHED = "POCache writes files without parity";

  /** Where a write that falls back to plain HDFS is counted and said. */
  public interface Fallbacks {
    /**
     * Counts one fallback and, if {@code warn}, says it once at WARN (the FileSystem names
     * a {@link LinkageError} as a jar that does not fit the client); otherwise it only counts
     * it (this class has said it at DEBUG).
     */
    void fellBack(String what, Throwable why, boolean warn);
  }

  /** What the FileSystem lends its writes. */
  public static final class Parts {
    /** The Manager's client, made on first use; null when it cannot be made. */
    public Supplier<ManagerClient> manager;
    /** Redis; null when the client cannot reach it. */
    public Supplier<ParityStore> redis;
    public Function<ParityDescriptor, ErasureCoder> coders;
    public BufferPool buffers;
    /** Files never cached (dfs.pocache.exclude.dirs). */
    public CacheExclusions exclusions;
    /** dfs.pocache.write.min.blocks. */
    public int minBlocks;
    /** The code's k as the site files give it: says only when to ask the Manager. */
    public int codeK;
    public Fallbacks fallbacks;
  }

  private final Parts parts;
  private final AtomicLong cached = new AtomicLong();
  private final AtomicLong abandoned = new AtomicLong();
  private final AtomicLong tooShort = new AtomicLong();

  public CachedWrites(Parts parts) {
    this.parts = parts;
  }

  /**
   * The stream a writer of {@code path} gets: HDFS's own {@code hdfsOut}, or a stream that
   * also encodes the file's parity once the Manager admits it.
   */
  public FSDataOutputStream wrap(FSDataOutputStream hdfsOut, String path, long blockSize) {
    try {
      if (parts.exclusions.excludedBy(path) != null) {
        return hdfsOut; // a staging or task-attempt file: not worth a Manager call
      }
      int ask = Math.min(parts.minBlocks, parts.codeK) - 1;
      // Statistics are counted by the HDFS stream inside; the outer wrapper only tracks the position.
      if (ask > 0 && !(hdfsOut.getWrappedStream() instanceof DFSStripedOutputStream)) {
        return new FSDataOutputStream(new PoCacheOutputStream(hdfsOut, () -> admit(path), ask * blockSize,
            parts.buffers, abandoned, parts.minBlocks, tooShort), null);
      }
      PoCacheOutputStream.Admitted a = admit(path);
      if (a == null) {
        return hdfsOut;
      }
      return new FSDataOutputStream(new PoCacheOutputStream(hdfsOut, a, parts.buffers, abandoned, parts.minBlocks,
          tooShort), null);
    } catch (RuntimeException | LinkageError e) {
      parts.fallbacks.fellBack(UNCACHED, e, true);
      return hdfsOut;
    }
  }

  /** Asks the Manager to admit a file being written: null if it is not to be cached, whatever fails. */
  private PoCacheOutputStream.Admitted admit(String path) {
    try {
      ManagerClient manager = parts.manager.get();
      if (manager == null) {
        return null;
      }
      WriteAdmission a = manager.admitWrite(path, 0);
      if (!a.hasReservation()) {
        return null;
      }
      ParityDescriptor d = a.getReservation().getParity();
      long id = a.getReservation().getId();
      String unusable = ParitySeals.problem(d);
      if (unusable != null) {
        manager.abort(id, unusable);
        parts.fallbacks.fellBack(UNCACHED, new IOException(unusable), true);
        return null;
      }
      // Redis and the coder are reached when the first parity is encoded: an empty file, or one
      // too short to cache on write, needs neither.
      ParityEncoder.Parts encoderParts = new ParityEncoder.Parts() {
        @Override
        public ParityStore store() throws IOException {
          ParityStore s = parts.redis.get();
          if (s == null) {
            throw new IOException("the client cannot reach Redis");
          }
          return s;
        }

        @Override
        public ErasureCoder coder() {
          return parts.coders.apply(d);
        }
      };
      cached.incrementAndGet();
      return new PoCacheOutputStream.Admitted(id, d, encoderParts, manager);
    } catch (IOException | RuntimeException | LinkageError e) {
      if (!(e instanceof LinkageError)) {
        LOG.debug("POCache could not admit {}; writing it without parity: {}", path, e.toString());
      }
      parts.fallbacks.fellBack(UNCACHED, e, e instanceof LinkageError);
      return null;
    }
  }

  /** Writes that encoded parity (admitted by the Manager). */
  public long cached() {
    return cached.get();
  }

  /** Of those, the ones whose caching was abandoned (Redis or the Manager failed them). */
  public long abandoned() {
    return abandoned.get();
  }

  /** Writes not cached because they ended with fewer than dfs.pocache.write.min.blocks full blocks. */
  public long tooShort() {
    return tooShort.get();
  }
}
