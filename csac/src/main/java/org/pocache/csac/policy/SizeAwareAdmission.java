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
package org.pocache.csac.policy;

import java.util.SplittableRandom;
import org.pocache.csac.FileRef;

/**
 * Size-aware admission in the spirit of AdaptSize (Berger, Sitaraman and
 * Harchol-Balter, NSDI 2017): admit a file with probability exp(-weight / c), so
 * a large file, which displaces many small ones, needs several misses to get in.
 * The parameter c (in the cache's weight unit) is fixed here rather than tuned by
 * AdaptSize's Markov model. Deterministic for a given seed.
 */
public final class SizeAwareAdmission implements AdmissionPolicy {
  private final double c;
  private final SplittableRandom random;

  /**
   * @throws IllegalArgumentException if c is not positive and finite
   */
  public SizeAwareAdmission(double c, long seed) {
    if (!(c > 0) || Double.isInfinite(c)) {
      throw new IllegalArgumentException("size-aware admission parameter c must be > 0, got " + c);
    }
    this.c = c;
    this.random = new SplittableRandom(seed);
  }

  @Override
  public String name() {
    return "size-aware";
  }

  @Override
  public void record(long fileId) {
  }

  @Override
  public boolean admit(FileRef file, boolean fits, EvictionPolicy eviction) {
    return random.nextDouble() < Math.exp(-file.weight() / c);
  }
}
