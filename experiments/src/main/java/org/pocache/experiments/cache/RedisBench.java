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
package org.pocache.experiments.cache;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParityValue;
import org.pocache.cache.RedisParityStore;
import org.pocache.cache.RedisSettings;
import org.pocache.experiments.LatencyStats;
import org.pocache.experiments.Options;
import org.pocache.experiments.UsageException;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * {@code pocache bench redis}: parity store throughput and latency against a real
 * local redis-server (started for the run): pipelined PUT and GET of parity values
 * (checksummed and verified, as in production), and misses. One "call" is one
 * pipelined batch of {@code pipeline} values; GB/s counts payload bytes (10^9).
 *
 * <p>Then the writers' upload path: asynchronous 1 MiB puts in rounds of 16 (one
 * 64 MiB file's parity at k = 4), through Jedis and through the store's own RESP
 * connections ({@code dfs.pocache.redis.resp.set.enabled}) in alternating rounds,
 * with the CPU time of the upload threads per MiB (ThreadMXBean): on a machine the
 * HDFS write already keeps busy, that CPU is what a write pays for its parity.
 */
public final class RedisBench {
  static final String USAGE = String.join("\n",
      "Usage: pocache bench redis [--json FILE] [--seconds S]",
      "  --json FILE   also write {\"results\":[{\"op\",\"value_bytes\",\"pipeline\",\"threads\",\"gbps\",\"p50_us\","
          + "\"p99_us\"}, ...], \"uploads\":[{\"path\",\"upload_cpu_ms_per_mib\",\"wall_ms_per_mib\",\"mib\"}, ...]}",
      "  --seconds S   measuring time per row (default 2)");

