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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.AddErasureCodingPolicyResponse;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicyInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedStripedBlock;
import org.apache.hadoop.io.erasurecode.ECSchema;
import org.pocache.experiments.LatencyStats;
import org.pocache.experiments.WholeFileRead;
import org.pocache.manager.protocol.ManagerClient;

/**
 * Experiments 1 and 2 on the multi-process cluster of {@code pocache cluster up}: the
 * same rows as {@link SingleClientReads}, read by a client JVM of its own through the
 * cluster's configuration files, against DataNode JVMs in network namespaces whose
 * straggler is shaped by {@code tc}. {@code scripts/pocache experiment exp1 --cluster
 * multiproc} drives it in three steps per k, switching the straggler between them:
 *
 * <pre>
 *   prepare  write the files (contiguous: block i pinned to the i-th DataNode from the
 *            straggler on, replication 1; HR's copies: blocks i on DataNodes i and i+1;
 *            striped: RS-k-m files whose block group has the straggler among its data
 *            blocks) and have the Manager cache their parity
 *   read     every mode reads every file whole, R times, timed and checked; one JSON per phase
 *   summarize  the phases' JSON as one experiment's JSON (expN-mp.json) and its figures
 * </pre>
 *
 * Stock HDFS and POCache differ only in {@code fs.hdfs.impl}; HR in its hedged-read keys.
 */
public final class MultiProcessReads {
  private static final int CHUNK = 1 << 20;
  private static final long HDFS_DEFAULT_HEDGE_THRESHOLD_MS = 500;

