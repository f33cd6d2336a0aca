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

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParityStoreException;
import org.pocache.cache.ParityValue;
import org.pocache.cache.RedisParityStore;
import org.pocache.cache.RedisSettings;
import org.pocache.coder.CodeParameters;
import org.pocache.coder.CoderKind;
import org.pocache.coder.Coders;
import org.pocache.coder.ErasureCoder;
import org.pocache.experiments.LatencyStats;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.testkit.DataPattern;

/**
 * The paper's microbenchmarks (§5.2) on the in-process cluster: Experiment 7 (the write
 * path's encoding, caching and overhead against stock HDFS per subblock size), 8 (one
 * 1 MiB subblock from a normal DataNode, a straggler and Redis) and 9 (whole-file read
 * latency with a straggler per subblock size).
 */
final class Microbenchmarks {
  private static final int K = 4;
  private static final long MIB = 1L << 20;

  private Microbenchmarks() {
  }

  /** Experiment 8: a 1 MiB subblock from a normal DataNode, a straggler and Redis, mean and standard deviation. */
  static Outcome exp8(Scale s, File plot, PrintStream out) throws IOException {
    long block = s.tiny ? 4 * MIB : 64 * MIB;
    int reads = s.tiny ? 10 : 100;
    Outcome o = new Outcome("exp8", "Microbenchmarks on reads: one 1 MiB subblock",
        "a 1 MiB subblock from a normal DataNode (disk 156 MiB/s), a straggler (stress -i 1), and Redis",
        String.format(Locale.ROOT, "%d reads per source; DataNodes paced at %d MiB/s, the straggler at 1/%d;"
            + " blocks of %d MiB", reads, s.diskBandwidth >> 20, s.slowdown, block >> 20));
    String[] sources = {"normal DataNode", "straggler", "Redis"};
    double[][] ms = new double[3][reads];
    try (PaperCluster c = PaperCluster.builder().dataNodes(2).k(2).start()) {
      c.hdfs.setAllBandwidth(s.diskBandwidth);
      Path p = new Path("/exp8/f");
      long seed = 8;
      c.hdfs.writePinnedFile(p, block, 2, seed);
      c.hdfs.throttle(1).setBandwidth(s.diskBandwidth / s.slowdown);
      Map<String, String> conf = new HashMap<>();
      conf.put(RedisSettings.HOSTS_KEY, c.redis.host() + ":" + c.redis.port());
      byte[] value = new byte[(int) MIB];
      new Random(8).nextBytes(value);
      byte[] buf = new byte[(int) MIB];
      Random pick = new Random(88);
      try (RedisParityStore store = RedisParityStore.connect(RedisSettings.from(conf::get));
           FSDataInputStream in = c.plain.open(p)) {
        ParityKey key = store.key(8, 1, 0, 0, 0);
        store.put(key, new int[] {0, 0}, ByteBuffer.wrap(value));
        for (int r = -2; r < reads; r++) { // two untimed rounds: connections, class loading, JIT
          for (int turn = 0; turn < 3; turn++) {
            int x = Math.floorMod(r + turn, 3);
            long start = System.nanoTime();
            if (x < 2) {
              long off = x * block + pick.nextInt((int) (block / MIB)) * MIB;
              in.readFully(off, buf, 0, buf.length);
              if (DataPattern.firstMismatch(seed, off, buf, 0, buf.length) >= 0) {
                throw new IOException("exp8: wrong bytes read from " + sources[x] + " at offset " + off);
              }
            } else {
              ParityValue v = store.get(key);
              if (v == null || v.payloadLength() != value.length) {
                throw new IOException("exp8: the 1 MiB value read back from Redis is missing or short");
              }
              v.copyPayloadTo(buf, 0);
              if (!Arrays.equals(buf, value)) {
                throw new IOException("exp8: the 1 MiB value read back from Redis differs");
              }
            }
            if (r >= 0) {
              ms[x][r] = (System.nanoTime() - start) / 1e6;
            }
          }
        }
        store.delete(key);
      } catch (ParityStoreException e) {
        throw new IOException("exp8: the parity store failed: " + e.getMessage(), e);
      }
    }
    double[][] mean = new double[1][3];
    double[][] sd = new double[1][3];
    for (int x = 0; x < 3; x++) {
      LatencyStats st = new LatencyStats(ms[x]);
      mean[0][x] = st.mean();
      sd[0][x] = stddev(ms[x]);
      Map<String, Object> row = o.row();
      row.put("source", sources[x]);
      row.put("mean_ms", mean[0][x]);
      row.put("stddev_ms", sd[0][x]);
      row.put("p50_ms", st.percentile(50));
      row.put("p95_ms", st.percentile(95));
      row.put("latencies_ms", ms[x]);
      out.printf(Locale.ROOT, "%-16s mean %8.2f ms  sd %7.2f ms  p95 %8.2f ms%n", sources[x], mean[0][x], sd[0][x],
          st.percentile(95));
    }
    o.headline("straggler / normal DataNode, mean", "more than 7x", 7, Double.NaN, mean[0][1] / mean[0][0], "x");
    o.headline("Redis / normal DataNode, mean", "below 1 (Redis fastest)", Double.NaN, 1, mean[0][2] / mean[0][0],
        "x");
    Charts.bars(plot, "Exp 8: one 1 MiB subblock (mean, error bar: standard deviation)", "latency (ms)",
        Arrays.asList(sources), Arrays.asList("read"), mean, sd);
    return o;
  }