  public static void main(String[] args) throws Exception {
    Options o;
    double seconds;
    try {
      o = Options.parse(args, Arrays.asList("json", "seconds"), Arrays.asList("help"));
      if (o.has("help")) {
        System.out.println(USAGE);
        return;
      }
      seconds = o.doubleValue("seconds", 2, 0.1);
    } catch (UsageException e) {
      System.err.println("pocache bench redis: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    List<String> rows = new ArrayList<>();
    List<String> uploads;
    try (RedisServerFixture redis = RedisServerFixture.builder().start()) {
      Map<String, String> conf = new HashMap<>();
      conf.put(RedisSettings.HOSTS_KEY, redis.host() + ":" + redis.port());
      try (RedisParityStore store = RedisParityStore.connect(RedisSettings.from(conf::get))) {
        System.out.printf(Locale.ROOT, "redis-server %s on 127.0.0.1:%d (%s)%n", redis.version(), redis.port(),
            redis.binary().source().name().toLowerCase(Locale.ROOT));
        System.out.printf(Locale.ROOT, "%-5s %12s %9s %8s %8s %10s %10s%n", "op", "value_bytes", "pipeline",
            "threads", "GB/s", "p50_us", "p99_us");
        for (int size : new int[] {64 << 10, 1 << 20}) {
          for (int pipeline : new int[] {1, 8}) {
            rows.add(run(store, "put", size, pipeline, seconds));
            rows.add(run(store, "get", size, pipeline, seconds));
          }
        }
        rows.add(run(store, "miss", 0, 1, seconds));
      }
      uploads = uploads(redis, seconds);
    }
    if (o.has("json")) {
      File f = new File(o.string("json", null));
      File parent = f.getAbsoluteFile().getParentFile();
      if (parent != null) {
        Files.createDirectories(parent.toPath());
      }
      Files.write(f.toPath(), ("{\"results\":[\n  " + String.join(",\n  ", rows) + "\n],\n\"uploads\":[\n  "
          + String.join(",\n  ", uploads) + "\n]}\n")
          .getBytes(StandardCharsets.UTF_8));
      System.out.println("wrote " + f);
    }
  }

  /** Upload-thread CPU of async 1 MiB puts, Jedis against the store's own connections. */
  private static List<String> uploads(RedisServerFixture redis, double seconds) throws Exception {
    String[] paths = {"jedis", "resp"};
    RedisParityStore[] stores = new RedisParityStore[2];
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long[] cpu = new long[2];
    long[] wall = new long[2];
    long[] mib = new long[2];
    try {
      for (int x = 0; x < 2; x++) {
        Map<String, String> conf = new HashMap<>();
        conf.put(RedisSettings.HOSTS_KEY, redis.host() + ":" + redis.port());
        conf.put(RedisSettings.RESP_SET_KEY, Boolean.toString(x == 1));
        stores[x] = RedisParityStore.connect(RedisSettings.from(conf::get));
      }
      byte[][] values = new byte[16][ParityValue.headerBytes(4) + (1 << 20)];
      Random r = new Random(16);
      for (byte[] v : values) {
        r.nextBytes(v);
      }
      int[] crcs = {1, 2, 3, 4};
      long end = System.nanoTime() + (long) (seconds * 2e9);
      for (int round = 0; round < 8 || System.nanoTime() < end; round++) {
        for (int t = 0; t < 2; t++) {
          int x = round % 2 == 0 ? t : 1 - t;
          long c0 = uploadThreadCpu(mx);
          long w0 = System.nanoTime();
          List<CompletableFuture<Void>> fs = new ArrayList<>();
          for (int j = 0; j < values.length; j++) {
            fs.add(stores[x].putInPlaceAsync(stores[x].key(77 + x, 1, 0, j, 0), crcs, values[j]));
          }
          for (CompletableFuture<Void> f : fs) {
            f.get();
          }
          if (round >= 4) { // the first rounds warm both paths up
            wall[x] += System.nanoTime() - w0;
            cpu[x] += uploadThreadCpu(mx) - c0;
            mib[x] += values.length;
          }
        }
      }
    } finally {
      for (int x = 0; x < 2; x++) {
        if (stores[x] != null) {
          stores[x].deleteFile(77 + x, 1, 1, 16, 1);
          stores[x].close();
        }
      }
    }
    System.out.printf(Locale.ROOT, "%nasync 1 MiB uploads, rounds of 16, alternating:%n%-6s %22s %16s %8s%n", "path",
        "upload_cpu_ms_per_mib", "wall_ms_per_mib", "mib");
    List<String> out = new ArrayList<>();
    for (int x = 0; x < 2; x++) {
      double c = cpu[x] / 1e6 / mib[x];
      double w = wall[x] / 1e6 / mib[x];
      System.out.printf(Locale.ROOT, "%-6s %22.3f %16.3f %8d%n", paths[x], c, w, mib[x]);
      out.add(String.format(Locale.ROOT, "{\"path\":\"%s\",\"upload_cpu_ms_per_mib\":%.4f,\"wall_ms_per_mib\":%.4f,"
          + "\"mib\":%d}", paths[x], c, w, mib[x]));
    }
    return out;
  }

  /** CPU time of every live store upload thread (named pocache-redis-put-N), in ns. */
  private static long uploadThreadCpu(ThreadMXBean mx) {
    long sum = 0;
    for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (t != null && t.getThreadName().startsWith("pocache-redis-put-")) {
        sum += Math.max(0, mx.getThreadCpuTime(t.getThreadId()));
      }
    }
    return sum;
  }

  private static String run(RedisParityStore store, String op, int size, int pipeline, double seconds)
      throws Exception {
    List<ParityKey> keys = new ArrayList<>();
    List<int[]> crcs = new ArrayList<>();
    List<ByteBuffer> payloads = new ArrayList<>();
    Random r = new Random(size + pipeline);
    for (int j = 0; j < pipeline; j++) {
      keys.add(store.key(op.equals("miss") ? 999_999 : size, 1, 0, j, 0));
      crcs.add(new int[] {1, 2, 3, 4});
      byte[] b = new byte[size];
      r.nextBytes(b);
      payloads.add(ByteBuffer.wrap(b));
    }
    if (op.equals("get")) {
      store.putAll(keys, crcs, payloads);
    }
    List<Double> lat = new ArrayList<>();
    long bytes = 0;
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long warm = System.nanoTime() + (long) (seconds * 0.2e9);
    long start = 0;
    while (true) {
      long t0 = System.nanoTime();
      if (t0 > end) {
        break;
      }
      switch (op) {
        case "put":
          store.putAll(keys, crcs, payloads);
          break;
        case "get": {
          ParityValue[] v = store.getAll(keys);
          if (v[0] == null || v[0].payloadLength() != size) {
            throw new IllegalStateException("GET returned the wrong value");
          }
          break;
        }
        default:
          if (store.get(keys.get(0)) != null) {
            throw new IllegalStateException("a miss returned a value");
          }
          break;
      }
      long t1 = System.nanoTime();
      if (t0 >= warm) {
        if (start == 0) {
          start = t0;
        }
        lat.add((t1 - t0) / 1e3);
        bytes += (long) size * pipeline;
      }
    }
    double[] l = new double[lat.size()];
    for (int i = 0; i < l.length; i++) {
      l[i] = lat.get(i);
    }
    LatencyStats s = new LatencyStats(l);
    double gbps = bytes / (double) (end - start);
    System.out.printf(Locale.ROOT, "%-5s %12d %9d %8d %8.2f %10.1f %10.1f%n", op, size, pipeline, 1, gbps,
        s.percentile(50), s.percentile(99));
    return String.format(Locale.ROOT,
        "{\"op\":\"%s\",\"value_bytes\":%d,\"pipeline\":%d,\"threads\":1,\"gbps\":%.3f,"
            + "\"p50_us\":%.1f,\"p99_us\":%.1f}",
        op, size, pipeline, gbps, s.percentile(50), s.percentile(99));
  }
}
