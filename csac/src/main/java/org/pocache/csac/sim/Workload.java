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
package org.pocache.csac.sim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.pocache.csac.FileRef;

/**
 * A synthetic workload as in the paper's Experiments 11-15: F files of k data
 * blocks placed on k distinct random DataNodes out of D, each with m parity blocks
 * worth caching (weight m, a one-stripe file), and a sequence of reads whose
 * popularity follows Zipf(alpha) over a random ranking of the files.
 */
public final class Workload {
  private final List<FileRef> files;
  private final int[] reads;
  private final int dataNodes;

  private Workload(List<FileRef> files, int[] reads, int dataNodes) {
    this.files = files;
    this.reads = reads;
    this.dataNodes = dataNodes;
  }

  /**
   * @throws IllegalArgumentException naming the bad parameter
   */
  public static Workload zipf(int files, int k, int m, int dataNodes, int reads, double alpha, long seed) {
    if (files < 1 || k < 1 || m < 1 || reads < 0) {
      throw new IllegalArgumentException("files, k and m must be >= 1 and reads >= 0, got " + files + ", " + k
          + ", " + m + ", " + reads);
    }
    if (dataNodes < k) {
      throw new IllegalArgumentException("need at least k = " + k + " DataNodes, got " + dataNodes);
    }
    if (!(alpha >= 0) || Double.isInfinite(alpha)) {
      throw new IllegalArgumentException("Zipf alpha must be >= 0, got " + alpha);
    }
    int[] blocks = new int[files];
    java.util.Arrays.fill(blocks, k);
    return placeAndRead(blocks, k, m, dataNodes, reads, alpha, seed);
  }

  /**
   * Files of mixed sizes, as the paper's Experiment 4 (the Facebook mix): {@code counts[i]}
   * files of {@code blocksPerFile[i]} blocks each, every file's blocks on distinct DataNodes
   * chosen at random, Zipf reads. A file's weight is its parity blocks (m per stripe of k,
   * a short stripe padded with zeros) and its data weight its data blocks.
   *
   * @throws IllegalArgumentException naming the bad parameter
   */
  public static Workload mix(int[] blocksPerFile, int[] counts, int k, int m, int dataNodes, int reads,
      double alpha, long seed) {
    if (blocksPerFile.length != counts.length || blocksPerFile.length == 0) {
      throw new IllegalArgumentException("need as many file sizes as counts, at least one, got "
          + blocksPerFile.length + " and " + counts.length);
    }
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < counts.length; i++) {
      if (blocksPerFile[i] < 1 || blocksPerFile[i] > dataNodes || counts[i] < 0) {
        throw new IllegalArgumentException("files of " + blocksPerFile[i] + " blocks on " + dataNodes
            + " DataNodes, " + counts[i] + " of them: need 1 to " + dataNodes + " blocks and a count >= 0");
      }
      for (int j = 0; j < counts[i]; j++) {
        all.add(blocksPerFile[i]);
      }
    }
    if (all.isEmpty() || k < 1 || m < 1 || reads < 0) {
      throw new IllegalArgumentException("need at least one file, k and m >= 1 and reads >= 0, got "
          + all.size() + " files, " + k + ", " + m + ", " + reads);
    }
    return placeAndRead(all.stream().mapToInt(Integer::intValue).toArray(), k, m, dataNodes, reads, alpha, seed);
  }

  private static Workload placeAndRead(int[] blocks, int k, int m, int dataNodes, int reads, double alpha,
      long seed) {
    if (!(alpha >= 0) || Double.isInfinite(alpha)) {
      throw new IllegalArgumentException("Zipf alpha must be >= 0, got " + alpha);
    }
    int files = blocks.length;
    SplittableRandom r = new SplittableRandom(seed);
    List<FileRef> fs = new ArrayList<>(files);
    List<Integer> nodes = new ArrayList<>();
    for (int d = 0; d < dataNodes; d++) {
      nodes.add(d);
    }
    for (int f = 0; f < files; f++) {
      Collections.shuffle(nodes, new java.util.Random(r.nextLong()));
      String[] on = new String[blocks[f]];
      for (int i = 0; i < blocks[f]; i++) {
        on[i] = "dn" + nodes.get(i);
      }
      long stripes = (blocks[f] + k - 1) / k;
      fs.add(new FileRef(f, stripes * m, blocks[f], on));
    }
    // Zipf over ranks, ranks mapped to files by a random permutation.
    double[] cdf = new double[files];
    double sum = 0;
    for (int i = 0; i < files; i++) {
      sum += 1 / Math.pow(i + 1, alpha);
      cdf[i] = sum;
    }
    List<Integer> rankToFile = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      rankToFile.add(f);
    }
    Collections.shuffle(rankToFile, new java.util.Random(r.nextLong()));
    int[] rs = new int[reads];
    for (int i = 0; i < reads; i++) {
      double u = r.nextDouble() * sum;
      int lo = 0;
      int hi = files - 1;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (cdf[mid] < u) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      rs[i] = rankToFile.get(lo);
    }
    return new Workload(fs, rs, dataNodes);
  }

  /** A workload replayed from a trace: files and the order of reads given. */
  public static Workload of(List<FileRef> files, int[] reads, int dataNodes) {
    for (int r : reads) {
      if (r < 0 || r >= files.size()) {
        throw new IllegalArgumentException("read of file index " + r + " but only " + files.size() + " files");
      }
    }
    return new Workload(new ArrayList<>(files), reads.clone(), dataNodes);
  }

  public List<FileRef> files() {
    return Collections.unmodifiableList(files);
  }

  public int readCount() {
    return reads.length;
  }

  public FileRef read(int i) {
    return files.get(reads[i]);
  }

  public int dataNodes() {
    return dataNodes;
  }
}
