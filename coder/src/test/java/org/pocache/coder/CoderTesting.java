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
package org.pocache.coder;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;

/** Buffers of every kind and Hadoop's encoder as the oracle, for coder tests. */
final class CoderTesting {
  private CoderTesting() {
  }

  /** The kinds of ByteBuffer a caller may pass. */
  enum Kind { HEAP, HEAP_SLICED, DIRECT, DIRECT_LITTLE_ENDIAN, READ_ONLY_HEAP }

  /** A buffer of {@code kind} holding {@code content} between position and limit, with junk around it. */
  static ByteBuffer wrap(Kind kind, byte[] content, Random r) {
    int before = r.nextInt(17);
    int after = r.nextInt(17);
    ByteBuffer b;
    switch (kind) {
      case DIRECT:
      case DIRECT_LITTLE_ENDIAN:
        b = ByteBuffer.allocateDirect(before + content.length + after);
        break;
      default:
        b = ByteBuffer.allocate(before + content.length + after);
        break;
    }
    if (kind == Kind.DIRECT_LITTLE_ENDIAN) {
      b.order(ByteOrder.LITTLE_ENDIAN);
    }
    byte[] junk = new byte[before + content.length + after];
    r.nextBytes(junk);
    b.put(junk);
    b.position(before);
    b.put(content);
    b.position(before);
    b.limit(before + content.length);
    if (kind == Kind.HEAP_SLICED) {
      b = b.slice(); // arrayOffset != 0
    } else if (kind == Kind.READ_ONLY_HEAP) {
      b = b.asReadOnlyBuffer();
    }
    return b;
  }

  /** An output buffer of {@code kind} (never read-only) with room for {@code len} bytes plus junk. */
  static ByteBuffer output(Kind kind, int len, Random r) {
    return wrap(kind == Kind.READ_ONLY_HEAP ? Kind.HEAP : kind, new byte[len], r);
  }

  static byte[] contents(ByteBuffer b, int len) {
    byte[] out = new byte[len];
    for (int i = 0; i < len; i++) {
      out[i] = b.get(b.position() + i);
    }
    return out;
  }

  static byte[][] randomPieces(int n, int len, Random r) {
    byte[][] d = new byte[n][len];
    for (byte[] x : d) {
      r.nextBytes(x);
    }
    return d;
  }

  /** Hadoop 3.1.4's RSRawEncoder parity for the data. */
  static byte[][] hadoopParity(int k, int m, byte[][] data) throws Exception {
    int len = data[0].length;
    byte[][] parity = new byte[m][len];
    if (len > 0) {
      new RSRawEncoder(new ErasureCoderOptions(k, m)).encode(data, parity);
    }
    return parity;
  }
}