  /**
   * Experiment 9: a four-block file, cached, read whole with one DataNode at 1/slowdown,
   * for each subblock size (a cluster per size: the Manager sets it).
   */
  static Outcome exp9(Scale s, File plot, PrintStream out) throws IOException {
    long block = s.tiny ? 4 * MIB : 64 * MIB;
    int reads = s.tiny ? 3 : 20;
    long[] subblocks = subblockSizes(block, s.tiny);
    Outcome o = new Outcome("exp9", "Read latency against subblock size",
        "64 MiB blocks, subblocks 0.25-64 MiB, a four-block file read 200 times per size",
        String.format(Locale.ROOT, "%d MiB blocks, %d reads per size, one DataNode of %d at 1/%d of %d MiB/s",
            block >> 20, reads, K + 1, s.slowdown, s.diskBandwidth >> 20));
    double[] means = new double[subblocks.length];
    double[] p95 = new double[subblocks.length];
    for (int i = 0; i < subblocks.length; i++) {
      double[] ms = new double[reads];
      try (PaperCluster c = PaperCluster.builder().dataNodes(K + 1).k(K)
          .set(PoCacheConfigKeys.SUBBLOCK_KEY, Long.toString(subblocks[i])).start()) {
        c.hdfs.setAllBandwidth(s.diskBandwidth);
        Path p = new Path("/exp9/f");
        long seed = 9;
        c.hdfs.writePinnedFile(p, block, K, seed);
        c.cache(java.util.Collections.singletonList(p));
        byte[] buf = new byte[(int) (K * block)];
        readWhole(c.pocache, p, buf); // untimed: connections, class loading
        c.hdfs.throttle(0).setBandwidth(s.diskBandwidth / s.slowdown);
        for (int r = 0; r < reads; r++) {
          Arrays.fill(buf, (byte) 0);
          long start = System.nanoTime();
          readWhole(c.pocache, p, buf);
          ms[r] = (System.nanoTime() - start) / 1e6;
          if (DataPattern.firstMismatch(seed, 0, buf, 0, buf.length) >= 0) {
            throw new IOException("exp9: wrong bytes read with subblocks of " + subblocks[i]);
          }
        }
        c.hdfs.throttle(0).setBandwidth(s.diskBandwidth);
      }
      LatencyStats st = new LatencyStats(ms);
      means[i] = st.mean();
      p95[i] = st.percentile(95);
      Map<String, Object> row = o.row();
      row.put("subblock_bytes", subblocks[i]);
      row.put("mean_ms", means[i]);
      row.put("p95_ms", p95[i]);
      row.put("latencies_ms", ms);
      out.printf(Locale.ROOT, "subblock %8s  mean %8.1f ms  p95 %8.1f ms%n", mib(subblocks[i]), means[i], p95[i]);
    }
    int best = 0;
    for (int i = 1; i < means.length; i++) {
      if (means[i] < means[best]) {
        best = i;
      }
    }
    o.headline("subblock size with the lowest mean (MiB)", "1 MiB", 1, 1, subblocks[best] / (double) MIB, "MiB");
    o.headline("mean at the largest subblock / at the best", "above 1 (worse at 64 MiB)", 1, Double.NaN,
        means[means.length - 1] / means[best], "x");
    o.headline("mean at the smallest subblock / at the best", "above 1 (worse at 0.25 MiB)", 1, Double.NaN,
        means[0] / means[best], "x");
    double[] x = new double[subblocks.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = subblocks[i] / (double) MIB;
    }
    Charts.lines(plot, "Exp 9: whole-file read with a straggler, by subblock size", "subblock (MiB)",
        "latency (ms)", x, Arrays.asList("mean", "p95"), Arrays.asList(means, p95), true);
    return o;
  }

