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
 * {@link ProactiveReader} (k data reads plus parity at once, first k win); every
 * other byte, and every other operation (sequential reads, seek, skip, available,
 * unbuffer, readahead, drop-behind, zero-copy reads), is the HDFS input stream's
 * own. On close a read report goes to the Manager.
 */
final class PoCacheInputStream extends FSInputStream
    implements ByteBufferReadable, CanSetDropBehind, CanSetReadahead, CanUnbuffer, HasEnhancedByteBufferAccess {
  private final DFSInputStream in;
  private final ProactiveReader proactive;
  private final ProactiveReader.Outcome outcome = new ProactiveReader.Outcome();
  private final Consumer<ProactiveReader.Outcome> onClose;
  private boolean closed;

  PoCacheInputStream(DFSInputStream in, ProactiveReader proactive, Consumer<ProactiveReader.Outcome> onClose) {
    this.in = in;
    this.proactive = proactive;
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
    List<long[]> covered = proactive.covered(position, length);
    if (covered.isEmpty()) {
      in.readFully(position, buffer, offset, length);
      return;
    }
    if (offset < 0 || length < 0 || length > buffer.length - offset) {
      throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + ", buffer " + buffer.length);
    }
    // Bytes outside the covered substripes are plain positional reads.
    java.util.Set<Long> whole = new java.util.HashSet<>();
    for (long[] ss : covered) {
      whole.add(ss[0] << 32 | ss[1]);
    }
    IOException[] failure = {null};
    proactive.layout().forEachPiece(position, length, (at, fileOffset, len) -> {
      if (failure[0] == null && !whole.contains(at.stripe << 32 | at.substripe)) {
        try {
          in.readFully(fileOffset, buffer, offset + (int) (fileOffset - position), len);
        } catch (IOException e) {
          failure[0] = e;
        }
      }
    });
    if (failure[0] != null) {
      throw failure[0];
    }
    ProactiveReader.Outcome mine = new ProactiveReader.Outcome();
    try {
      proactive.read(covered, position, buffer, offset, mine);
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
  public int read() throws IOException {
    return in.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return in.read(b, off, len);
  }

  @Override
  public int read(ByteBuffer buf) throws IOException {
    return in.read(buf);
  }

  @Override
  public void seek(long pos) throws IOException {
    in.seek(pos);
  }

  @Override
  public long getPos() throws IOException {
    return in.getPos();
  }

  @Override
  public boolean seekToNewSource(long targetPos) throws IOException {
    return in.seekToNewSource(targetPos);
  }

  @Override
  public long skip(long n) throws IOException {
    return in.skip(n);
  }

  @Override
  public int available() throws IOException {
    return in.available();
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
  public void unbuffer() {
    in.unbuffer();
  }

  @Override
  public ByteBuffer read(ByteBufferPool bufferPool, int maxLength, EnumSet<ReadOption> opts) throws IOException {
    return in.read(bufferPool, maxLength, opts);
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
