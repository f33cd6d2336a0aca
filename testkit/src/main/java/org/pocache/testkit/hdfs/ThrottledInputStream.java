package org.pocache.testkit.hdfs;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** A block file's input stream that spends the DataNode's bandwidth on every read. */
final class ThrottledInputStream extends FilterInputStream {
  private final DataNodeThrottle throttle;

  ThrottledInputStream(InputStream in, DataNodeThrottle throttle) {
    super(in);
    this.throttle = throttle;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      throttle.pace(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    throttle.pace(n);
    return n;
  }
}