  /**
   * Experiment 7: four blocks written through stock HDFS and through POCache (cache on
   * write) per subblock size; the encoding and the caching of the same stream measured
   * on their own.
   */
  static Outcome exp7(Scale s, File plot, PrintStream out) throws IOException {
    long block = s.tiny ? 4 * MIB : 64 * MIB;
    int repeats = s.tiny ? 2 : 10;
    long[] subblocks = subblockSizes(block, s.tiny);
    Outcome o = new Outcome("exp7", "Microbenchmarks on writes: encoding, caching and overhead",
        "a stream of four 64 MiB blocks, subblocks 0.25-64 MiB; overhead = (POCache - Vanilla) / Vanilla",
        String.format(Locale.ROOT, "four %d MiB blocks, %d writes per mode and size, alternating, medians (single"
            + " writes vary by 20%% on 2 cores); encoding and caching timed on their own over the same stream",
            block >> 20, repeats));
    double[] overhead = new double[subblocks.length];
    double[] encodeMs = new double[subblocks.length];
    double[] cacheMs = new double[subblocks.length];
    byte[][] data = new byte[K][(int) block];
    for (int b = 0; b < K; b++) {
      DataPattern.fill(7, b * block, data[b], 0, data[b].length);
    }
    for (int i = 0; i < subblocks.length; i++) {
      double[] vanilla = new double[repeats];
      double[] pocache = new double[repeats];
      long cached;
      try (PaperCluster c = PaperCluster.builder().dataNodes(K + 1).k(K)
          .set(PoCacheConfigKeys.SUBBLOCK_KEY, Long.toString(subblocks[i])).start()) {
        write(c.plain, new Path("/exp7/warm-v"), data, block);
        write(c.pocache, new Path("/exp7/warm-p"), data, block);
        for (int r = 0; r < repeats; r++) {
          Path v = new Path("/exp7/v" + r);
          Path p = new Path("/exp7/p" + r);
          if (r % 2 == 0) {
            vanilla[r] = write(c.plain, v, data, block);
            pocache[r] = write(c.pocache, p, data, block);
          } else {
            pocache[r] = write(c.pocache, p, data, block);
            vanilla[r] = write(c.plain, v, data, block);
          }
          c.plain.delete(v, false);
          c.pocache.delete(p, false);
        }
        org.pocache.hdfs.client.PoCacheFileSystem pfs = (org.pocache.hdfs.client.PoCacheFileSystem) c.pocache;
        cached = pfs.cachedWrites() - pfs.abandonedWrites();
        if (cached < repeats) {
          throw new IOException("exp7: only " + cached + " of " + (repeats + 1) + " POCache writes with subblocks of "
              + mib(subblocks[i]) + " kept their parity; the overhead would be a stock write's");
        }
        double[] parts = encodeAndCache(c, data, block, (int) subblocks[i], repeats);
        encodeMs[i] = parts[0];
        cacheMs[i] = parts[1];
      }
      double lv = new LatencyStats(vanilla).percentile(50);
      double lp = new LatencyStats(pocache).percentile(50);
      overhead[i] = (lp - lv) / lv;
      Map<String, Object> row = o.row();
      row.put("subblock_bytes", subblocks[i]);
      row.put("encoding_ms", encodeMs[i]);
      row.put("caching_ms", cacheMs[i]);
      row.put("vanilla_write_ms", vanilla);
      row.put("pocache_write_ms", pocache);
      row.put("vanilla_median_ms", lv);
      row.put("pocache_median_ms", lp);
      row.put("pocache_writes_cached", cached);
      row.put("overhead", overhead[i]);
      out.printf(Locale.ROOT, "subblock %8s  encoding %8.1f ms  caching %8.1f ms  write vanilla %8.1f ms,"
          + " pocache %8.1f ms  overhead %6.1f%%%n", mib(subblocks[i]), encodeMs[i], cacheMs[i], lv, lp,
          100 * overhead[i]);
    }
    int best = 0;
    double worst = overhead[0];
    for (int i = 1; i < overhead.length; i++) {
      if (overhead[i] < overhead[best]) {
        best = i;
      }
      worst = Math.max(worst, overhead[i]);
    }
    int at1m = -1;
    for (int i = 0; i < subblocks.length; i++) {
      if (subblocks[i] == MIB) {
        at1m = i;
      }
    }
    o.headline("highest write overhead over the sizes", "at most 23%", Double.NaN, 23, 100 * worst, "%");
    o.headline("write overhead at 1 MiB subblocks", "8.18%", 8.18, 8.18, at1m < 0 ? Double.NaN
        : 100 * overhead[at1m], "%");
    o.headline("subblock size with the lowest overhead (MiB)", "1 MiB", 1, 1, subblocks[best] / (double) MIB,
        "MiB");
    double[] x = new double[subblocks.length];
    double[] pct = new double[subblocks.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = subblocks[i] / (double) MIB;
      pct[i] = 100 * overhead[i];
    }
    Charts.lines(plot, "Exp 7: writes by subblock size", "subblock (MiB)", "ms, or % for overhead", x,
        Arrays.asList("encoding (ms)", "caching (ms)", "overhead (%)"), Arrays.asList(encodeMs, cacheMs, pct), true);
    return o;
  }