  private MultiProcessReads() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      usage();
    }
    Map<String, String> o = new LinkedHashMap<>();
    List<String> rest = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      if (args[i].startsWith("--")) {
        if (i + 1 >= args.length) {
          fail("option " + args[i] + " needs a value");
        }
        o.put(args[i].substring(2), args[++i]);
      } else {
        rest.add(args[i]);
      }
    }
    switch (args[0]) {
      case "prepare":
        prepare(new Setup(o), System.out);
        break;
      case "read":
        read(new Setup(o), o.getOrDefault("modes", "main"), (int) number(o, "repeats", "5"),
            new File(required(o, "json")), required(o, "straggler-on"), required(o, "straggler-off"), System.out);
        break;
      case "summarize":
        summarize(required(o, "id"), new File(required(o, "out")), new File(required(o, "plot")),
            o.getOrDefault("command", ""), number(o, "seconds", "0"),
            number(o, "factor", "10"), rest);
        break;
      default:
        usage();
    }
  }

  private static void usage() {
    System.err.println("Usage: MultiProcessReads prepare --layout contiguous|striped --k K --block-mib B --files F"
        + " --dir /ex/exp1 --straggler-host H [--policy RS-k-m-1024k]\n"
        + "       MultiProcessReads read (the same options) [--modes main|hedged] [--repeats R]"
        + " --straggler-on CMD --straggler-off CMD --json F\n"
        + "       MultiProcessReads summarize --id exp1|exp2 --out F.json --plot F.png [--command C] [--seconds S]"
        + " [--factor F] READS.json...");
    System.exit(2);
  }

  private static void fail(String message) {
    System.err.println("MultiProcessReads: " + message);
    System.exit(2);
  }

  /**
   * Option {@code key} as a number, whole but for --factor and --seconds (its default when
   * absent; required when the default is null).
   */
  private static double number(Map<String, String> o, String key, String dflt) {
    String v = dflt == null ? required(o, key) : o.getOrDefault(key, dflt);
    boolean whole = !key.equals("factor") && !key.equals("seconds");
    try {
      double d = Double.parseDouble(v);
      if (Double.isFinite(d) && (!whole || d == Math.rint(d))) {
        return d;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    fail("--" + key + " must be a " + (whole ? "whole " : "") + "number, got '" + v + "'");
    return 0;
  }

  private static String required(Map<String, String> o, String key) {
    String v = o.get(key);
    if (v == null) {
      fail("--" + key + " is required");
    }
    return v;
  }

  /** What one k's files are: layout, k, block size, file count, directory, straggler. */
  static final class Setup {
    final boolean striped;
    final int k;
    final long blockSize;
    final int files;
    final Path dir;
    final String stragglerHost;
    final String policy;
    final long seed;

    Setup(Map<String, String> o) {
      String layout = required(o, "layout");
      if (!layout.equals("contiguous") && !layout.equals("striped")) {
        fail("--layout must be contiguous or striped, got '" + layout + "'");
      }
      striped = layout.equals("striped");
      k = (int) number(o, "k", null);
      blockSize = (long) number(o, "block-mib", null) << 20;
      files = (int) number(o, "files", "2");
      dir = new Path(required(o, "dir"));
      stragglerHost = required(o, "straggler-host");
      policy = o.getOrDefault("policy", "RS-" + k + "-2-1024k");
      seed = (long) number(o, "seed", "20261127");
      if (k < 2 || files < 1 || blockSize <= 0) {
        fail("--k must be >= 2, --files >= 1 and --block-mib >= 1");
      }
    }

    long fileLength() {
      return k * blockSize;
    }

    Path r1(int f) {
      return new Path(dir, "r1/file-" + f);
    }

    Path r2(int f) {
      return new Path(dir, "r2/file-" + f);
    }

    Path stripedFile(int f) {
      return new Path(dir, "striped/file-" + f);
    }
  }

  // --- prepare ---------------------------------------------------------------------

  static void prepare(Setup s, PrintStream out) throws IOException {
    Configuration conf = new Configuration();
    conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.get(FileSystem.getDefaultUri(conf), conf)) {
      List<DatanodeInfo> order = dataNodesFrom(fs, s.stragglerHost);
      fs.delete(s.dir, true);
      List<Path> cached = new ArrayList<>();
      if (s.striped) {
        cached.addAll(writeStriped(fs, s, order.get(0), out));
      } else {
        if (order.size() < s.k + 1) {
          throw new IOException("contiguous rows at k = " + s.k + " need " + (s.k + 1) + " DataNodes (HR keeps two"
              + " replicas over k + 1), the cluster has " + order.size() + " (cluster up --datanodes)");
        }
        for (int f = 0; f < s.files; f++) {
          writePinned(fs, s.r1(f), s, f, b -> new DatanodeInfo[] {order.get(b)});
          writePinned(fs, s.r2(f), s, f, b -> new DatanodeInfo[] {order.get(b), order.get(b + 1)});
          cached.add(s.r1(f));
        }
      }
      out.printf(Locale.ROOT, "wrote %d %s file(s) of %d x %d MiB under %s; the straggler %s holds block 0 of"
          + " each%n", s.files, s.striped ? "striped (" + s.policy + ")" : "contiguous", s.k, s.blockSize >> 20,
          s.dir, s.stragglerHost);
      try (ManagerClient m = ManagerClient.forDefaultFileSystem(conf, 60_000)) {
        for (Path p : cached) {
          m.prefetch(p.toUri().getPath());
        }
        long deadline = System.nanoTime() + 180_000_000_000L;
        for (Path p : cached) {
          while (!m.getDescriptor(p.toUri().getPath()).hasParity()) {
            if (System.nanoTime() > deadline) {
              throw new IOException("the Manager did not cache the parity of " + p + " within 180 s");
            }
            sleep(100);
          }
        }
      }
      out.printf("the Manager holds the parity of all %d file(s)%n", cached.size());
    }
  }

  /** Live DataNodes, the one on {@code stragglerHost} first, the rest by address. */
  private static List<DatanodeInfo> dataNodesFrom(DistributedFileSystem fs, String stragglerHost) throws IOException {
    List<DatanodeInfo> all = new ArrayList<>(Arrays.asList(fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE)));
    all.sort(Comparator.comparing(DatanodeInfo::getIpAddr, MultiProcessReads::compareAddresses));
    DatanodeInfo first = null;
    for (DatanodeInfo d : all) {
      if (d.getIpAddr().equals(stragglerHost) || d.getHostName().equals(stragglerHost)) {
        first = d;
      }
    }
    if (first == null) {
      throw new IOException("no live DataNode at " + stragglerHost + " (live: " + all.size() + ")");
    }
    all.remove(first);
    all.add(0, first);
    return all;
  }

  private static int compareAddresses(String a, String b) {
    String[] x = a.split("\\.");
    String[] y = b.split("\\.");
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      int c = Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.length, y.length);
  }

  /** Block b of file f on exactly {@code on.apply(b)}, one append per block (favored nodes are per stream). */
  private static void writePinned(DistributedFileSystem fs, Path p, Setup s, int f,
      java.util.function.IntFunction<DatanodeInfo[]> on) throws IOException {
    byte[] buf = new byte[CHUNK];
    long seed = seedOf(s, f);
    short replication = (short) on.apply(0).length;
    for (int b = 0; b < s.k; b++) {
      DatanodeInfo[] dns = on.apply(b);
      InetSocketAddress[] favored = new InetSocketAddress[dns.length];
      for (int r = 0; r < dns.length; r++) {
        favored[r] = InetSocketAddress.createUnresolved(dns[r].getIpAddr(), dns[r].getXferPort());
      }
      long start = b * s.blockSize;
      try (FSDataOutputStream o = b == 0
          ? fs.create(p, FsPermission.getFileDefault(), true, CHUNK, replication, s.blockSize, null, favored)
          : fs.append(p, EnumSet.of(CreateFlag.APPEND), CHUNK, null, favored)) {
        for (long pos = start; pos < start + s.blockSize; pos += CHUNK) {
          int n = (int) Math.min(CHUNK, start + s.blockSize - pos);
          fill(seed, pos, buf, n);
          o.write(buf, 0, n);
        }
      }
    }
    // Where the NameNode put each block: favored nodes are a hint it may overrule. A second
    // replica shows once its DataNode has reported it, so wait for that.
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      String wrong = misplaced(fs, p, s, on);
      if (wrong == null) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(wrong);
      }
      sleep(100);
    }
  }

  /** Why file {@code p}'s blocks are not where {@code on} says (null when they are). */
  private static String misplaced(DistributedFileSystem fs, Path p, Setup s,
      java.util.function.IntFunction<DatanodeInfo[]> on) throws IOException {
    List<LocatedBlock> blocks = fs.getClient().getLocatedBlocks(p.toUri().getPath(), 0, s.fileLength())
        .getLocatedBlocks();
    if (blocks.size() != s.k) {
      return p + ": " + blocks.size() + " blocks, not " + s.k;
    }
    for (int b = 0; b < blocks.size(); b++) {
      List<String> want = new ArrayList<>();
      for (DatanodeInfo d : on.apply(b)) {
        want.add(d.getXferAddr());
      }
      List<String> got = new ArrayList<>();
      for (DatanodeInfo d : blocks.get(b).getLocations()) {
        got.add(d.getXferAddr());
      }
      if (!got.containsAll(want) || got.size() != want.size()) {
        return p + ": block " + b + " is on " + got + ", not on " + want + " as asked";
      }
    }
    return null;
  }

  /**
   * Striped files whose one block group has the straggler among its data blocks (the
   * NameNode places groups at random): files that do not are written again.
   */
  private static List<Path> writeStriped(DistributedFileSystem fs, Setup s, DatanodeInfo straggler, PrintStream out)
      throws IOException {
    ErasureCodingPolicy policy = enablePolicy(fs, s.policy);
    int width = policy.getNumDataUnits() + policy.getNumParityUnits();
    if (policy.getNumDataUnits() != s.k) {
      throw new IOException(s.policy + " has " + policy.getNumDataUnits() + " data units, not k = " + s.k);
    }
    if (fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE).length < width) {
      throw new IOException(s.policy + " needs " + width + " DataNodes (cluster up --datanodes)");
    }
    Path parent = new Path(s.dir, "striped");
    fs.mkdirs(parent);
    fs.setErasureCodingPolicy(parent, s.policy);
    List<Path> written = new ArrayList<>();
    byte[] buf = new byte[CHUNK];
    int attempts = 0;
    for (int f = 0; f < s.files; f++) {
      Path p = s.stripedFile(f);
      while (true) {
        if (++attempts > 40 * s.files) {
          throw new IOException("the NameNode put no data block of " + s.files + " files on " + straggler.getIpAddr()
              + " in " + (attempts - 1) + " writes");
        }
        try (FSDataOutputStream o = fs.create(p, true)) {
          for (long pos = 0; pos < s.fileLength(); pos += CHUNK) {
            int n = (int) Math.min(CHUNK, s.fileLength() - pos);
            fill(seedOf(s, f), pos, buf, n);
            o.write(buf, 0, n);
          }
        }
        if (holdsData(fs, p, s, straggler)) {
          break;
        }
      }
      written.add(p);
    }
    out.printf("striped: %d write(s) for %d file(s) with a data block on the straggler%n", attempts, s.files);
    return written;
  }

  private static boolean holdsData(DistributedFileSystem fs, Path p, Setup s, DatanodeInfo straggler)
      throws IOException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      List<LocatedBlock> groups = fs.getClient().getLocatedBlocks(p.toUri().getPath(), 0, s.fileLength())
          .getLocatedBlocks();
      if (!groups.isEmpty() && groups.get(0) instanceof LocatedStripedBlock
          && groups.get(0).getLocations().length > 0) {
        LocatedStripedBlock g = (LocatedStripedBlock) groups.get(0);
        byte[] indices = g.getBlockIndices();
        DatanodeInfo[] at = g.getLocations();
        for (int i = 0; i < at.length; i++) {
          if (indices[i] < s.k && at[i].getXferAddr().equals(straggler.getXferAddr())) {
            return true;
          }
        }
        return false;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(p + ": no block locations within 30 s");
      }
      sleep(100);
    }
  }

  static ErasureCodingPolicy enablePolicy(DistributedFileSystem fs, String name) throws IOException {
    ErasureCodingPolicy policy = findPolicy(fs, name);
    if (policy == null) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("RS-(\\d+)-(\\d+)-(\\d+)k").matcher(name);
      if (!m.matches()) {
        throw new IOException("not an RS erasure-coding policy name: '" + name + "' (RS-<k>-<m>-<cell>k)");
      }
      AddErasureCodingPolicyResponse[] r = fs.addErasureCodingPolicies(new ErasureCodingPolicy[] {
          new ErasureCodingPolicy(new ECSchema("rs", Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))),
              Integer.parseInt(m.group(3)) * 1024)});
      if (!r[0].isSucceed()) {
        throw new IOException("cannot add erasure-coding policy " + name + ": " + r[0].getErrorMsg());
      }
      policy = findPolicy(fs, name);
      if (policy == null) {
        throw new IOException("erasure-coding policy " + name + " was added but is not listed");
      }
    }
    fs.enableErasureCodingPolicy(name);
    return policy;
  }

  private static ErasureCodingPolicy findPolicy(DistributedFileSystem fs, String name) throws IOException {
    for (ErasureCodingPolicyInfo info : fs.getAllErasureCodingPolicies()) {
      if (info.getPolicy().getName().equals(name)) {
        return info.getPolicy();
      }
    }
    return null;
  }

  // --- read ------------------------------------------------------------------------

  /** A row's mode, its FileSystem, files and how a file is read. */
  private static final class Mode {
    final String name;
    final FileSystem fs;
    final List<Path> files;
    final WholeFileRead how;
    final double[] ms;

    Mode(String name, FileSystem fs, List<Path> files, WholeFileRead how, int reads) {
      this.name = name;
      this.fs = fs;
      this.files = files;
      this.how = how;
      this.ms = new double[reads];
    }
  }

  static void read(Setup s, String group, int repeats, File json, String stragglerOn, String stragglerOff,
      PrintStream out) throws Exception {
    if (!group.equals("main") && !group.equals("hedged")) {
      fail("--modes must be main (Vanilla, PR, POCache) or hedged (HR), got '" + group + "'");
    }
    if (repeats < 1) {
      fail("--repeats must be >= 1, got " + repeats);
    }
    Configuration base = new Configuration();
    URI uri = FileSystem.getDefaultUri(base);
    Configuration plainConf = new Configuration(base);
    plainConf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    plainConf.setBoolean("fs.hdfs.impl.disable.cache", true);
    Configuration pocacheConf = new Configuration(base);
    pocacheConf.set("fs.hdfs.impl", "org.pocache.hdfs.client.PoCacheFileSystem");
    pocacheConf.setBoolean("fs.hdfs.impl.disable.cache", true);
    int len = (int) s.fileLength();
    byte[][] expected = new byte[s.files][];
    for (int f = 0; f < s.files; f++) {
      expected[f] = new byte[len];
      for (int pos = 0; pos < len; pos += CHUNK) {
        byte[] b = new byte[Math.min(CHUNK, len - pos)];
        fill(seedOf(s, f), pos, b, b.length);
        System.arraycopy(b, 0, expected[f], pos, b.length);
      }
    }
    byte[] buf = new byte[len];
    int reads = s.files * repeats;
    ExecutorService pool = Executors.newFixedThreadPool(s.k);
    List<Path> r1 = new ArrayList<>();
    List<Path> r2 = new ArrayList<>();
    List<Path> striped = new ArrayList<>();
    for (int f = 0; f < s.files; f++) {
      r1.add(s.r1(f));
      r2.add(s.r2(f));
      striped.add(s.stripedFile(f));
    }
    WholeFileRead sequential = WholeFileRead.sequential(CHUNK);
    WholeFileRead positional = WholeFileRead.positional();
    WholeFileRead blockByBlock = WholeFileRead.blockByBlockPread(s.blockSize);
    WholeFileRead parallel = WholeFileRead.parallelBlockPreads(s.blockSize, pool);
    List<Map<String, Object>> rowsOut = new ArrayList<>();
    List<Object> listed = new ArrayList<>();
    boolean hedgedGroup = group.equals("hedged");
    try (FileSystem plain = FileSystem.get(uri, plainConf); FileSystem pocache = FileSystem.get(uri, pocacheConf)) {
      if (!pocache.getClass().getName().startsWith("org.pocache.")) {
        throw new IOException("fs.hdfs.impl=PoCacheFileSystem gave " + pocache.getClass().getName());
      }
      List<FileSystem> hedged = new ArrayList<>();
      try {
        for (long threshold : new long[] {0, HDFS_DEFAULT_HEDGE_THRESHOLD_MS}) {
          if (!hedgedGroup) {
            break;
          }
          // DFSClient's hedged-read pool is static (HDFS 3.1): once one client hedges, every
          // pread in the JVM may, so HR rows run in a JVM of their own (--modes hedged).
          Configuration hc = new Configuration(plainConf);
          hc.setInt(HdfsClientConfigKeys.HedgedRead.THREADPOOL_SIZE_KEY, 16);
          hc.setLong(HdfsClientConfigKeys.HedgedRead.THRESHOLD_MILLIS_KEY, threshold);
          hedged.add(FileSystem.get(uri, hc));
        }
        for (boolean withStraggler : new boolean[] {false, true}) {
          if (withStraggler) {
            run(stragglerOn, out);
          }
          try {
            out.printf("k = %d, %s, %s:%n", s.k, s.striped ? "striped" : "contiguous",
                withStraggler ? "straggler " + s.stragglerHost : "no straggler");
            List<Mode> rows = new ArrayList<>();
            // Untimed reads first without the straggler only: with it, a read POCache leaves
            // to parity is still running on the straggler when the next mode's read starts,
            // so POCache reads last.
            boolean warm = !withStraggler;
            if (hedgedGroup) {
              rows.add(measure(out, buf, expected, warm, new Mode("hr", hedged.get(0), r2, blockByBlock, reads)));
              rows.add(measure(out, buf, expected, warm, new Mode("hr-default", hedged.get(1), r2, blockByBlock,
                  reads)));
            } else if (s.striped) {
              rows.add(measure(out, buf, expected, warm, new Mode("vanilla", plain, striped, sequential, reads)));
              rows.add(measure(out, buf, expected, warm, new Mode("pocache", pocache, striped, positional, reads)));
            } else {
              rows.add(measure(out, buf, expected, warm, new Mode("vanilla", plain, r1, sequential, reads)));
              Mode pr = new Mode("pr", plain, r1, parallel, reads);
              Mode poc = new Mode("pocache", pocache, r1, positional, reads);
              if (withStraggler) {
                rows.add(measure(out, buf, expected, false, pr));
                rows.add(measure(out, buf, expected, false, poc));
              } else {
                // Without a straggler PR and POCache take turns, so both see the same machine.
                measure(out, buf, expected, true, pr, poc);
                rows.add(pr);
                rows.add(poc);
              }
            }
            for (Mode m : rows) {
              Map<String, Object> r = new LinkedHashMap<>();
              r.put("mode", m.name);
              r.put("straggler", withStraggler);
              r.put("latencies_ms", m.ms);
              rowsOut.add(r);
            }
            try (ManagerClient m = ManagerClient.forDefaultFileSystem(base, 10_000)) {
              listed.add(m.getStragglers().dataNodes);
            } catch (IOException e) {
              listed.add("the Manager did not answer: " + e.getMessage());
            }
          } finally {
            if (withStraggler) {
              run(stragglerOff, out);
            }
          }
        }
      } finally {
        for (FileSystem h : hedged) {
          h.close();
        }
      }
      Map<String, Object> root = new LinkedHashMap<>();
      root.put("layout", s.striped ? "striped" : "contiguous");
      root.put("k", s.k);
      root.put("block_bytes", s.blockSize);
      root.put("files", s.files);
      root.put("repeats", repeats);
      root.put("straggler_host", s.stragglerHost);
      if (s.striped) {
        root.put("policy", s.policy);
      }
      root.put("rows", rowsOut);
      root.put("stragglers_listed_after_each_phase", listed);
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json, root);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Runs a shell command (the straggler's switch), failing the run when it fails. */
  static void run(String command, PrintStream out) throws IOException {
    if (command == null || command.isEmpty()) {
      throw new IOException("no --straggler-on/--straggler-off command given");
    }
    Process p = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
    try {
      if (p.waitFor() != 0) {
        throw new IOException("'" + command + "' exited with " + p.exitValue());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /**
   * Every file of the modes read whole, after one untimed read each when {@code warm}
   * (class loading, connections, JIT); with several modes they take turns file by file in alternating
   * order. A wrong byte fails the run. Returns the last mode.
   */
  private static Mode measure(PrintStream out, byte[] buf, byte[][] expected, boolean warm, Mode... modes)
      throws IOException {
    for (Mode m : warm ? modes : new Mode[0]) {
      for (Path p : m.files) {
        try (FSDataInputStream in = m.fs.open(p)) {
          m.how.read(in, buf);
        }
      }
    }
    int files = modes[0].files.size();
    int n = 0;
    for (int r = 0; n < modes[0].ms.length; r++) {
      for (int f = 0; f < files && n < modes[0].ms.length; f++, n++) {
        for (int turn = 0; turn < modes.length; turn++) {
          Mode m = modes[(r + f) % 2 == 0 ? turn : modes.length - 1 - turn];
          Arrays.fill(buf, (byte) 0);
          long start = System.nanoTime();
          try (FSDataInputStream in = m.fs.open(m.files.get(f))) {
            m.how.read(in, buf);
          }
          m.ms[n] = (System.nanoTime() - start) / 1e6;
          if (!Arrays.equals(buf, expected[f])) {
            throw new IOException(m.name + " read of " + m.files.get(f) + " returned wrong bytes");
          }
        }
      }
    }
    for (Mode m : modes) {
      LatencyStats st = new LatencyStats(m.ms);
      out.printf(Locale.ROOT, "  %-10s mean %8.1f ms  p50 %8.1f  max %8.1f  (%d reads)%n", m.name, st.mean(),
          st.percentile(50), st.percentile(100), m.ms.length);
    }
    return modes[modes.length - 1];
  }

  // --- summarize -------------------------------------------------------------------

  static void summarize(String id, File json, File plot, String command, double seconds, double factor,
      List<String> phases) throws IOException {
    boolean striped = id.equals("exp2");
    ObjectMapper mapper = new ObjectMapper();
    // k -> [without, with a straggler] -> mode -> latencies
    Map<Integer, List<Map<String, double[]>>> byK = new java.util.TreeMap<>();
    JsonNode any = null;
    for (String f : phases) {
      JsonNode n = mapper.readTree(new File(f));
      any = n;
      List<Map<String, double[]>> both = byK.computeIfAbsent(n.get("k").asInt(), x -> Arrays.asList(
          new LinkedHashMap<>(), new LinkedHashMap<>()));
      for (JsonNode r : n.get("rows")) {
        double[] ms = new double[r.get("latencies_ms").size()];
        for (int i = 0; i < ms.length; i++) {
          ms[i] = r.get("latencies_ms").get(i).asDouble();
        }
        both.get(r.get("straggler").asBoolean() ? 1 : 0).put(r.get("mode").asText(), ms);
      }
    }
    if (any == null) {
      throw new IOException("summarize: no phase JSON given");
    }
    List<String> modes = striped ? Arrays.asList("vanilla", "pocache")
        : Arrays.asList("vanilla", "hr", "hr-default", "pr", "pocache");
    int[] ks = byK.keySet().stream().mapToInt(Integer::intValue).toArray();
    String paper = striped
        ? "files of k blocks (k = 4, 6, 8, 10) of 64 MiB, striped by HDFS's RS policies, one straggler by stress -i 1,"
            + " ten runs"
        : "files of k blocks (k = 4, 6, 8, 10) of 64 MiB, one per DataNode (HR: k + 1 DataNodes, two replicas), one"
            + " straggler by stress -i 1, ten runs";
    String here = String.format(Locale.ROOT, "the multi-process cluster of docs/cluster.md (a client JVM, DataNode JVMs"
        + " in network namespaces shaped by tc, the straggler's egress at 1/%s), blocks of %d MiB, %d file(s) x %d"
        + " reads per row, k = %s%s", Charts.label(factor),
        any.get("block_bytes").asLong() >> 20, any.get("files").asInt(), any.get("repeats").asInt(),
        Arrays.toString(ks).replaceAll("[\\[\\]]", ""),
        striped ? "; RS-k-m as HDFS ships it (RS-6-3, RS-10-4) or RS-k-2" : "");
    Outcome o = new Outcome(id + "-mp", (striped ? "Single-client reads, striped layout"
        : "Single-client reads, contiguous layout"), paper, here);
    SingleClientReads.summarize(o, striped, ks, modes, (st, mi, ki) -> {
      double[] ms = byK.get(ks[ki]).get(st).get(modes.get(mi));
      if (ms == null) {
        throw new IOException("summarize: no " + modes.get(mi) + " row at k = " + ks[ki] + (st == 1 ? " with"
            : " without") + " a straggler");
      }
      return ms;
    }, plot, striped ? "Exp 2, multi-process" : "Exp 1, multi-process");
    o.put("command", command);
    o.put("seconds", seconds);
    o.put("plot", plot.getName());
    o.write(json);
    System.out.println("wrote " + json + " and " + plot);
  }

  // --- data ------------------------------------------------------------------------

  static long seedOf(Setup s, int file) {
    return s.seed * 1_000_003L + s.k * 7919L + file;
  }

  /** Fills {@code b[0..n)} with the bytes of the file of {@code seed} at {@code pos} (a multiple of 8). */
  static void fill(long seed, long pos, byte[] b, int n) {
    for (int i = 0; i < n; i += 8) {
      long v = mix(seed + (pos + i) / 8);
      for (int j = 0; j < 8 && i + j < n; j++) {
        b[i + j] = (byte) (v >>> (8 * j));
      }
    }
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
