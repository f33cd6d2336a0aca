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
package org.pocache.experiments.paper;

/**
 * How far an experiment is scaled down from the paper's: {@code small} fits the paper's
 * ratios between sizes on 2 cores and 24 GiB; {@code tiny} only checks that an
 * experiment still runs end to end (its numbers mean nothing).
 */
final class Scale {
  final boolean tiny;
  /** Every DataNode's read bandwidth, bytes per second. */
  final long diskBandwidth;
  /** The straggler serves at diskBandwidth / slowdown. */
  final int slowdown;

  Scale(boolean tiny, long diskBandwidth, int slowdown) {
    this.tiny = tiny;
    this.diskBandwidth = diskBandwidth;
    this.slowdown = slowdown;
  }

  String name() {
    return tiny ? "tiny" : "small";
  }
}
