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
package org.pocache.testkit.hdfs;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.AddErasureCodingPolicyResponse;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicyInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.LocatedStripedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.io.erasurecode.ECSchema;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.TestDirs;

/**
 * A MiniDFSCluster with real DataNodes whose read speed can be changed at any time,
 * plus the file layouts POCache experiments need.
 *
 * <pre>
 * try (MiniHdfs hdfs = MiniHdfs.builder().dataNodes(5).start()) {
 *   hdfs.writePinnedFile(path, blockSize, 4, seed);   // block i on DataNode i, replication 1
 *   hdfs.throttle(2).setBandwidth(4 &lt;&lt; 20);          // DataNode 2 becomes a 4 MiB/s straggler
 *   hdfs.throttle(2).setDelayPerRead(200);            // ... that also stalls 200 ms per read
 *   hdfs.throttle(2).reset();                         // and recovers
 *   hdfs.writeStripedFile(path2, "RS-3-2-1024k", len, seed);
 * }
 * </pre>
 *
 * Every DataNode runs the stock dataset behind {@link StragglerDatasetFactory}, so
 * any of them can turn into a straggler. DataNode i is {@code cluster().getDataNodes().get(i)}.
 * The cluster's directories live under {@link TestDirs}; {@link #close()} shuts it
 * down and deletes them.
 *
 * <p><b>Size.</b> One class because it is the harness's single entry point; the parts
 * that stand alone (DataNodeThrottle, StragglerDatasetFactory, DataNodeReadMetrics)
 * are classes of their own.
 */
public final class MiniHdfs implements AutoCloseable {
  private static final Pattern EC_POLICY_NAME = Pattern.compile("(RS|XOR)-(\\d+)-(\\d+)-(\\d+)k");
  private static final int WRITE_CHUNK = 1 << 20;
  private static final long REPLICATION_TIMEOUT_NANOS = 30_000_000_000L;

  /** Options; {@link #start()} builds the cluster. */
  public static final class Builder {
    private int dataNodes = 3;
    private final Configuration conf = new Configuration();

    private Builder() {
    }

    public Builder dataNodes(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("dataNodes must be >= 1, got " + n);
      }
      this.dataNodes = n;
      return this;
    }

    /** Sets any cluster configuration key (NameNode, DataNodes and the default client). */
    public Builder set(String key, String value) {
      conf.set(key, value);
      return this;
    }

