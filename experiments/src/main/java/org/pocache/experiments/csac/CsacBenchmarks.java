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
package org.pocache.experiments.csac;

import java.util.SplittableRandom;
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
import org.pocache.csac.Csac;
import org.pocache.csac.FileRef;
import org.pocache.csac.policy.Policies;

/**
 * One CSAC access (query then update) with 1M files tracked and cached, and
 * reads drawn uniformly from 1.25M ids, so a fifth of them miss and evict. The
 * straggler list is non-empty, so Query also checks DataNodes. Sample-time mode:
 * read the p0.50 line for the median.
 * {@code java -cp ... org.openjdk.jmh.Main CsacBenchmarks}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CsacBenchmarks {
  @Param({"lru", "lfu", "arc", "s3fifo", "benefit"})
  public String eviction;

  @Param({"1000000"})
  public int files;

  private Csac csac;
  private FileRef[] refs;
  private int[] order;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    int ids = files + files / 4;
    csac = new Csac(files, Policies.admission("a", "cache-upon-access", files, files),
        Policies.eviction("e", eviction, files), Policies.prediction("p", "recency", files), 0.1, Long.MAX_VALUE,
        Policies.eviction("e", eviction, files), () -> 0L);
    SplittableRandom r = new SplittableRandom(1);
    refs = new FileRef[ids];
    for (int i = 0; i < ids; i++) {
      refs[i] = new FileRef(i, 1, "dn" + r.nextInt(100), "dn" + r.nextInt(100), "dn" + r.nextInt(100),
          "dn" + r.nextInt(100));
    }
    for (int i = 0; i < files; i++) {
      csac.update(refs[i], csac.query(refs[i]));
    }
    csac.setStragglers(java.util.Collections.singleton("dn7"));
    order = new int[1 << 22];
    for (int i = 0; i < order.length; i++) {
      order[i] = r.nextInt(ids);
    }
  }

  @Benchmark
  public Object queryAndUpdate() {
    FileRef f = refs[order[next++ & (order.length - 1)]];
    return csac.update(f, csac.query(f));
  }
}
