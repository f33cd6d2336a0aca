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
package org.pocache.experiments;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * What a timed phase cost besides wall time, for telling a slow run's causes apart:
 * CPU time of this JVM (client, NameNode, DataNodes and Manager all run here), GC
 * time as the JVM's collectors count it, and CPU time of another process
 * (redis-server) from {@code /proc}. Readings are cumulative; callers take
 * differences. Where a reading is unavailable (no {@code com.sun.management}, no
 * {@code /proc}) it is -1.
 */
final class ResourceUse {
  /** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
  private static final long TICKS_PER_SECOND = 100;

  final long jvmCpuNanos;
  final long gcMillis;
  final long otherCpuMillis;

  private ResourceUse(long jvmCpuNanos, long gcMillis, long otherCpuMillis) {
    this.jvmCpuNanos = jvmCpuNanos;
    this.gcMillis = gcMillis;
    this.otherCpuMillis = otherCpuMillis;
  }

  /** Now, with {@code otherPid}'s CPU time (-1: none). */
  static ResourceUse now(long otherPid) {
    long cpu = -1;
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean) {
      cpu = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    }
    long gc = 0;
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      gc += Math.max(0, b.getCollectionTime());
    }
    return new ResourceUse(cpu, gc, otherPid < 0 ? -1 : processCpuMillis(otherPid));
  }

  private static long processCpuMillis(long pid) {
    try {
      String stat = new String(Files.readAllBytes(Paths.get("/proc", Long.toString(pid), "stat")),
          StandardCharsets.US_ASCII);
      // Fields after the command name (which may hold spaces) start at the state, field 3; utime and stime are 14, 15.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1000 / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Adds {@code later - this} to {@code sums} (jvm cpu ms, gc ms, other cpu ms); unavailable readings add nothing. */
  void addDifference(ResourceUse later, double[] sums) {
    if (jvmCpuNanos >= 0 && later.jvmCpuNanos >= 0) {
      sums[0] += (later.jvmCpuNanos - jvmCpuNanos) / 1e6;
    }
    sums[1] += later.gcMillis - gcMillis;
    if (otherCpuMillis >= 0 && later.otherCpuMillis >= 0) {
      sums[2] += later.otherCpuMillis - otherCpuMillis;
    }
  }
}
