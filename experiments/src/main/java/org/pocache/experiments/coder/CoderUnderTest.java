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
package org.pocache.experiments.coder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Random;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;
import org.pocache.coder.CodeParameters;
import org.pocache.coder.ErasureCoder;
import org.pocache.coder.IsalCoder;
import org.pocache.coder.JavaCoder;

/**
 * One coder implementation set up for one (k, m, subblock size) with its buffers,
 * so the quick bench and the JMH benchmarks time exactly the same calls. All
 * implementations work on heap byte arrays (ISA-L pins them without copying).
 * Throughput is counted in data bytes: k subblocks per operation.
 */
public final class CoderUnderTest implements AutoCloseable {
  public static final String[] IMPLEMENTATIONS = {"isal", "java", "hadoop-rs"};
  public static final String[] OPERATIONS = {"encode", "update", "decode"};

  private final String impl;
  private final int k;
  private final int m;
  private final int size;
  private final byte[][] data;
  private final byte[][] parity;
  private final ErasureCoder coder;
  private final RSRawEncoder hadoopEncoder;
  private final RSRawDecoder hadoopDecoder;
  // Decode of one lost data piece (piece 0) from the others and parity 0.
  private final byte[][] survivors;
  private final int[] erased = {0};
  private final byte[][] rebuilt;

  public CoderUnderTest(String impl, int k, int m, int size) {
    this.impl = impl;
    this.k = k;
    this.m = m;
    this.size = size;
    CodeParameters p = CodeParameters.of(k, m);
    Random r = new Random(k * 31 + m);
    data = new byte[k][size];
    for (byte[] d : data) {
      r.nextBytes(d);
    }
    parity = new byte[m][size];
    new JavaCoder(p).encode(data, 0, parity, 0, size);
    survivors = new byte[k + m][];
    for (int i = 1; i < k; i++) {
      survivors[i] = data[i];
    }
    survivors[k] = parity[0];
    rebuilt = new byte[1][size];
    switch (impl) {
      case "isal":
        coder = new IsalCoder(p);
        hadoopEncoder = null;
        hadoopDecoder = null;
        break;
      case "java":
        coder = new JavaCoder(p);
        hadoopEncoder = null;
        hadoopDecoder = null;
        break;
      case "hadoop-rs":
        coder = null;
        hadoopEncoder = new RSRawEncoder(new ErasureCoderOptions(k, m));
        hadoopDecoder = new RSRawDecoder(new ErasureCoderOptions(k, m));
        break;
      default:
        throw new IllegalArgumentException("unknown implementation '" + impl + "'; known: isal, java, hadoop-rs");
    }
  }

  /** Whether this implementation has the operation (Hadoop has no incremental update). */
  public boolean supports(String op) {
    return !(op.equals("update") && coder == null);
  }

  /** Data bytes one operation covers. */
  public long bytesPerOp() {
    return (long) k * size;
  }

  public void run(String op) {
    switch (op) {
      case "encode":
        encode();
        break;
      case "update":
        update();
        break;
      case "decode":
        decode();
        break;
      default:
        throw new IllegalArgumentException("unknown operation '" + op + "'");
    }
  }

  public void encode() {
    if (coder != null) {
      coder.encode(data, 0, parity, 0, size);
    } else {
      try {
        hadoopEncoder.encode(data, parity);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Folds all k pieces into zeroed accumulators, one at a time. */
  public void update() {
    for (byte[] p : parity) {
      java.util.Arrays.fill(p, (byte) 0);
    }
    for (int i = 0; i < k; i++) {
      coder.update(i, data[i], 0, parity, 0, size);
    }
  }

  public void decode() {
    if (coder != null) {
      coder.decode(survivors, 0, erased, rebuilt, 0, size);
    } else {
      try {
        hadoopDecoder.decode(survivors.clone(), erased, rebuilt);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Checks the last operation's output (so a benchmark cannot time a broken coder). */
  public void verify(String op) {
    byte[][] want = new byte[m][size];
    new JavaCoder(CodeParameters.of(k, m)).encode(data, 0, want, 0, size);
    if (op.equals("decode")) {
      if (!java.util.Arrays.equals(rebuilt[0], data[0])) {
        throw new IllegalStateException(impl + " decode returned wrong bytes");
      }
    } else {
      for (int i = 0; i < m; i++) {
        if (!java.util.Arrays.equals(parity[i], want[i])) {
          throw new IllegalStateException(impl + " " + op + " returned wrong parity");
        }
      }
    }
  }

  @Override
  public void close() {
    if (coder != null) {
      coder.close();
    }
  }
}
