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
package org.pocache.hdfs.manager;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.pocache.cache.ParityProtection;
import org.pocache.cache.ParityStoreException;
import org.pocache.cache.RedisParityStore;
import org.pocache.cache.RedisSettings;
import org.pocache.hdfs.PoCacheMiniCluster;
import org.pocache.hdfs.namenode.PoCacheNameNodePlugin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.WriteAdmission;
import org.pocache.manager.server.Manager;
import org.pocache.testkit.DataPattern;
import org.pocache.testkit.hdfs.MiniHdfs;
import org.pocache.testkit.redis.RedisServerFixture;

/**
 * {@link PoCacheMiniCluster} with the Manager tests' settings (small blocks and cache,
 * quick breakers, an operator's parity secret), and a writer that does by hand what
 * the POCache client does: admit, write, upload parity, commit.
 */
final class ManagerCluster implements AutoCloseable {
  static final long BLOCK = 256 << 10;
  static final int SUBBLOCK = 64 << 10;

  final PoCacheMiniCluster mini;
  final RedisServerFixture redis;
  final MiniHdfs hdfs;
  final int port;

  private ManagerCluster(PoCacheMiniCluster mini) {
    this.mini = mini;
    this.redis = mini.redis;
    this.hdfs = mini.hdfs;
    this.port = mini.port;
  }

