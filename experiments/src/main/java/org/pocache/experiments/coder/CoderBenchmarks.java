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

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * JMH benchmarks of the coders: encode, incremental update of all k pieces, and
 * decode of one lost data piece, for ISA-L, the Java coder and Hadoop's RS coder,
 * at (4,1), (6,3), (10,4) and subblocks of 64 KiB to 4 MiB. Scores are operations
 * per second; one operation covers k subblocks of data (GB/s = score x k x size).
 * Run through {@code pocache bench coder [--full]}, which converts to GB/s, or
 * with JMH's own command line: {@code java -cp ... org.openjdk.jmh.Main CoderBenchmarks}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CoderBenchmarks {
  @Param({"isal", "java", "hadoop-rs"})
  public String impl;

  @Param({"4:1", "6:3", "10:4"})
  public String code;

  @Param({"65536", "262144", "1048576", "4194304"})
  public int subblockBytes;

  private CoderUnderTest coder;

  @Setup(Level.Trial)
  public void setUp() {
    String[] km = code.split(":");
    coder = new CoderUnderTest(impl, Integer.parseInt(km[0]), Integer.parseInt(km[1]), subblockBytes);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    coder.close();
  }

  @Benchmark
  public void encode() {
    coder.encode();
  }

  @Benchmark
  public void update() {
    if (!coder.supports("update")) {
      throw new UnsupportedOperationException(impl + " has no incremental update");
    }
    coder.update();
  }

  @Benchmark
  public void decode() {
    coder.decode();
  }

  /** Data bytes per operation for these parameters. */
  static long bytesPerOp(String code, int subblockBytes) {
    return Long.parseLong(code.split(":")[0]) * subblockBytes;
  }
}
