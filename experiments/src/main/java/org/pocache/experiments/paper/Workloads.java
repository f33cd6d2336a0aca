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

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.pocache.csac.sim.Workload;
import org.pocache.experiments.LatencyStats;
import org.pocache.experiments.WholeFileRead;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.testkit.DataPattern;

/**
 * What the paper's workload experiments (3, 4, 12, 16) share: a plan of files and of
 * Zipf-distributed reads, the files written in a layout, stragglers that stay put or
 * come and go, and the replay of the reads through one client, every read timed and
 * its bytes checked.
 */
final class Workloads {
  static final double ZIPF = 0.9;

  private Workloads() {
  }

  /** Which files there are, how long, where each block lives, and the order of reads. */
  static final class Plan {
    final long blockSize;
    final long[] lengths;
    /** file, block: the DataNode of the block's first replica. */
    final int[][] placement;
    final int[] reads;
    final int dataNodes;

    private Plan(long blockSize, long[] lengths, int[][] placement, int[] reads, int dataNodes) {
      this.blockSize = blockSize;
      this.lengths = lengths;
      this.placement = placement;
      this.reads = reads;
      this.dataNodes = dataNodes;
    }

    int files() {
      return lengths.length;
    }

    /** Files by how often the plan reads them, most read first. */
    List<Integer> byPopularity() {
      int[] count = new int[lengths.length];
      for (int f : reads) {
        count[f]++;
      }
      List<Integer> order = new ArrayList<>();
      for (int f = 0; f < count.length; f++) {
        order.add(f);
      }
      order.sort((a, b) -> count[b] != count[a] ? Integer.compare(count[b], count[a]) : Integer.compare(a, b));
      return order;
    }
  }

  /**
   * Files of the given lengths (multiples of {@code blockSize}), each block on a
   * different DataNode where the file has at most {@code dataNodes} blocks (the
   * DataNodes drawn at random per file), and {@code reads} reads by Zipf-0.9 over a
   * random ranking of the files.
   */
  static Plan plan(long blockSize, long[] lengths, int dataNodes, int reads, long seed) {
    Workload w = Workload.zipf(lengths.length, 1, 1, dataNodes, reads, ZIPF, seed);
    int[] sequence = new int[reads];
    for (int i = 0; i < reads; i++) {
      sequence[i] = (int) w.read(i).id();
    }
    Random r = new Random(seed * 7919 + 1);
    List<Integer> nodes = new ArrayList<>();
    for (int d = 0; d < dataNodes; d++) {
      nodes.add(d);
    }
    int[][] placement = new int[lengths.length][];
    for (int f = 0; f < lengths.length; f++) {
      if (lengths[f] <= 0 || lengths[f] % blockSize != 0) {
        throw new IllegalArgumentException("file " + f + " is " + lengths[f] + " bytes, not whole blocks of "
            + blockSize);
      }
      Collections.shuffle(nodes, r);
      placement[f] = new int[(int) (lengths[f] / blockSize)];
      for (int b = 0; b < placement[f].length; b++) {
        placement[f][b] = nodes.get(b % dataNodes);
      }
    }
    return new Plan(blockSize, lengths, placement, sequence, dataNodes);
  }

  /** The files of one layout as written, and the DataNodes each one reads from. */
  static final class FileSet {
    final String name;
    final List<Path> paths = new ArrayList<>();
    final List<Long> seeds = new ArrayList<>();
    final List<Set<Integer>> dataNodes = new ArrayList<>();

    FileSet(String name) {
      this.name = name;
    }
  }

  /**
   * The plan's files in the contiguous layout under {@code dir}; files in {@code twice}
   * get a second replica of every block on another DataNode (drawn at random).
   */
  static FileSet writeContiguous(PaperCluster c, String dir, Plan plan, Set<Integer> twice, long seedBase)
      throws IOException {
    Random r = new Random(seedBase);
    return writeContiguous(c, dir, plan, seedBase, (f, b) -> {
      int first = plan.placement[f][b];
      return twice.contains(f) ? new int[] {first, (first + 1 + r.nextInt(plan.dataNodes - 1)) % plan.dataNodes}
          : new int[] {first};
    });
  }