  /**
   * The stream's encoding (each data subblock folded into its substripe's parity with
   * ISA-L, as a writer does) and its caching (every parity subblock uploaded to Redis),
   * each timed alone; means over {@code repeats}.
   */
  private static double[] encodeAndCache(PaperCluster c, byte[][] data, long block, int sub, int repeats)
      throws IOException {
    int substripes = (int) (block / sub);
    byte[][] parity = new byte[substripes][sub];
    double encode = 0;
    double cache = 0;
    Map<String, String> conf = new HashMap<>();
    conf.put(RedisSettings.HOSTS_KEY, c.redis.host() + ":" + c.redis.port());
    try (ErasureCoder coder = Coders.create(CodeParameters.of(K, 1), CoderKind.AUTO);
         RedisParityStore store = RedisParityStore.connect(RedisSettings.from(conf::get))) {
      for (int r = -1; r < repeats; r++) {
        long start = System.nanoTime();
        for (byte[] p : parity) {
          Arrays.fill(p, (byte) 0);
        }
        for (int b = 0; b < K; b++) {
          for (int j = 0; j < substripes; j++) {
            coder.update(b, data[b], j * sub, new byte[][] {parity[j]}, 0, sub);
          }
        }
        long encoded = System.nanoTime();
        List<CompletableFuture<Void>> puts = new ArrayList<>();
        List<ParityKey> keys = new ArrayList<>();
        for (int j = 0; j < substripes; j++) {
          ParityKey key = store.key(7, 1, 0, j, 0);
          keys.add(key);
          puts.add(store.putAsync(key, new int[K], ByteBuffer.wrap(parity[j])));
        }
        CompletableFuture.allOf(puts.toArray(new CompletableFuture<?>[0])).join();
        long cached = System.nanoTime();
        for (ParityKey key : keys) {
          store.delete(key);
        }
        if (r >= 0) {
          encode += (encoded - start) / 1e6;
          cache += (cached - encoded) / 1e6;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (java.util.concurrent.CompletionException e) {
      throw new IOException("exp7: a parity upload failed: " + e.getCause(), e.getCause());
    } catch (ParityStoreException e) {
      throw new IOException("exp7: the parity store failed: " + e.getMessage(), e);
    }
    return new double[] {encode / repeats, cache / repeats};
  }

  private static double write(FileSystem fs, Path p, byte[][] data, long block) throws IOException {
    long start = System.nanoTime();
    try (FSDataOutputStream o = fs.create(p, true, 1 << 16, (short) 1, block)) {
      for (byte[] b : data) {
        for (int off = 0; off < b.length; off += (int) MIB) {
          o.write(b, off, (int) Math.min(MIB, b.length - off));
        }
      }
    }
    return (System.nanoTime() - start) / 1e6;
  }

  private static void readWhole(FileSystem fs, Path p, byte[] buf) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, buf, 0, buf.length);
    }
  }

  /** 0.25 MiB doubling up to the block (the paper's 0.25-64 MiB at 64 MiB blocks); tiny: three sizes. */
  static long[] subblockSizes(long block, boolean tiny) {
    if (tiny) {
      return new long[] {MIB / 4, MIB, block};
    }
    List<Long> l = new ArrayList<>();
    for (long b = MIB / 4; b <= block; b *= 2) {
      l.add(b);
    }
    long[] a = new long[l.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = l.get(i);
    }
    return a;
  }

  static String mib(long bytes) {
    return bytes % MIB == 0 ? (bytes / MIB) + " MiB" : String.format(Locale.ROOT, "%.2f MiB", bytes / (double) MIB);
  }

  static double stddev(double[] v) {
    double m = 0;
    for (double d : v) {
      m += d;
    }
    m /= v.length;
    double s = 0;
    for (double d : v) {
      s += (d - m) * (d - m);
    }
    return v.length > 1 ? Math.sqrt(s / (v.length - 1)) : 0;
  }
}
