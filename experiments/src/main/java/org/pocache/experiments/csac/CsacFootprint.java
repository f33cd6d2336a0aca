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

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import org.pocache.csac.Csac;
import org.pocache.csac.FileRef;
import org.pocache.csac.policy.Policies;

/**
 * Heap bytes per tracked file: builds a CSAC with {@code files} files read once
 * and cached (capacity = files, weight 1), for each eviction policy, and divides
 * the growth of the used heap (after full GCs) by the number of files. The
 * FileRef objects are created per read and dropped, as the Manager would; what
 * stays is CSAC's own state (index, eviction and prediction structures).
 */
public final class CsacFootprint {
  public static void main(String[] args) {
    int files = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    for (String eviction : Policies.EVICTION) {
      long before = usedAfterGc(mem);
      Csac c = new Csac(files, Policies.admission("a", "cache-upon-access", files, files),
          Policies.eviction("e", eviction, files), Policies.prediction("p", "recency", files), 0.1, Long.MAX_VALUE,
          Policies.eviction("e", eviction, files), () -> 0L);
      String[] dns = {"dn1", "dn2", "dn3", "dn4"};
      for (int i = 0; i < files; i++) {
        FileRef f = new FileRef(i, 1, dns);
        c.update(f, c.query(f));
      }
      long after = usedAfterGc(mem);
      System.out.printf(Locale.ROOT, "%-7s %d files tracked and cached: %.1f bytes of heap per file%n", eviction,
          c.cachedFiles(), (after - before) / (double) files);
      if (c.cachedFiles() != files) {
        throw new IllegalStateException("expected all files cached");
      }
    }
  }

  private static long usedAfterGc(MemoryMXBean mem) {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return mem.getHeapMemoryUsage().getUsed();
  }
}