  static ManagerCluster start(int dataNodes, Map<String, String> extra) throws Exception {
    PoCacheMiniCluster.Builder b = PoCacheMiniCluster.builder().dataNodes(dataNodes).awaitServing(false)
        .set(PoCacheConfigKeys.REDIS_BREAKER_OPEN_KEY, "200")
        .set(PoCacheConfigKeys.MANAGER_BREAKER_OPEN_KEY, "200")
        .set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(SUBBLOCK))
        .set(PoCacheConfigKeys.CACHE_CAPACITY_KEY, Long.toString(64L << 20))
        .set(PoCacheConfigKeys.CACHE_MAX_FILE_KEY, Long.toString(16L << 20))
        // A secret of the operator's, so the parity survives a NameNode restart (one made
        // at start would not).
        .set(PoCacheConfigKeys.PARITY_SECRET_KEY, "1:" + java.util.Base64.getEncoder().encodeToString(
            "a test secret of at least 32 bytes".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    for (Map.Entry<String, String> e : extra.entrySet()) {
      b.set(e.getKey(), e.getValue());
    }
    return new ManagerCluster(b.start());
  }

  InetSocketAddress address() {
    return new InetSocketAddress("127.0.0.1", port);
  }

  ManagerClient client() throws IOException {
    return new ManagerClient(address(), hdfs.conf(), 5000);
  }

  /**
   * Writes {@code length} bytes of {@link DataPattern} {@code seed} to {@code name} through
   * POCache, in a directory of erasure coding policy {@code policy} with block groups of
   * {@code blockSize} per internal block, and checks that the write was cached as a
   * striped file; returns its descriptor.
   */
  ParityDescriptor writeCachedStriped(String policy, Path name, long seed, long length, long blockSize)
      throws Exception {
    org.apache.hadoop.test.GenericTestUtils.waitFor(() -> manager().cache().ready(), 50, 10_000);
    hdfs.enableErasureCodingPolicy(policy);
    hdfs.fs().mkdirs(name.getParent());
    hdfs.fs().setErasureCodingPolicy(name.getParent(), policy);
    try (org.pocache.hdfs.client.PoCacheFileSystem fs = pocacheClient()) {
      try (FSDataOutputStream out = fs.create(name, true, 4096, (short) 1, blockSize)) {
        byte[] chunk = new byte[65_537];
        for (long pos = 0; pos < length; ) {
          int n = (int) Math.min(chunk.length, length - pos);
          DataPattern.fill(seed, pos, chunk, 0, n);
          out.write(chunk, 0, n);
          pos += n;
        }
      }
      if (fs.cachedWrites() != 1) {
        throw new AssertionError(name + ": " + fs.cachedWrites() + " cached writes, not 1");
      }
    }
    try (ManagerClient m = client()) {
      ParityDescriptor d = m.getDescriptor(name.toString()).getParity();
      if (d == null || d.getLayout() != ParityDescriptor.Layout.STRIPED) {
        throw new AssertionError(name + " not cached as a striped file: " + d);
      }
      return d;
    }
  }

  Manager manager() {
    return mini.managerInProcess();
  }

  PoCacheNameNodePlugin plugin() {
    return mini.plugin();
  }

  RedisParityStore store() {
    Configuration conf = hdfs.conf();
    return RedisParityStore.connect(RedisSettings.from(conf::get));
  }

  /** A replicated file written the way the POCache client will: admitted, parity uploaded, committed. */
  /** The reservation id of the last {@link #writeCached}. */
  volatile long lastReservationId;

  ParityDescriptor writeCached(ManagerClient m, Path p, long length, long seed) throws Exception {
    FSDataOutputStream out = hdfs.fs().create(p, true, 4096, (short) 1, BLOCK);
    WriteAdmission admit = m.admitWrite(p.toUri().getPath(), 0);
    if (!admit.hasReservation()) {
      out.close();
      throw new IllegalStateException("not admitted: " + admit.getReason());
    }
    write(out, length, seed);
    out.close();
    ParityDescriptor r = admit.getReservation().getParity();
    lastReservationId = admit.getReservation().getId();
    try (RedisParityStore store = store()) {
      long stripes = Math.max(1, (length + r.getBlockSize() * r.getK() - 1) / (r.getBlockSize() * r.getK()));
      byte[] digests = r.getProtection() == ParityProtection.NONE ? new byte[0]
          : new byte[(int) (stripes * r.getSubstripesPerStripe() * r.getM() * 16)];
      long bytes = ParityUploader.upload(hdfs.fs(), p, r, length, store, digests);
      m.commit(admit.getReservation().getId(), r.getFileId(), length, bytes, digests);
    }
    return r;
  }

  /** A replicated file written without asking the Manager. */
  void writePlain(Path p, long length, long seed) throws IOException {
    try (FSDataOutputStream out = hdfs.fs().create(p, true, 4096, (short) 1, BLOCK)) {
      write(out, length, seed);
    }
  }

  private static void write(OutputStream out, long length, long seed) throws IOException {
    byte[] buf = new byte[64 << 10];
    for (long pos = 0; pos < length; ) {
      int n = (int) Math.min(buf.length, length - pos);
      DataPattern.fill(seed, pos, buf, 0, n);
      out.write(buf, 0, n);
      pos += n;
    }
  }

  /** Block i on DataNode i (k = 4 blocks), then the Manager's fill worker caches its parity. */
  void writePinnedAndCache(ManagerClient m, Path p, long seed) throws Exception {
    hdfs.writePinnedFile(p, BLOCK, 4, seed);
    m.prefetch(p.toUri().getPath());
    org.pocache.hdfs.PoCacheMiniCluster.awaitParity(m, p, 20_000);
  }

  /** A client FileSystem with fs.hdfs.impl = PoCacheFileSystem (not cached), plus {@code extra} keys. */
  org.pocache.hdfs.client.PoCacheFileSystem pocacheClient(String... extra) throws IOException {
    return mini.client(extra);
  }

  /**
   * Checks every parity value of {@code d} against an independent whole-file encoding
   * (uploaded under the next generation): payloads and data CRCs equal, and the total
   * equals the descriptor's parity bytes. Returns the number of values compared.
   */
  int assertParityMatchesIndependentEncoding(Path p, ParityDescriptor d) throws Exception {
    ParityDescriptor reference = d.toBuilder().setGeneration(d.getGeneration() + 1).build();
    try (RedisParityStore store = store()) {
      long refBytes = ParityUploader.upload(hdfs.fs(), p, reference, d.getLength(), store);
      long seen = 0;
      int values = 0;
      for (int s = 0; s < d.getStripes(); s++) {
        for (int j = 0; j < d.getSubstripesPerStripe(); j++) {
          for (int r = 0; r < d.getM(); r++) {
            org.pocache.cache.ParitySeal seal = org.pocache.manager.protocol.ParitySeals.of(d);
            org.pocache.cache.ParityValue want = store.get(store.key(seal, d.getFileId(), reference.getGeneration(),
                s, j,
                r));
            org.pocache.cache.ParityValue got = store.get(store.key(seal, d.getFileId(), d.getGeneration(), s, j, r));
            if (want == null) {
              org.junit.Assert.assertNull("a value past the end of a short stripe", got);
              continue;
            }
            org.junit.Assert.assertNotNull("stripe " + s + " substripe " + j + " parity " + r + " missing", got);
            org.junit.Assert.assertEquals(want.payload(), got.payload());
            for (int i = 0; i < d.getK(); i++) {
              org.junit.Assert.assertEquals("data CRC " + i, want.dataCrc(i), got.dataCrc(i));
            }
            seen += got.payloadLength();
            values++;
          }
        }
      }
      org.junit.Assert.assertEquals(refBytes, seen);
      org.junit.Assert.assertEquals(refBytes, d.getParityBytes());
      return values;
    }
  }

  /** Whether the first parity key of (file, generation) exists in Redis. */
  boolean parityExists(ParityDescriptor d) throws IOException, ParityStoreException {
    try (RedisParityStore store = store()) {
      return store.exists(store.key(d.getFileId(), d.getGeneration(), 0, 0, 0));
    }
  }

  @Override
  public void close() throws IOException {
    mini.close();
  }
}
