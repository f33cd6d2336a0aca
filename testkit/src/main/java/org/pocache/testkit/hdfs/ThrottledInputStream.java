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
