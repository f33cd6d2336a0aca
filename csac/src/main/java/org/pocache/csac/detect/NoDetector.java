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
package org.pocache.csac.detect;

/**
 * {@code none}: never lists a DataNode. CSAC then admits and evicts by its admission
 * and eviction policies alone (plain LRU, LFU, ARC or S3-FIFO, as the paper's
 * straggler-unaware baselines of Experiments 11 and 12), and new blocks are placed
 * as if every DataNode were healthy.
 */
final class NoDetector extends AbstractDetector {
  NoDetector(int minSamples, long sampleTtlMillis, long reportTtlMillis) {
    super(minSamples, sampleTtlMillis, reportTtlMillis);
  }

  @Override
  public String name() {
    return "none";
  }

  @Override
  boolean[] flag(double[] rates) {
    return new boolean[rates.length];
  }
}