  /** The plan's files in the contiguous layout, block b of file f on the DataNodes {@code replicas(f, b)}. */
  static FileSet writeContiguous(PaperCluster c, String dir, Plan plan, long seedBase,
      java.util.function.BiFunction<Integer, Integer, int[]> replicasOf) throws IOException {
    FileSet set = new FileSet(dir);
    for (int f = 0; f < plan.files(); f++) {
      Path p = new Path(dir + "/f" + f);
      long seed = seedBase + f;
      int[][] replicas = new int[plan.placement[f].length][];
      Set<Integer> on = new TreeSet<>();
      for (int b = 0; b < replicas.length; b++) {
        replicas[b] = replicasOf.apply(f, b);
        for (int d : replicas[b]) {
          on.add(d);
        }
      }
      c.hdfs.writePinnedFile(p, plan.blockSize, plan.lengths[f], seed, b -> replicas[b]);
      set.paths.add(p);
      set.seeds.add(seed);
      set.dataNodes.add(on);
    }
    return set;
  }

  /** The plan's files erasure-coded under {@code policy} (HDFS places the internal blocks). */
  static FileSet writeStriped(PaperCluster c, String dir, Plan plan, String policy, long seedBase)
      throws IOException {
    FileSet set = new FileSet(dir);
    for (int f = 0; f < plan.files(); f++) {
      Path p = new Path(dir + "/f" + f);
      long seed = seedBase + f;
      c.hdfs.writeStripedFile(p, policy, plan.lengths[f], seed);
      Set<Integer> on = new TreeSet<>();
      for (int[] group : c.hdfs.dataNodesOfBlockGroups(p)) {
        for (int d : group) {
          on.add(d);
        }
      }
      set.paths.add(p);
      set.seeds.add(seed);
      set.dataNodes.add(on);
    }
    return set;
  }

  /** Which DataNodes are slow, and how slow, as reads go on. */
  interface Stragglers {
    /**
     * Throttles the DataNodes slow at this moment of a run ({@code elapsedMillis} since
     * its start; a new run starts again at 0); returns them.
     */
    Set<Integer> apply(PaperCluster c, long elapsedMillis);

    /** Every DataNode back to full speed. */
    void reset(PaperCluster c);
  }

  /** One DataNode at 1/slowdown for the whole run. */
  static Stragglers fixed(int dataNode, long bandwidth, int slowdown) {
    return fixed(Collections.singleton(dataNode), bandwidth, slowdown);
  }

  /** These DataNodes at 1/slowdown for the whole run. */
  static Stragglers fixed(Set<Integer> dataNodes, long bandwidth, int slowdown) {
    Set<Integer> slow = Collections.unmodifiableSet(new TreeSet<>(dataNodes));
    return new Stragglers() {
      private boolean set;

      @Override
      public Set<Integer> apply(PaperCluster c, long elapsedMillis) {
        if (!set) {
          for (int d : slow) {
            c.hdfs.throttle(d).setBandwidth(Math.max(1, bandwidth / slowdown));
          }
          set = true;
        }
        return slow;
      }

      @Override
      public void reset(PaperCluster c) {
        c.hdfs.setAllBandwidth(bandwidth);
        set = false;
      }

      @Override
      public String toString() {
        return "DataNodes " + slow + " at 1/" + slowdown;
      }
    };
  }

  /**
   * Stragglers that come and go, as on shared cloud machines: every {@code epochMillis}
   * each DataNode is slow with probability {@code p}, at 1/2, 1/4 or 1/10 of the
   * bandwidth (drawn per epoch), the same schedule for every mode (seeded).
   */
  static Stragglers natural(int dataNodes, long bandwidth, long epochMillis, double p, long seed) {
    int[] strengths = {2, 4, 10};
    return new Stragglers() {
      private long epoch = -1;
      private Set<Integer> slow = Collections.emptySet();

      @Override
      public Set<Integer> apply(PaperCluster c, long elapsedMillis) {
        long e = elapsedMillis / epochMillis;
        if (e != epoch) {
          epoch = e;
          Random r = new Random(seed * 1_000_003L + e);
          Set<Integer> now = new TreeSet<>();
          for (int d = 0; d < dataNodes; d++) {
            if (r.nextDouble() < p) {
              now.add(d);
              c.hdfs.throttle(d).setBandwidth(Math.max(1, bandwidth / strengths[r.nextInt(strengths.length)]));
            } else {
              c.hdfs.throttle(d).setBandwidth(bandwidth);
            }
          }
          slow = now;
        }
        return slow;
      }

      @Override
      public void reset(PaperCluster c) {
        c.hdfs.setAllBandwidth(bandwidth);
        epoch = -1;
      }

      @Override
      public String toString() {
        return String.format(Locale.ROOT, "each DataNode slow with p = %.2f per %d s epoch, at 1/2, 1/4 or 1/10", p,
            epochMillis / 1000);
      }
    };
  }

