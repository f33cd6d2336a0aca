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
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.BlockReader;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedStripedBlock;
import org.apache.hadoop.hdfs.util.StripedBlockUtil;
import org.apache.hadoop.net.NetUtils;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.hdfs.compat.HadoopCompat;

/**
 * Reads of a file's data pieces straight from its blocks (an erasure-coded file's
 * internal blocks), each asking its DataNode for exactly the bytes it needs, through a
 * block reader this class holds: so a read can tell when its first row is in (the
 * piece's pace, before the rest of a run of rows), and can stop part-way when its
 * bytes are no longer wanted, closing its connection so the DataNode stops sending.
 * HDFS's positional read can do neither.
 *
 * <p>Why not HDFS's positional read: for a range inside one cell, HDFS 3.x's striped
 * stream opens a block reader for the rest of the internal block, takes the cell and
 * closes it. The DataNode has by then sent (and read from disk) megabytes more, and the
 * connection cannot go back to the client's peer cache, so every cell costs a new
 * connection and a DataXceiver thread. Read a cell at a time, a whole 80 MiB RS-10-4
 * file made the DataNodes send 1.5 times its bytes and spend 5 times the CPU of
 * HDFS's own whole-file read, and took twice as long. Here a read asks for its range
 * only, through the stream's own {@code getBlockReader} (HDFS's block reader factory:
 * the stream's checksum, caching and short-circuit settings, the client's peer cache,
 * SASL and encryption as configured), so the connection is reused, and a piece of
 * several rows of cells, contiguous in its internal block, is one request. A
 * replicated file's piece is read from the first of its block's locations (the
 * NameNode sorts them nearest first) that has not failed a direct read.
 *
 * <p>Whatever fails here leaves the read to HDFS's positional reads (an erasure-coded
 * file's cell by cell), which refetch tokens and locations, skip dead DataNodes, try
 * other replicas and decode from the file's parity blocks: a block without a location,
 * a DataNode that failed a read (not asked directly again by this stream), a Hadoop
 * whose stream has no such method (a {@code LinkageError} disables direct reads in this
 * JVM). Each is counted, and logged once at WARN.
 */
final class DirectBlockReads {
  /** {@code DFSInputStream.getBlockReader} (protected, the same shape in Hadoop 3.1 to 3.5); null if unusable. */
  private static final Method GET_BLOCK_READER = blockReaderMethod();

  private final DFSInputStream in;
  /** HDFS's positional reads of the same stream, for what is not read directly. */
  private final PositionedReadable fallback;
  private final StripeLayout layout;
  /** Whether the file is erasure-coded (its pieces are in internal blocks). */
  private final boolean striped;
  private final int k;
  /** A row's bytes in one piece: the cell, or a replicated file's subblock. */
  private final int rowBytes;
  private final boolean viaHostname;
  private final AtomicLong fellBack;
  /** Where a fallback from direct reads is said, once. */
  private final Warnings warnings;
  /** DataNodes (transfer addresses) a direct read failed on: left to HDFS for this stream. */
  private final Set<String> failed = ConcurrentHashMap.newKeySet();
  private volatile List<LocatedBlock> blocks;
  /** Set on a LinkageError from Hadoop's classes: every piece is HDFS's to read from then on. */
  private static volatile boolean mismatched;

  /**
   * @param in the file's HDFS stream
   * @param fallback positional reads of {@code in} (as the readers count them)
   * @param striped whether the file is erasure-coded; then {@code cellSize} is its cell
   * @param fellBack counts reads left to {@code fallback} after a direct read was tried or ruled out
   * @param warnings where a fallback from direct reads is said
   */
  DirectBlockReads(DFSInputStream in, PositionedReadable fallback, StripeLayout layout, boolean striped, int k,
      int cellSize, boolean viaHostname, AtomicLong fellBack, Warnings warnings) {
    if (striped && layout.subblockSize() != cellSize) {
      throw new IllegalArgumentException("an erasure-coded file's subblock must be its cell: cell " + cellSize
          + ", subblock " + layout.subblockSize());
    }
    this.in = in;
    this.fallback = fallback;
    this.layout = layout;
    this.striped = striped;
    this.k = k;
    this.rowBytes = layout.subblockSize();
    this.viaHostname = viaHostname;
    this.fellBack = fellBack;
    this.warnings = warnings;
  }

