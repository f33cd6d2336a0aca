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

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.pocache.manager.protocol.ManagerClient;

/**
 * Samples the Manager's straggler list every {@code interval} ms for {@code seconds}
 * s and prints one line per sample: the phase label, the time in ms, and the listed
 * DataNodes (comma-separated; "-" for none). Configured from HADOOP_CONF_DIR on the
 * classpath, as any client is. A sample the Manager does not answer prints "?".
 */
public final class StragglerSampler {
  private StragglerSampler() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("Usage: StragglerSampler <phase label> <seconds> <interval ms>");
      System.exit(2);
    }
    String label = args[0];
    long seconds = Long.parseLong(args[1]);
    long interval = Long.parseLong(args[2]);
    Configuration conf = new HdfsConfiguration();
    PrintStream out = System.out;
    long start = System.currentTimeMillis();
    long end = start + seconds * 1000;
    try (ManagerClient m = ManagerClient.forDefaultFileSystem(conf, 2000)) {
      for (long next = start; next < end; next += interval) {
        long now = System.currentTimeMillis();
        if (next > now) {
          Thread.sleep(next - now);
        }
        String listed;
        try {
          List<String> dns = new ArrayList<>(m.getStragglers().dataNodes);
          Collections.sort(dns);
          listed = dns.isEmpty() ? "-" : String.join(",", dns);
        } catch (Exception e) {
          listed = "?";
        }
        out.println(label + " " + (System.currentTimeMillis() - start) + " " + listed);
        out.flush();
      }
    }
  }
}
