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
package org.pocache.hdfs.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.util.StringUtils;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.pocache.manager.protocol.CachedFiles;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ManagerReport;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.PoCacheManagerProtocol;

/**
 * {@code pocache admin} (or {@code hadoop jar <jar> org.pocache.hdfs.tools.PoCacheAdmin}):
 * operator commands against the Manager, found at dfs.pocache.manager.address on
 * the default file system's host; Hadoop's generic options (-conf, -D) apply.
 * Exit codes: 0 done, 1 the Manager refused or could not be reached, 2 usage.
 */
public final class PoCacheAdmin extends Configured implements Tool {
  static final String USAGE = "Usage: pocache admin [generic options] -report | -stragglers | -ls [path]"
      + " | -evict <path> | -prefetch <path> | -checknative [-a]";
  private static final int LS_LIMIT = 10_000;

  private final PrintStream out;

  public PoCacheAdmin(Configuration conf, PrintStream out) {
    super(conf);
    this.out = out;
  }

  @Override
  public int run(String[] args) throws Exception {
    String cmd = args.length == 0 ? "" : args[0];
    if (cmd.equals("-checknative")) {
      // Needs no Manager: whether this node's ISA-L loads, as `hadoop checknative` does for libhadoop.
      return org.pocache.coder.CheckNative.run(java.util.Arrays.copyOfRange(args, 1, args.length), out);
    }
    boolean ok;
    switch (cmd) {
      case "-report":
      case "-stragglers":
        ok = args.length == 1;
        break;
      case "-ls":
        ok = args.length <= 2;
        break;
      case "-evict":
      case "-prefetch":
        ok = args.length == 2;
        break;
      default:
        ok = false;
    }
    if (!ok) {
      System.err.println(args.length == 0 ? USAGE : "pocache admin: bad command " + String.join(" ", args)
          + "\n" + USAGE);
      return 2;
    }
    Configuration conf = getConf();
    ManagerClient m;
    try {
      m = ManagerClient.forDefaultFileSystem(conf, 2000);
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("pocache admin: " + e.getMessage());
      return 1;
    }
    try {
      switch (cmd) {
        case "-report":
          report(m.getReport());
          break;
        case "-stragglers":
          PoCacheManagerProtocol.StragglerList s = m.getStragglers();
          out.println("Stragglers (" + s.detector + "): " + s.dataNodes.size());
          for (String dn : s.dataNodes) {
            boolean disk = s.byHeartbeats.contains(dn);
            boolean seen = s.byClientReads.contains(dn);
            out.println("  " + dn + " (" + (disk && seen ? "heartbeats, client reads" : seen ? "client reads"
                : "heartbeats") + ")");
          }
          break;
        case "-ls":
          list(m.listCached(args.length == 2 ? absolute(args[1]) : "/", LS_LIMIT));
          break;
        case "-evict":
          out.println(m.evict(absolute(args[1])));
          break;
        default:
          out.println(m.prefetch(absolute(args[1])));
          break;
      }
      return 0;
    } catch (IOException e) {
      String msg = e.getMessage() == null ? e.toString() : e.getMessage().split("\n")[0];
      StringBuilder where = new StringBuilder();
      for (InetSocketAddress a : m.addresses()) { // both of an HA pair
        where.append(where.length() == 0 ? "" : ", ")
            .append(a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString()).append(':')
            .append(a.getPort());
      }
      String other = ManagerClient.notTheManager(e);
      System.err.println("pocache admin " + cmd + ": " + msg + " (Manager at " + where + ")"
          + (other == null ? "" : ". " + other));
      return 1;
    } finally {
      m.close();
    }
  }

  /** A path as the user typed it, qualified against the working directory of the default file system. */
  private String absolute(String p) throws IOException {
    Path path = new Path(p);
    if (!path.isAbsolute()) {
      path = FileSystem.get(getConf()).makeQualified(path);
    }
    return path.toUri().getPath();
  }

  private void report(ManagerReport r) {
    out.println("POCache Manager report");
    out.println("  Redis:            " + (r.isRedisHealthy() ? "healthy" : "UNAVAILABLE (no descriptors served)")
        + ", restarts seen: " + r.getRedisRestarts());
    out.println("  Capacity:         " + r.getCapacityBytes() + " B (" + StringUtils.byteDesc(r.getCapacityBytes())
        + ")");
    out.println("  Used:             " + r.getUsedBytes() + " B (" + StringUtils.byteDesc(r.getUsedBytes()) + ", "
        + String.format("%.2f%%", 100.0 * r.getUsedBytes() / Math.max(1, r.getCapacityBytes())) + ")");
    out.println("  Files cached:     " + r.getFilesCached() + " (open reservations: " + r.getReservations() + ")");
    out.println("  Policies:         " + r.getPolicies());
    out.println("  Hits:             " + r.getHits());
    out.println("  Misses:           " + r.getMisses());
    out.println("  Straggler hits:   " + r.getStragglerHits());
    out.println("  Admissions:       " + r.getAdmissions());
    out.println("  Evictions:        " + r.getEvictions());
    out.println("  Prefetches:       " + r.getPrefetches());
    out.println("  Failed fills:     " + r.getFailedFills());
    out.println("  Heartbeats:       " + r.getHeartbeats() + " (client observations: " + r.getClientObservations()
        + ")");
    out.println("  Stragglers (" + r.getDetector() + "): " + r.getStragglers().size()
        + (r.getStragglers().size() == 0 ? "" : " " + String.join(", ", r.getStragglers())));
  }

  private void list(CachedFiles l) {
    out.println("Found " + l.getDescriptors().size() + (l.isTruncated() ? "+" : "") + " files");
    out.println(String.format("%-9s %12s %14s %6s %12s %8s  %s", "state", "length", "parity bytes", "k+m",
        "subblock", "stripes", "path"));
    for (ParityDescriptor d : l.getDescriptors()) {
      out.println(String.format("%-9s %12d %14d %6s %12d %8d  %s", d.getState(), d.getLength(), d.getParityBytes(),
          d.getK() + "+" + d.getM(), d.getSubblockBytes(), d.getStripes(), d.getPath()));
    }
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new PoCacheAdmin(new HdfsConfiguration(), System.out), args));
  }
}