  /** Whether a piece of several rows is one range of an internal block (else of the file). */
  boolean striped() {
    return striped;
  }

  /** What a reader of a piece learns while it reads, and how it says the read is no longer wanted. */
  interface Watch {
    /** Row {@code j0}'s cell is in the array (before the rest of a piece of several rows): its pace, early. */
    void firstCell();

    /** Whether the bytes are no longer wanted (the piece was decoded, and its read is late). */
    boolean unwanted();

    /**
     * Whether the file's cached parity can stand in for the piece: then a piece whose every
     * DataNode failed a direct read fails at once, rather than waiting in HDFS's retries
     * (seconds of back-off for a DataNode that is down, as in a restart).
     */
    default boolean rescuable() {
      return false;
    }

    /**
     * Bytes {@code [from, to)} of the array are in, and more are to come: they may be
     * passed on now rather than all at the end (called every {@link #STREAM_BYTES} or so).
     */
    default void arrived(int from, int to) {
    }
  }

  /** How many bytes a direct read takes in between two {@link Watch#arrived} calls, at least. */
  static final int STREAM_BYTES = 256 << 10;

  /**
   * Thrown by a read whose {@link Watch} said its bytes are no longer wanted: it stopped,
   * and closed its connection, so the DataNode stops sending too.
   */
  static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped(String what) {
      super(what, null, false, false);
    }
  }

  /** Whether this JVM's Hadoop lets pieces be read directly (so a piece may span rows of cells). */
  static boolean available() {
    return GET_BLOCK_READER != null;
  }

  /**
   * Reads data piece {@code i} of rows {@code j0, j0 + 1, ...} of stripe {@code s} into
   * {@code b}: {@code n} bytes, row {@code j0 + c} at {@code c * rowBytes}. Every row
   * but the last is whole (the piece is one range of its block, or internal block).
   * {@code watch} (null: none) hears of the first cell, and may stop the read between
   * packets (then it throws {@link Stopped}).
   */
  void read(long s, int j0, int i, byte[] b, int n, Watch watch) throws IOException {
    if (GET_BLOCK_READER != null && !mismatched) {
      try {
        if (readDirect(s, j0, i, b, n, watch)) {
          return;
        }
      } catch (LinkageError e) {
        mismatched = true; // a class or method of another shape: no direct reads in this JVM
        warnings.once(Warnings.MISMATCHED_JAR, e);
      }
    }
    if (!striped && watch != null && watch.rescuable() && noLocationLeft(s, j0, i)) {
      throw new IOException("every DataNode of piece " + i + " of stripe " + s + " failed a direct read of this"
          + " stream (down, or restarting): left to parity");
    }
    fellBack.incrementAndGet();
    if (!striped) {
      if (watch != null && watch.unwanted()) {
        throw new Stopped("piece " + i + " of stripe " + s + " no longer wanted");
      }
      fallback.readFully(layout.fileOffset(s, j0, i, 0), b, 0, n);
      return;
    }
    for (int c = 0, at = 0; at < n; c++, at += rowBytes) {
      int len = Math.min(rowBytes, n - at);
      if (watch != null && watch.unwanted()) {
        throw new Stopped("piece " + i + " of block group " + s + " no longer wanted");
      }
      fallback.readFully(layout.fileOffset(s, j0 + c, i, 0), b, at, len);
      if (c == 0 && watch != null) {
        watch.firstCell();
      }
    }
  }

  /**
   * Reads bytes {@code [at, at + n)} of a replicated file, all in one of its blocks, into
   * {@code b} from {@code off}: straight from the block, as a piece is (its {@code watch}
   * may stop it between packets, and hears of what {@code arrived} relative to
   * {@code off}), else by HDFS's positional read. With {@code watch.rescuable()}, a range
   * whose every DataNode failed a direct read of this stream fails at once.
   */
  void readRange(long at, byte[] b, int off, int n, Watch watch) throws IOException {
    if (striped) {
      throw new IllegalStateException("a range of an erasure-coded file is not in one block");
    }
    if (GET_BLOCK_READER != null && !mismatched) {
      try {
        if (readDirect(() -> blockAt(at), at, true, b, off, n, watch)) {
          return;
        }
      } catch (LinkageError e) {
        mismatched = true;
        warnings.once(Warnings.MISMATCHED_JAR, e);
      }
    }
    if (watch.rescuable() && noLocationLeft(at)) {
      throw new IOException("every DataNode of the block at " + at + " failed a direct read of this stream (down,"
          + " or restarting)");
    }
    fellBack.incrementAndGet();
    fallback.readFully(at, b, off, n);
  }

  /**
   * The piece read straight from its block (internal block), from the first of its
   * locations that has not failed a direct read; false if it was not (then it is
   * HDFS's to read).
   */
  private boolean readDirect(long s, int j0, int i, byte[] b, int n, Watch watch) {
    if (striped) {
      return readDirect(() -> internalBlock(s, i), (long) j0 * rowBytes, false, b, 0, n, watch);
    }
    long at = layout.fileOffset(s, j0, i, 0);
    return readDirect(() -> blockAt(at), at, true, b, 0, n, watch);
  }

  /** Finds the block a direct read is of (null: none listed). */
  private interface BlockLookup {
    LocatedBlock block() throws IOException;
  }

  /**
   * {@code n} bytes of the block {@code lookup} finds, from {@code at} (a file offset if
   * {@code inFile}, else an offset in the block), into {@code b} from {@code off}: from the
   * first of its locations that has not failed a direct read; false if it was not read
   * (then it is HDFS's to read).
   */
  private boolean readDirect(BlockLookup lookup, long at, boolean inFile, byte[] b, int off, int n, Watch watch) {
    String addr = null;
    try {
      LocatedBlock block = lookup.block();
      long offset = block == null ? 0 : inFile ? at - block.getStartOffset() : at;
      if (block == null || offset + n > block.getBlockSize()) {
        return false;
      }
      DatanodeInfo[] where = HadoopCompat.locations(block);
      StorageType[] types = block.getStorageTypes();
      for (int r = 0; where != null && r < where.length; r++) {
        String a = where[r].getXferAddr(viaHostname);
        if (!failed.contains(a)) {
          addr = a;
          readDirect(block, where[r], types != null && r < types.length ? types[r] : StorageType.DEFAULT, a,
              offset, b, off, n, watch);
          return true;
        }
      }
      return false;
    } catch (Stopped e) {
      throw e; // not a failure: nobody waits for these bytes
    } catch (IOException | RuntimeException e) {
      if (addr != null) {
        failed.add(addr);
      }
      blocks = null; // locations or tokens may have changed: HDFS's reads refetch them
      warnings.once(striped
          ? "A read of an erasure-coded file's internal block failed; such reads go through HDFS's striped"
              + " stream, cell by cell, for the rest of the stream"
          : "A direct read of a block failed; reads from its DataNode go through HDFS's positional read for"
              + " the rest of the stream", e);
      return false;
    }
  }

  /**
   * Whether every location of a replicated file's piece failed a direct read of this
   * stream (a DataNode that is down refuses at once; HDFS's own read of it would retry
   * with seconds of back-off before it gives up or the node is back), or the NameNode
   * lists none for its block.
   */
  private boolean noLocationLeft(long s, int j0, int i) {
    return noLocationLeft(layout.fileOffset(s, j0, i, 0));
  }

  /** As {@link #noLocationLeft(long, int, int)}, for the block holding file offset {@code at}. */
  private boolean noLocationLeft(long at) {
    try {
      LocatedBlock block = blockAt(at);
      DatanodeInfo[] where = block == null ? null : HadoopCompat.locations(block);
      if (block != null && (where == null || where.length == 0)) {
        return true; // none listed (its DataNodes were declared dead): HDFS's read would wait and then fail
      }
      if (where == null || failed.isEmpty()) {
        return false;
      }
      for (DatanodeInfo dn : where) {
        if (!failed.contains(dn.getXferAddr(viaHostname))) {
          return false;
        }
      }
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The block holding file offset {@code at}, or null if the stream lists none. */
  private LocatedBlock blockAt(long at) throws IOException {
    List<LocatedBlock> all = allBlocks();
    int lo = 0;
    int hi = all.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      LocatedBlock b = all.get(mid);
      if (at < b.getStartOffset()) {
        hi = mid - 1;
      } else if (at >= b.getStartOffset() + b.getBlockSize()) {
        lo = mid + 1;
      } else {
        return b;
      }
    }
    return null;
  }

  private List<LocatedBlock> allBlocks() throws IOException {
    List<LocatedBlock> all = blocks;
    if (all == null) {
      all = in.getAllBlocks();
      blocks = all;
    }
    return all;
  }

  private void readDirect(LocatedBlock internal, DatanodeInfo dn, StorageType type, String addr, long offset,
      byte[] b, int off, int n, Watch watch) throws IOException {
    BlockReader r;
    try {
      r = (BlockReader) GET_BLOCK_READER.invoke(in, internal, offset, (long) n, NetUtils.createSocketAddr(addr),
          type, dn);
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      if (t instanceof IOException) {
        throw (IOException) t;
      }
      throw new IOException("HDFS's block reader for " + internal.getBlock() + " failed", t);
    } catch (IllegalAccessException | RuntimeException e) {
      throw new IOException("HDFS's block reader for " + internal.getBlock() + " could not be made", e);
    }
    try {
      int done = 0;
      int reported = 0;
      boolean paced = watch == null;
      while (done < n) {
        if (watch != null && watch.unwanted()) {
          // Closed part-read, the connection is not reused: the DataNode's next packet fails and its read ends.
          throw new Stopped(internal.getBlock() + " on " + addr + " no longer wanted after " + done + " of " + n
              + " bytes");
        }
        int got = r.read(b, off + done, n - done);
        if (got < 0) {
          throw new EOFException(internal.getBlock() + " on " + addr + " ended after " + done + " of " + n
              + " bytes from offset " + offset);
        }
        done += got;
        if (!paced && done >= Math.min(rowBytes, n)) {
          watch.firstCell();
          paced = true;
        }
        if (watch != null && done - reported >= STREAM_BYTES && done < n) {
          watch.arrived(reported, done);
          reported = done;
        }
      }
    } finally {
      r.close(); // read to its end, its connection goes back to the client's peer cache
    }
  }

  /** Internal block {@code i} of block group {@code s}, with its one location, or null if HDFS lists none. */
  private LocatedBlock internalBlock(long s, int i) throws IOException {
    List<LocatedBlock> all = allBlocks();
    if (s >= all.size() || !(all.get((int) s) instanceof LocatedStripedBlock)) {
      return null;
    }
    LocatedStripedBlock group = (LocatedStripedBlock) all.get((int) s);
    byte[] indices = group.getBlockIndices();
    DatanodeInfo[] where = HadoopCompat.locations(group);
    for (int p = 0; p < indices.length && p < where.length; p++) {
      if (indices[p] == i) {
        LocatedBlock internal = StripedBlockUtil.constructInternalBlock(group, p, rowBytes, k, i);
        DatanodeInfo[] at = HadoopCompat.locations(internal);
        return at != null && at.length > 0 ? internal : null;
      }
    }
    return null;
  }

  private static Method blockReaderMethod() {
    try {
      Method m = DFSInputStream.class.getDeclaredMethod("getBlockReader", LocatedBlock.class, long.class, long.class,
          InetSocketAddress.class, StorageType.class, DatanodeInfo.class);
      if (!BlockReader.class.isAssignableFrom(m.getReturnType())) {
        throw new NoSuchMethodException("DFSInputStream.getBlockReader returns " + m.getReturnType().getName());
      }
      m.setAccessible(true);
      return m;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      Warnings.CLIENT.once("This Hadoop's DFSInputStream cannot read an internal block's range; erasure-coded"
          + " files' pieces are read by HDFS's striped stream, cell by cell", e);
      return null;
    }
  }
}
