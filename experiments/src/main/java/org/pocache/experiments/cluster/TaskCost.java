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
package org.pocache.experiments.cluster;

import java.net.URI;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What a task pays in a fresh JVM before and while it reads its split: FileSystem
 * initialization, the open, the read of one block (or, with {@code all}, the whole file,
 * as a TestDFSIO task reads) front to back in 64 KiB calls, the close. Run once per JVM
 * (as a task runs), with the cluster's conf dir and jars on the class path;
 * {@code fs.hdfs.impl} picks the client.
 *
 * <pre>java -cp conf:lib/*:experiments/target/classes ... TaskCost &lt;file&gt;
 *     [block index|all] [fs.hdfs.impl] [bytes per read call] [CPU ns of work per byte read]</pre>
 */
public final class TaskCost {
  private TaskCost() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--write")) {
      write(args);
      return;
    }
    Path p = new Path(args[0]);
    boolean whole = args.length > 1 && args[1].equals("all");
    int blockIndex = args.length > 1 && !whole ? Integer.parseInt(args[1]) : 0;
    int readSize = args.length > 3 ? Integer.parseInt(args[3]) : 64 << 10;
    long workNanosPerByte = args.length > 4 ? Long.parseLong(args[4]) : 0;
    long t0 = System.nanoTime();
    Configuration conf = new Configuration();
    if (args.length > 2) {
      conf.set("fs.hdfs.impl", args[2]);
    }
    FileSystem fs = FileSystem.get(URI.create(conf.get("fs.defaultFS")), conf);
    long t1 = System.nanoTime();
    String afterInit = jvmCost();
    FileStatus st = fs.getFileStatus(p);
    long start = whole ? 0 : blockIndex * st.getBlockSize();
    long end = whole ? st.getLen() : Math.min(st.getLen(), start + st.getBlockSize());
    long t2 = System.nanoTime();
    FSDataInputStream in = fs.open(p);
    long t3 = System.nanoTime();
    String afterOpen = jvmCost();
    in.seek(start);
    byte[] b = new byte[readSize];
    long n = 0;
    long firstRead = 0;
    for (long at = start; at < end; ) {
      long c0 = n == 0 ? System.nanoTime() : 0;
      int r = in.read(b, 0, (int) Math.min(b.length, end - at));
      if (n == 0) {
        firstRead = System.nanoTime() - c0;
      }
      if (r <= 0) {
        break;
      }
      at += r;
      n += r;
      if (workNanosPerByte > 0) {
        spin(r * workNanosPerByte);
      }
    }
    long t4 = System.nanoTime();
    in.close();
    fs.close();
    long t5 = System.nanoTime();
    System.out.printf(Locale.ROOT,
        "%s init %.0f ms, open %.0f ms, read %d bytes in %d-byte calls %.0f ms (the first %.1f ms), close %.0f ms,"
            + " total %.0f ms; %s (after init: %s; after open: %s)%n",
        fs.getClass().getSimpleName(), (t1 - t0) / 1e6, (t3 - t2) / 1e6, n, readSize, (t4 - t3) / 1e6,
        firstRead / 1e6,
        (t5 - t4) / 1e6, (t5 - t0) / 1e6, jvmCost(), afterInit, afterOpen);
    System.out.println(poCacheCounters(fs));
  }

  /** Busy CPU for {@code nanos}, as a map task's own work on the bytes it was given. */
  private static void spin(long nanos) {
    long until = System.nanoTime() + nanos;
    long x = 0;
    while (System.nanoTime() < until) {
      x++;
    }
    if (x == 42) {
      System.out.print("");
    }
  }

  /** POCache's read counters, when {@code fs} is POCache's FileSystem (by reflection: no compile-time tie). */
  private static String poCacheCounters(FileSystem fs) {
    StringBuilder b = new StringBuilder();
    for (String name : new String[] {"decodedSubstripes", "parityGets", "skippedPieces", "proactiveOpens",
        "fallbacks"}) {
      try {
        b.append(name).append('=').append(fs.getClass().getMethod(name).invoke(fs)).append(' ');
      } catch (ReflectiveOperationException e) {
        return "";
      }
    }
    return b.toString();
  }

  /**
   * {@code --write <path> <bytes> <block size> [fs.hdfs.impl] [call bytes]}: what a reducer
   * pays to write its output (writes of random bytes, 64 KiB a call unless given: a record
   * writer's are a record's, about 100 bytes for TeraSort's, then close).
   */
  private static void write(String[] args) throws Exception {
    Path p = new Path(args[1]);
    long bytes = Long.parseLong(args[2]);
    long blockSize = Long.parseLong(args[3]);
    long t0 = System.nanoTime();
    Configuration conf = new Configuration();
    if (args.length > 4) {
      conf.set("fs.hdfs.impl", args[4]);
    }
    int call = args.length > 5 ? Integer.parseInt(args[5]) : 64 << 10;
    FileSystem fs = FileSystem.get(URI.create(conf.get("fs.defaultFS")), conf);
    byte[] b = new byte[64 << 10];
    new java.util.Random(1).nextBytes(b);
    long t1 = System.nanoTime();
    try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, blockSize)) {
      int from = 0;
      for (long at = 0; at < bytes; at += call) {
        if (from + call > b.length) {
          from = 0;
        }
        out.write(b, from, (int) Math.min(call, bytes - at));
        from += call;
      }
    }
    long t2 = System.nanoTime();
    fs.close();
    System.out.printf(Locale.ROOT, "%s init %.0f ms, write %d bytes in %d-byte blocks, %d-byte calls,"
        + " and close %.0f ms; %s%n",
        fs.getClass().getSimpleName(), (t1 - t0) / 1e6, bytes, blockSize, call, (t2 - t1) / 1e6, jvmCost());
  }

  /** This JVM's CPU time, GC time and classes loaded so far. */
  private static String jvmCost() {
    long gcMillis = 0;
    for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory
        .getGarbageCollectorMXBeans()) {
      gcMillis += Math.max(0, gc.getCollectionTime());
    }
    java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    long cpuNanos = os instanceof com.sun.management.OperatingSystemMXBean
        ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : -1;
    return String.format(Locale.ROOT, "process CPU %.0f ms, GC %d ms, %d classes loaded", cpuNanos / 1e6, gcMillis,
        java.lang.management.ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount());
  }
}
