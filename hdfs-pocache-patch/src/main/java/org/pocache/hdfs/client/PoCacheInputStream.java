package org.pocache.hdfs.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanSetDropBehind;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.HasEnhancedByteBufferAccess;
import org.apache.hadoop.fs.ReadOption;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.io.ByteBufferPool;

/**
 * The stream {@link PoCacheFileSystem#open} returns for a file whose parity is
 * cached. Positional reads that cover whole substripes go through the
 * {@link ProactiveReader} (k data reads plus parity at once, first k win); other
 * positional reads are the HDFS stream's. For a replicated (contiguous) file,
 * sequential reads go one data subblock at a time through the {@link DegradedReader}
 * (read directly; rebuilt from parity when the DataNode is a known straggler or
 * late), with this stream keeping the position; for an erasure-coded file they are
 * the HDFS stream's (which already reads a row's cells in parallel). Everything else
 * (unbuffer, readahead, drop-behind, zero-copy reads) is the HDFS stream's. On
 * close a read report goes to the Manager.
 */
final class PoCacheInputStream extends FSInputStream
    implements ByteBufferReadable, CanSetDropBehind, CanSetReadahead, CanUnbuffer, HasEnhancedByteBufferAccess {
  private final DFSInputStream in;
  private final ProactiveReader proactive;
  /** Null: sequential reads are the HDFS stream's. */
  private final DegradedReader degraded;
  private final long fileLength;
  private long pos;
  /** The data subblock last read for sequential reads: file range [subStart, subStart + subLen). */
  private byte[] sub;
  private long subStart = -1;
  private int subLen;
  private final ProactiveReader.Outcome outcome = new ProactiveReader.Outcome();
  private final Consumer<ProactiveReader.Outcome> onClose;
  private boolean closed;

  PoCacheInputStream(DFSInputStream in, ProactiveReader proactive, DegradedReader degraded,
      Consumer<ProactiveReader.Outcome> onClose) {
    this.in = in;
    this.proactive = proactive;
    this.degraded = degraded;
    this.fileLength = in.getFileLength();
    this.onClose = onClose;
  }

  // --- positional reads: proactive where whole substripes are covered ---------------

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    long fileLength = in.getFileLength();
    if (position < 0 || position >= fileLength) {
      return in.read(position, buffer, offset, length); // HDFS's own answer (-1 or an error)
    }
    int n = (int) Math.min(length, fileLength - position);
    readFully(position, buffer, offset, n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    try {
      readFullyWithParity(position, buffer, offset, length);
    } catch (RuntimeException e) {
      // A cache-side bug or an inconsistent descriptor must not fail the read: HDFS answers.
      outcome.cacheErrorSeen();
      in.readFully(position, buffer, offset, length);
    }
  }

  private void readFullyWithParity(long position, byte[] buffer, int offset, int length) throws IOException {
    if (length == 0 || position < 0 || position + length > fileLength) {
      in.readFully(position, buffer, offset, length); // HDFS's own answer, or its error
      return;
    }
    if (offset < 0 || length < 0 || length > buffer.length - offset) {
      throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + ", buffer " + buffer.length);
    }
    List<long[]> covered = proactive.covered(position, length);
    if (covered.isEmpty() && degraded == null) {
      in.readFully(position, buffer, offset, length);
      return;
    }
    // Parts of subblocks outside the covered substripes: degraded reads of a cached
    // stripe of a replicated file (raced by a rebuild when late), else plain preads.
    java.util.Set<Long> whole = new java.util.HashSet<>();
    for (long[] ss : covered) {
      whole.add(ss[0] << 32 | ss[1]);
    }
    ProactiveReader.Outcome mine = new ProactiveReader.Outcome();
    try {
      IOException[] failure = {null};
      proactive.layout().forEachPiece(position, length, (at, fileOffset, len) -> {
        if (failure[0] == null && !whole.contains(at.stripe << 32 | at.substripe)) {
          int into = offset + (int) (fileOffset - position);
          try {
            if (degraded != null && proactive.isCached(at.stripe)) {
              degraded.readRange(at.stripe, at.substripe, at.dataIndex, at.offset, len, buffer, into, mine);
              mine.substripes++;
            } else {
              in.readFully(fileOffset, buffer, into, len);
            }
          } catch (IOException e) {
            failure[0] = e;
          }
        }
      });
      if (failure[0] != null) {
        throw failure[0];
      }
      if (!covered.isEmpty()) {
        proactive.read(covered, position, buffer, offset, mine);
      }
    } finally {
      outcome.add(mine); // concurrent preads on one stream each keep their own, merged here
    }
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }

  // --- everything else is the HDFS stream's -------------------------------------------

  @Override
  public synchronized int read() throws IOException {
    if (degraded == null) {
      return in.read();
    }
    byte[] one = new byte[1];
    return read(one, 0, 1) <= 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    if (degraded == null) {
      return in.read(b, off, len);
    }
    if (off < 0 || len < 0 || len > b.length - off) {
      throw new IndexOutOfBoundsException("offset " + off + ", length " + len + ", buffer " + b.length);
    }
    int n = ready(len);
    if (n > 0) {
      System.arraycopy(sub, (int) (pos - subStart), b, off, n);
      pos += n;
    }
    return n;
  }

  /**
   * Makes the subblock holding {@code pos} current and returns how many of the
   * {@code wanted} bytes it can give from {@code pos}: 0 if none are wanted, -1 at
   * the end of the file.
   */
  private int ready(int wanted) throws IOException {
    if (wanted == 0) {
      return 0;
    }
    if (closed) {
      throw new IOException("Stream closed");
    }
    if (pos >= fileLength) {
      return -1;
    }
    if (pos < subStart || pos >= subStart + subLen) {
      fill();
    }
    return (int) Math.min(wanted, subStart + subLen - pos);
  }

  /** Loads the data subblock holding {@code pos}, through the degraded reader. */
  private void fill() throws IOException {
    org.pocache.coder.layout.SubblockAddress a = proactive.layout().locate(pos);
    if (sub == null) {
      sub = new byte[proactive.layout().subblockSize()];
    }
    long start = pos - a.offset;
    subStart = -1;
    ProactiveReader.Outcome mine = new ProactiveReader.Outcome();
    try {
      if (proactive.isCached(a.stripe)) {
        try {
          subLen = degraded.readSubblock(a.stripe, a.substripe, a.dataIndex, sub, mine);
          mine.substripes++;
        } catch (RuntimeException e) {
          mine.cacheError = true; // the cache side failed: read the subblock from HDFS
          subLen = layoutStored(a);
          in.readFully(start, sub, 0, subLen);
        }
      } else {
        subLen = layoutStored(a);
        in.readFully(start, sub, 0, subLen);
      }
    } finally {
      outcome.add(mine);
    }
    subStart = start;
  }

  private int layoutStored(org.pocache.coder.layout.SubblockAddress a) {
    return proactive.layout().storedLength(a.stripe, a.substripe, a.dataIndex);
  }

  @Override
  public int read(ByteBuffer buf) throws IOException {
    if (degraded == null) {
      return in.read(buf);
    }
    synchronized (this) {
      if (buf.hasArray()) {
        int n = read(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
        if (n > 0) {
          buf.position(buf.position() + n);
        }
        return n;
      }
      int n = ready(buf.remaining());
      if (n > 0) {
        buf.put(sub, (int) (pos - subStart), n); // straight from the subblock: no array per call
        pos += n;
      }
      return n;
    }
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    if (degraded == null) {
      in.seek(target);
      return;
    }
    if (target < 0) {
      throw new java.io.EOFException("Cannot seek to negative offset");
    }
    if (target > fileLength) {
      throw new java.io.EOFException("Cannot seek after EOF");
    }
    if (closed) {
      throw new IOException("Stream closed");
    }
    pos = target;
  }

  @Override
  public synchronized long getPos() throws IOException {
    return degraded == null ? in.getPos() : pos;
  }

  @Override
  public synchronized boolean seekToNewSource(long targetPos) throws IOException {
    if (degraded == null) {
      return in.seekToNewSource(targetPos);
    }
    return false; // every subblock read picks its source afresh
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    if (degraded == null) {
      return in.skip(n);
    }
    if (n <= 0) {
      return 0;
    }
    long to = Math.min(fileLength, pos + n);
    long skipped = to - pos;
    pos = to;
    return skipped;
  }

  @Override
  public synchronized int available() throws IOException {
    if (degraded == null) {
      return in.available();
    }
    if (closed) {
      throw new IOException("Stream closed");
    }
    return (int) Math.min(Integer.MAX_VALUE, fileLength - pos);
  }

  @Override
  public void setReadahead(Long readahead) throws IOException {
    in.setReadahead(readahead);
  }

  @Override
  public void setDropBehind(Boolean dropBehind) throws IOException {
    in.setDropBehind(dropBehind);
  }

  @Override
  public synchronized void unbuffer() {
    sub = null;
    subStart = -1;
    in.unbuffer();
  }

  @Override
  public synchronized ByteBuffer read(ByteBufferPool bufferPool, int maxLength, EnumSet<ReadOption> opts)
      throws IOException {
    if (degraded == null) {
      return in.read(bufferPool, maxLength, opts);
    }
    in.seek(pos); // zero-copy reads are HDFS's own: hand it this stream's position and take it back
    ByteBuffer b = in.read(bufferPool, maxLength, opts);
    pos = in.getPos();
    return b;
  }

  @Override
  public void releaseBuffer(ByteBuffer buffer) {
    in.releaseBuffer(buffer);
  }

  /** The HDFS stream underneath (read statistics, file length). */
  DFSInputStream hdfsStream() {
    return in;
  }

  /** What parity did for the reads so far. */
  ProactiveReader.Outcome outcome() {
    return outcome;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      in.close();
    } finally {
      onClose.accept(outcome);
    }
  }
}