    public MiniHdfs start() throws IOException {
      return new MiniHdfs(new Configuration(conf), dataNodes);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  private final File baseDir;
  private final MiniDFSCluster cluster;

  private MiniHdfs(Configuration conf, int dataNodes) throws IOException {
    StragglerDatasetFactory.install(conf);
    // Placement must follow favored nodes even when one DataNode is busier than the rest.
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false);
    // Small files in tests: allow block sizes down to one checksum chunk.
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    baseDir = TestDirs.fresh("hdfs");
    cluster = new MiniDFSCluster.Builder(conf, baseDir).numDataNodes(dataNodes).build();
    try {
      cluster.waitActive();
    } catch (IOException | RuntimeException e) {
      cluster.shutdown(true);
      throw e;
    }
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  /** The cluster configuration, as a client of it would start from. */
  public Configuration conf() {
    return new Configuration(cluster.getConfiguration(0));
  }

  public DistributedFileSystem fs() throws IOException {
    return cluster.getFileSystem();
  }

  public int dataNodeCount() {
    return cluster.getDataNodes().size();
  }

  public DataNode dataNode(int i) {
    return cluster.getDataNodes().get(i);
  }

  /** The read speed control of DataNode {@code i}. */
  public DataNodeThrottle throttle(int i) {
    return StragglerDatasetFactory.throttleOf(dataNode(i));
  }

  /** Caps every DataNode at {@code bytesPerSecond} (a cluster of identical disks); 0 = unlimited. */
  public void setAllBandwidth(long bytesPerSecond) {
    for (int i = 0; i < dataNodeCount(); i++) {
      throttle(i).setBandwidth(bytesPerSecond);
    }
  }

  public DataNodeReadMetrics.Snapshot readMetrics(int i) {
    return DataNodeReadMetrics.of(dataNode(i));
  }

  /** The address to give as a favored node so blocks land on DataNode {@code i}. */
  public InetSocketAddress favoredAddress(int i) {
    // "localhost" does not match the NameNode's DataNode registry; the IP does.
    return InetSocketAddress.createUnresolved("127.0.0.1", dataNode(i).getXferPort());
  }

  /** The index of the DataNode with this transfer address, or -1. */
  public int indexOf(DatanodeInfo info) {
    for (int i = 0; i < dataNodeCount(); i++) {
      if (dataNode(i).getXferPort() == info.getXferPort()) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Writes a replication-1 file of {@code blocks} full blocks with block i on
   * DataNode i, filled with {@link DataPattern} bytes of {@code seed}.
   */
  public void writePinnedFile(Path p, long blockSize, int blocks, long seed) throws IOException {
    writePinnedFile(p, blockSize, blocks * blockSize, seed, b -> new int[] {b});
  }

  /**
   * Writes a contiguous file whose block b is stored exactly on the DataNodes
   * {@code replicasOfBlock.apply(b)} (the array length is the replication), and
   * checks that the NameNode placed it there.
   *
   * <p>Favored nodes are per output stream, so each block is written by its own
   * append with its own favored nodes; a full last block makes append start a new one.
   */
  public void writePinnedFile(Path p, long blockSize, long length, long seed,
      IntFunction<int[]> replicasOfBlock) throws IOException {
    if (blockSize <= 0 || length <= 0) {
      throw new IllegalArgumentException("blockSize and length must be > 0, got " + blockSize
          + " and " + length);
    }
    DistributedFileSystem fs = fs();
    int blocks = (int) ((length + blockSize - 1) / blockSize);
    short replication = (short) replicasOfBlock.apply(0).length;
    byte[] buf = new byte[WRITE_CHUNK];
    for (int b = 0; b < blocks; b++) {
      int[] dns = replicasOfBlock.apply(b);
      if (dns.length != replication) {
        throw new IllegalArgumentException("block " + b + " has " + dns.length + " replicas, block 0 has "
            + replication);
      }
      InetSocketAddress[] favored = new InetSocketAddress[dns.length];
      for (int r = 0; r < dns.length; r++) {
        favored[r] = favoredAddress(dns[r]);
      }
      long start = b * blockSize;
      long end = Math.min(length, start + blockSize);
      try (FSDataOutputStream out = b == 0
          ? fs.create(p, FsPermission.getFileDefault(), true, WRITE_CHUNK, replication, blockSize, null,
              favored)
          : fs.append(p, EnumSet.of(CreateFlag.APPEND), WRITE_CHUNK, null, favored)) {
        for (long pos = start; pos < end; ) {
          int n = (int) Math.min(buf.length, end - pos);
          DataPattern.fill(seed, pos, buf, 0, n);
          out.write(buf, 0, n);
          pos += n;
        }
      }
    }
    List<int[]> actual = awaitReplication(p, replication);
    for (int b = 0; b < blocks; b++) {
      int[] want = replicasOfBlock.apply(b).clone();
      int[] got = actual.get(b).clone();
      Arrays.sort(want);
      Arrays.sort(got);
      if (!Arrays.equals(want, got)) {
        throw new IOException("block " + b + " of " + p + " landed on DataNodes " + Arrays.toString(got)
            + ", wanted " + Arrays.toString(want));
      }
    }
  }

  /**
   * Waits until every block of {@code p} has {@code replication} known locations
   * and returns them: DataNodes report finished replicas to the NameNode
   * asynchronously, so right after {@code close()} a block may show fewer.
   */
  public List<int[]> awaitReplication(Path p, int replication) throws IOException {
    long deadline = System.nanoTime() + REPLICATION_TIMEOUT_NANOS;
    while (true) {
      List<int[]> where = dataNodesOfBlocks(p);
      boolean done = true;
      for (int[] replicas : where) {
        done &= replicas.length >= replication;
      }
      if (done) {
        return where;
      }
      if (System.nanoTime() - deadline > 0) {
        StringBuilder sb = new StringBuilder();
        for (int[] replicas : where) {
          sb.append(Arrays.toString(replicas));
        }
        throw new IOException(p + " did not reach replication " + replication + " in time: " + sb);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted waiting for replication of " + p);
      }
    }
  }

  /** For each block of a contiguous file, the indexes of the DataNodes holding it. */
  public List<int[]> dataNodesOfBlocks(Path p) throws IOException {
    LocatedBlocks lbs = fs().getClient().getLocatedBlocks(p.toUri().getPath(), 0, Long.MAX_VALUE);
    List<int[]> out = new ArrayList<>();
    for (LocatedBlock lb : lbs.getLocatedBlocks()) {
      DatanodeInfo[] locs = lb.getLocations();
      int[] idx = new int[locs.length];
      for (int r = 0; r < locs.length; r++) {
        idx[r] = indexOf(locs[r]);
      }
      out.add(idx);
    }
    return out;
  }

  /**
   * Makes an erasure-coding policy usable by name: a built-in one (RS-3-2-1024k,
   * RS-6-3-1024k, RS-10-4-1024k, XOR-2-1-1024k, ...) is enabled; any other name of
   * the form {@code RS|XOR-<k>-<m>-<cell>k} (e.g. RS-4-2-1024k) is added first.
   */
  public ErasureCodingPolicy enableErasureCodingPolicy(String name) throws IOException {
    DistributedFileSystem fs = fs();
    ErasureCodingPolicy policy = findPolicy(name);
    if (policy == null) {
      Matcher m = EC_POLICY_NAME.matcher(name);
      if (!m.matches()) {
        throw new IllegalArgumentException("not an erasure-coding policy name: '" + name
            + "' (expected RS-<k>-<m>-<cell>k or XOR-<k>-<m>-<cell>k)");
      }
      ECSchema schema = new ECSchema(m.group(1).toLowerCase(), Integer.parseInt(m.group(2)),
          Integer.parseInt(m.group(3)));
      AddErasureCodingPolicyResponse[] r = fs.addErasureCodingPolicies(new ErasureCodingPolicy[] {
          new ErasureCodingPolicy(schema, Integer.parseInt(m.group(4)) * 1024)});
      if (!r[0].isSucceed()) {
        throw new IOException("cannot add erasure-coding policy " + name + ": " + r[0].getErrorMsg());
      }
      policy = findPolicy(name);
      if (policy == null) {
        throw new IOException("erasure-coding policy " + name + " was added but is not listed");
      }
    }
    fs.enableErasureCodingPolicy(name);
    int needed = policy.getNumDataUnits() + policy.getNumParityUnits();
    if (dataNodeCount() < needed) {
      throw new IllegalStateException(name + " needs " + needed + " DataNodes, the cluster has "
          + dataNodeCount());
    }
    return policy;
  }

  private ErasureCodingPolicy findPolicy(String name) throws IOException {
    for (ErasureCodingPolicyInfo info : fs().getAllErasureCodingPolicies()) {
      if (info.getPolicy().getName().equals(name)) {
        return info.getPolicy();
      }
    }
    return null;
  }

  /** Writes a striped file under {@code policyName} with {@link DataPattern} bytes of {@code seed}. */
  public ErasureCodingPolicy writeStripedFile(Path p, String policyName, long length, long seed)
      throws IOException {
    ErasureCodingPolicy policy = enableErasureCodingPolicy(policyName);
    byte[] buf = new byte[WRITE_CHUNK];
    try (FSDataOutputStream out = fs().createFile(p).ecPolicyName(policyName).overwrite(true).recursive()
        .build()) {
      for (long pos = 0; pos < length; ) {
        int n = (int) Math.min(buf.length, length - pos);
        DataPattern.fill(seed, pos, buf, 0, n);
        out.write(buf, 0, n);
        pos += n;
      }
    }
    awaitBlockGroups(p, policy, length);
    return policy;
  }

  /**
   * Waits until every internal block a striped file must have (each data block
   * holding any byte, and all parity blocks) has a location: DataNodes report
   * them to the NameNode asynchronously after {@code close()}.
   */
  private void awaitBlockGroups(Path p, ErasureCodingPolicy policy, long length) throws IOException {
    int k = policy.getNumDataUnits();
    long cell = policy.getCellSize();
    long deadline = System.nanoTime() + REPLICATION_TIMEOUT_NANOS;
    while (true) {
      List<int[]> groups = dataNodesOfBlockGroups(p);
      LocatedBlocks lbs = fs().getClient().getLocatedBlocks(p.toUri().getPath(), 0, Long.MAX_VALUE);
      boolean done = true;
      for (int g = 0; g < groups.size(); g++) {
        long groupBytes = lbs.get(g).getBlockSize();
        int[] where = groups.get(g);
        for (int i = 0; i < where.length; i++) {
          boolean needed = i >= k || groupBytes > i * cell;
          done &= !needed || where[i] >= 0;
        }
      }
      if (done && !groups.isEmpty() || length == 0) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IOException(p + ": not every internal block was reported in time");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted waiting for block reports of " + p);
      }
    }
  }

  /**
   * For each block group of a striped file, the DataNode index serving each
   * internal block: {@code result.get(g)[i]} serves internal block i (data units
   * first, then parity), -1 when that internal block has no location.
   */
  public List<int[]> dataNodesOfBlockGroups(Path p) throws IOException {
    DistributedFileSystem fs = fs();
    ErasureCodingPolicy policy = fs.getErasureCodingPolicy(p);
    if (policy == null) {
      throw new IllegalArgumentException(p + " is not an erasure-coded file");
    }
    int width = policy.getNumDataUnits() + policy.getNumParityUnits();
    List<int[]> out = new ArrayList<>();
    for (LocatedBlock lb : fs.getClient().getLocatedBlocks(p.toUri().getPath(), 0, Long.MAX_VALUE)
        .getLocatedBlocks()) {
      LocatedStripedBlock group = (LocatedStripedBlock) lb;
      int[] idx = new int[width];
      Arrays.fill(idx, -1);
      byte[] indices = group.getBlockIndices();
      DatanodeInfo[] locs = group.getLocations();
      for (int r = 0; r < locs.length; r++) {
        idx[indices[r]] = indexOf(locs[r]);
      }
      out.add(idx);
    }
    return out;
  }

  /** How many block reads each DataNode has served so far, by index. */
  public Map<Integer, Long> readBlockOps() {
    Map<Integer, Long> m = new TreeMap<>();
    for (int i = 0; i < dataNodeCount(); i++) {
      m.put(i, readMetrics(i).readBlockOps);
    }
    return m;
  }

  @Override
  public void close() throws IOException {
    try {
      cluster.shutdown(true);
    } finally {
      TestDirs.deleteRecursively(baseDir);
    }
  }
}