  /**
   * One straggler that moves: every {@code epochMillis} a DataNode drawn at random (seeded,
   * the same schedule for every mode) serves at 1/slowdown and the others at full speed.
   */
  static Stragglers moving(int dataNodes, long bandwidth, int slowdown, long epochMillis, long seed) {
    return new Stragglers() {
      private long epoch = -1;
      private Set<Integer> slow = Collections.emptySet();

      @Override
      public Set<Integer> apply(PaperCluster c, long elapsedMillis) {
        long e = elapsedMillis / epochMillis;
        if (e != epoch) {
          epoch = e;
          int d = new Random(seed * 1_000_003L + e).nextInt(dataNodes);
          for (int x = 0; x < dataNodes; x++) {
            c.hdfs.throttle(x).setBandwidth(x == d ? Math.max(1, bandwidth / slowdown) : bandwidth);
          }
          slow = Collections.singleton(d);
        }
        return slow;
      }

      @Override
      public void reset(PaperCluster c) {
        c.hdfs.setAllBandwidth(bandwidth);
        epoch = -1;
      }

      @Override
      public String toString() {
        return String.format(Locale.ROOT, "one DataNode at 1/%d, a random one every %d s", slowdown,
            epochMillis / 1000);
      }
    };
  }

  /**
   * One DataNode slow only part of the time: at 1/slowdown for the first
   * {@code slowMillis} of every {@code periodMillis}, at full speed for the rest.
   */
  static Stragglers intermittent(int dataNode, long bandwidth, int slowdown, long periodMillis, long slowMillis) {
    Set<Integer> slow = Collections.singleton(dataNode);
    return new Stragglers() {
      private int state = -1;

      @Override
      public Set<Integer> apply(PaperCluster c, long elapsedMillis) {
        int now = elapsedMillis % periodMillis < slowMillis ? 1 : 0;
        if (now != state) {
          c.hdfs.throttle(dataNode).setBandwidth(now == 1 ? Math.max(1, bandwidth / slowdown) : bandwidth);
          state = now;
        }
        return now == 1 ? slow : Collections.emptySet();
      }

      @Override
      public void reset(PaperCluster c) {
        c.hdfs.setAllBandwidth(bandwidth);
        state = -1;
      }

      @Override
      public String toString() {
        return String.format(Locale.ROOT, "DataNode %d at 1/%d for %.1f s of every %.1f s", dataNode, slowdown,
            slowMillis / 1000.0, periodMillis / 1000.0);
      }
    };
  }

  /** One mode's replay: every latency, and how many reads met a slow DataNode unprotected. */
  static final class Run {
    final String mode;
    final double[] ms;
    final int touchingStraggler;
    final int stragglerHits;
    final LatencyStats stats;

    Run(String mode, double[] ms, int touchingStraggler, int stragglerHits) {
      this.mode = mode;
      this.ms = ms;
      this.touchingStraggler = touchingStraggler;
      this.stragglerHits = stragglerHits;
      this.stats = new LatencyStats(ms);
    }

    double stragglerHitRatio() {
      return ms.length == 0 ? 0 : stragglerHits / (double) ms.length;
    }

    Map<String, Object> row() {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("mode", mode);
      r.put("reads", ms.length);
      r.put("mean_ms", stats.mean());
      r.put("p50_ms", stats.percentile(50));
      r.put("p95_ms", stats.percentile(95));
      r.put("p99_ms", stats.percentile(99));
      r.put("reads_on_a_straggler", touchingStraggler);
      r.put("straggler_hits", stragglerHits);
      r.put("latencies_ms", ms);
      return r;
    }
  }

  /** Reads file {@code f} of a set whole into {@code buf} (exactly its length). */
  interface FileRead {
    void read(int f, byte[] buf) throws IOException;

    /** Whether the last read kept off every slow DataNode by other means than parity (a data cache). */
    default boolean lastAvoidedStragglers() {
      return false;
    }
  }

  /**
   * Reads {@code reads} (indices into {@code files}) one after another through
   * {@code fs}, {@code warmup} untimed reads first (the last ones of the sequence:
   * class loading, connections). A read is a straggler hit when its file has a block
   * on a slow DataNode and it was not read with parity.
   */
  static Run replay(String mode, PaperCluster c, FileSystem fs, WholeFileRead how, FileSet files, int[] reads,
      int warmup, Stragglers stragglers, PrintStream out) throws IOException {
    FileRead whole = (f, buf) -> {
      try (FSDataInputStream in = fs.open(files.paths.get(f))) {
        how.read(in, buf);
      }
    };
    return replay(mode, c, fs, whole, files, reads, warmup, stragglers, out);
  }

  /** As above, each file read by {@code how}; {@code fs} only counts reads with parity. */
  static Run replay(String mode, PaperCluster c, FileSystem fs, FileRead how, FileSet files, int[] reads,
      int warmup, Stragglers stragglers, PrintStream out) throws IOException {
    Map<Long, byte[]> buffers = new HashMap<>();
    long[] lengths = new long[files.paths.size()];
    for (int f = 0; f < lengths.length; f++) {
      lengths[f] = fs.getFileStatus(files.paths.get(f)).getLen();
    }
    long start = System.nanoTime();
    for (int i = 0; i < Math.min(warmup, reads.length); i++) {
      int f = reads[reads.length - 1 - i];
      stragglers.apply(c, (System.nanoTime() - start) / 1_000_000);
      readOne(how, files, f, lengths[f], buffers);
    }
    double[] ms = new double[reads.length];
    int touching = 0;
    int hits = 0;
    start = System.nanoTime();
    for (int i = 0; i < reads.length; i++) {
      int f = reads[i];
      Set<Integer> slow = stragglers.apply(c, (System.nanoTime() - start) / 1_000_000);
      long proactive = proactiveOpens(fs);
      long t = System.nanoTime();
      readOne(how, files, f, lengths[f], buffers);
      ms[i] = (System.nanoTime() - t) / 1e6;
      if (!Collections.disjoint(slow, files.dataNodes.get(f))) {
        touching++;
        if (proactiveOpens(fs) == proactive && !how.lastAvoidedStragglers()) {
          hits++;
        }
      }
    }
    Run run = new Run(mode, ms, touching, hits);
    out.printf(Locale.ROOT, "  %-22s %5d reads  mean %7.1f  p50 %7.1f  p95 %7.1f  p99 %7.1f ms  straggler hits %d"
        + " of %d on one%n", mode, ms.length, run.stats.mean(), run.stats.percentile(50), run.stats.percentile(95),
        run.stats.percentile(99), hits, touching);
    return run;
  }

  private static void readOne(FileRead how, FileSet files, int f, long length, Map<Long, byte[]> buffers)
      throws IOException {
    byte[] buf = buffers.computeIfAbsent(length, n -> new byte[(int) (long) n]);
    Arrays.fill(buf, (byte) 0);
    how.read(f, buf);
    long bad = DataPattern.firstMismatch(files.seeds.get(f), 0, buf, 0, buf.length);
    if (bad >= 0) {
      throw new IOException("wrong byte at offset " + bad + " of " + files.paths.get(f) + " (" + files.name + ")");
    }
  }

  /**
   * Vanilla and POCache on the contiguous files, then on the striped ones, the cache
   * emptied in between; every DataNode back to full speed afterwards.
   */
  static List<Run> bothLayouts(PaperCluster c, FileSet contiguous, FileSet striped, int[] reads, int warmup,
      Stragglers stragglers, PrintStream out) throws IOException {
    List<Run> runs = new ArrayList<>();
    WholeFileRead sequential = WholeFileRead.sequential(1 << 20);
    try {
      runs.add(replay("Vanilla", c, c.plain, sequential, contiguous, reads, warmup, stragglers, out));
      runs.add(replay("POCache", c, c.pocache, WholeFileRead.positional(), contiguous, reads, warmup, stragglers,
          out));
      evictAll(c, contiguous.name);
      runs.add(replay("Vanilla (striped)", c, c.plain, sequential, striped, reads, warmup, stragglers, out));
      runs.add(replay("POCache (striped)", c, c.pocache, WholeFileRead.positional(), striped, reads, warmup,
          stragglers, out));
    } finally {
      stragglers.reset(c);
    }
    return runs;
  }

  /** Adds each run as a row of {@code o}; the runs by mode. */
  static Map<String, Run> record(Outcome o, List<Run> runs) {
    Map<String, Run> by = new LinkedHashMap<>();
    for (Run r : runs) {
      by.put(r.mode, r);
      o.row().putAll(r.row());
    }
    return by;
  }

  /** Reads {@code p} whole through {@code fs} and checks every byte against {@code seed}'s pattern. */
  static void readChecked(FileSystem fs, WholeFileRead how, Path p, long seed, Map<Long, byte[]> buffers)
      throws IOException {
    long length = fs.getFileStatus(p).getLen();
    byte[] buf = buffers.computeIfAbsent(length, n -> new byte[(int) (long) n]);
    Arrays.fill(buf, (byte) 0);
    try (FSDataInputStream in = fs.open(p)) {
      how.read(in, buf);
    }
    long bad = DataPattern.firstMismatch(seed, 0, buf, 0, buf.length);
    if (bad >= 0) {
      throw new IOException("wrong byte at offset " + bad + " of " + p);
    }
  }

  private static long proactiveOpens(FileSystem fs) {
    return fs instanceof PoCacheFileSystem ? ((PoCacheFileSystem) fs).proactiveOpens() : 0;
  }

  /**
   * Reads 1 MiB of a block on every DataNode, round after round, until the Manager
   * lists exactly {@code slow} as stragglers (its detector sees only DataNodes that
   * serve reads), as on a cluster that has been serving reads for a while.
   */
  static void awaitListed(PaperCluster c, Plan plan, FileSet contiguous, Set<Integer> slow, PrintStream out)
      throws IOException {
    Set<String> want = new HashSet<>();
    for (int d : slow) {
      want.add(c.hdfs.dataNode(d).getDatanodeId().getXferAddr());
    }
    // One block per DataNode to probe.
    Map<Integer, long[]> probe = new LinkedHashMap<>();
    for (int f = 0; f < plan.files(); f++) {
      for (int b = 0; b < plan.placement[f].length; b++) {
        probe.putIfAbsent(plan.placement[f][b], new long[] {f, b * plan.blockSize});
      }
    }
    byte[] buf = new byte[(int) Math.min(plan.blockSize, 1 << 20)];
    long begin = System.nanoTime();
    long deadline = begin + 90_000_000_000L;
    try (ManagerClient m = c.manager()) {
      while (true) {
        for (long[] fb : probe.values()) {
          try (FSDataInputStream in = c.plain.open(contiguous.paths.get((int) fb[0]))) {
            in.readFully(fb[1], buf, 0, buf.length);
          }
        }
        if (new HashSet<>(m.getStragglers().dataNodes).equals(want)) {
          out.printf(Locale.ROOT, "  the Manager lists %s after %.1f s of probe reads%n", want,
              (System.nanoTime() - begin) / 1e9);
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new IOException("the Manager lists " + m.getStragglers().dataNodes + " after 90 s, not " + want);
        }
      }
    }
  }

  /** Evicts every cached parity under {@code dir}, so the next mode starts with an empty cache. */
  static void evictAll(PaperCluster c, String dir) throws IOException {
    try (ManagerClient m = c.manager()) {
      for (ParityDescriptor d : m.listCached(dir, 100_000).getDescriptors()) {
        m.evict(d.getPath());
      }
    }
  }

  /** Lengths of {@code count} files of {@code blocks} blocks each. */
  static long[] uniform(int count, int blocks, long blockSize) {
    long[] l = new long[count];
    Arrays.fill(l, blocks * blockSize);
    return l;
  }
}
