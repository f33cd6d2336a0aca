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
package org.pocache.hdfs.fill;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.pocache.cache.Crc32c;
import org.pocache.cache.DaemonThreads;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParityProtection;
import org.pocache.cache.ParitySeal;
import org.pocache.cache.ParityValue;
import org.pocache.cache.ParityStore;
import org.pocache.cache.RedisParityStore;
import org.pocache.cache.RedisSettings;
import org.pocache.coder.CodeParameters;
import org.pocache.coder.CoderKind;
import org.pocache.coder.Coders;
import org.pocache.coder.ErasureCoder;
import org.pocache.coder.layout.ContiguousLayout;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.coder.layout.StripedLayout;
import org.pocache.hdfs.client.BlockListDigest;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ParitySeals;
import org.pocache.manager.server.CacheService;
import org.pocache.manager.server.ParityFiller;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fill worker: executes the Manager's admit-on-read and prefetch fills. For
 * each substripe it reads the k data subblocks through HDFS (positional reads),
 * encodes the m parity subblocks, and puts them in Redis with the CRC32C of each
 * data subblock's stored bytes; then it commits the reservation, or aborts it on
 * any failure (the Manager deletes what was uploaded). Memory per fill thread is
 * (k + m) subblocks. Reads are paced to {@code dfs.pocache.fill.bandwidth} so fills
 * do not compete with the jobs they are meant to speed up; a full queue makes
 * {@link #fill} refuse, and the Manager releases the reservation.
 */
public final class FillWorker implements ParityFiller {
  private static final Logger LOG = LoggerFactory.getLogger(FillWorker.class);

  private final Configuration conf;
  private final CacheService manager;
  private final ThreadPoolExecutor pool;
  private final long bytesPerSecond;
  private final String coder;
  private final Object paceLock = new Object();
  private long nextFreeNanos;
  private volatile ParityStore store;
  private volatile FileSystem fs;

  public FillWorker(Configuration conf, CacheService manager) {
    this.conf = conf;
    this.manager = manager;
    int threads = PoCacheConfig.getInt(conf, PoCacheConfigKeys.FILL_THREADS_KEY,
        PoCacheConfigKeys.FILL_THREADS_DEFAULT, 1, 256);
    int queue = PoCacheConfig.getInt(conf, PoCacheConfigKeys.FILL_QUEUE_KEY, PoCacheConfigKeys.FILL_QUEUE_DEFAULT, 1,
        1_000_000);
    bytesPerSecond = PoCacheConfig.getLong(conf, PoCacheConfigKeys.FILL_BANDWIDTH_KEY,
        PoCacheConfigKeys.FILL_BANDWIDTH_DEFAULT, 0, Long.MAX_VALUE);
    coder = PoCacheConfig.getCoder(conf);
    pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<Runnable>(queue),
        DaemonThreads.numbered("pocache-fill"));
  }

  @Override
  public boolean fill(long reservationId, ParityDescriptor target) {
    try {
      pool.execute(() -> run(reservationId, target));
      return true;
    } catch (RejectedExecutionException full) {
      return false;
    }
  }

  private void run(long reservationId, ParityDescriptor d) {
    try {
      byte[] digests = ParitySeals.of(d).protection() == ParityProtection.NONE ? new byte[0]
          : new byte[d.getStripes() * d.getSubstripesPerStripe() * d.getM() * ParityValue.DIGEST_BYTES];
      long bytes = fillOne(d, digests);
      manager.commit(reservationId, d.getFileId(), d.getLength(), bytes, digests);
      LOG.debug("Filled {} (generation {}): {} parity bytes", d.getPath(), d.getGeneration(), bytes);
    } catch (Exception e) {
      LOG.info("Fill of {} failed: {}", d.getPath(), e.toString());
      try {
        manager.abort(reservationId, "fill failed: " + e);
      } catch (IOException ended) {
        // the reservation already ended (expired, or the file changed)
      }
    }
  }

  /** Encodes and uploads every substripe of the file; returns parity payload bytes. */
  long fillOne(ParityDescriptor d, byte[] digests) throws Exception {
    // By inode, not by path: a file renamed away and another created at its path must
    // not lend its bytes to the parity of the file the fill was planned for.
    Path path = new Path("/.reserved/.inodes/" + d.getFileId());
    FileSystem fs = fileSystem();
    FileStatus st = fs.getFileStatus(path);
    if (st.getLen() != d.getLength()) {
      throw new IOException(d.getPath() + " is " + st.getLen() + " bytes, the fill was planned for " + d.getLength());
    }
    int k = d.getK();
    int m = d.getM();
    int sub = d.getSubblockBytes();
    StripeLayout layout = d.getLayout() == ParityDescriptor.Layout.STRIPED
        ? new StripedLayout(d.getLength(), d.getBlockSize(), d.getCellSize(), sub, k)
        : new ContiguousLayout(d.getLength(), d.getBlockSize(), sub, k);
    ParityStore redis = store();
    ParitySeal seal = ParitySeals.of(d);
    byte[][] data = new byte[k][sub];
    byte[][] parity = new byte[m][sub];
    long total = 0;
    try (FSDataInputStream in = fs.open(path);
         ErasureCoder enc = Coders.create(CodeParameters.of(k, m), CoderKind.parse(coder))) {
      if (in instanceof HdfsDataInputStream && d.getBlocksDigest() != 0
          && BlockListDigest.of(((HdfsDataInputStream) in).getAllBlocks()) != d.getBlocksDigest()) {
        throw new IOException(d.getPath() + " has other blocks than the fill was planned for");
      }
      List<ParityKey> keys = new ArrayList<>(m);
      List<int[]> crcs = new ArrayList<>(m);
      List<ByteBuffer> payloads = new ArrayList<>(m);
      for (long s = 0; s < layout.stripes(); s++) {
        for (int j = 0; j < layout.substripes(s); j++) {
          int len = layout.parityLength(s, j);
          int[] dataCrcs = new int[k];
          for (int i = 0; i < k; i++) {
            int n = layout.storedLength(s, j, i);
            if (n > 0) {
              pace(n);
              in.readFully(layout.fileOffset(s, j, i, 0), data[i], 0, n);
            }
            java.util.Arrays.fill(data[i], n, len, (byte) 0); // virtual zeros
            dataCrcs[i] = Crc32c.of(data[i], 0, n);
          }
          enc.encode(data, 0, parity, 0, len);
          keys.clear();
          crcs.clear();
          payloads.clear();
          for (int p = 0; p < m; p++) {
            keys.add(redis.key(d.getKeyPrefix(), seal, d.getFileId(), d.getGeneration(), (int) s, j, p));
            crcs.add(dataCrcs);
            payloads.add(ByteBuffer.wrap(parity[p], 0, len));
            total += len;
          }
          byte[][] stored = redis.putAll(keys, crcs, payloads);
          for (int p = 0; p < m && digests.length > 0; p++) {
            System.arraycopy(stored[p], 0, digests, (int) (((s * d.getSubstripesPerStripe() + j) * m + p)
                * ParityValue.DIGEST_BYTES), ParityValue.DIGEST_BYTES);
          }
        }
      }
    }
    return total;
  }

  /**
   * A plain DistributedFileSystem of its own: even where fs.hdfs.impl names
   * PoCacheFileSystem (a shared core-site.xml), fills read data straight from HDFS
   * and never ask the Manager they serve.
   */
  private FileSystem fileSystem() throws IOException {
    FileSystem f = fs;
    if (f == null) {
      synchronized (this) {
        if (fs == null) {
          Configuration c = new Configuration(conf);
          c.set("fs.hdfs.impl", org.apache.hadoop.hdfs.DistributedFileSystem.class.getName());
          fs = FileSystem.newInstance(FileSystem.getDefaultUri(c), c);
        }
        f = fs;
      }
    }
    return f;
  }

  private ParityStore store() {
    ParityStore s = store;
    if (s == null) {
      synchronized (this) {
        if (store == null) {
          store = RedisParityStore.connect(RedisSettings.from(PoCacheConfig.redisLookup(conf)));
        }
        s = store;
      }
    }
    return s;
  }

  /** Token pacing of HDFS reads at {@code bytesPerSecond}, shared by all fill threads. */
  private void pace(int bytes) throws InterruptedException {
    if (bytesPerSecond <= 0) {
      return;
    }
    long wait;
    synchronized (paceLock) {
      long now = System.nanoTime();
      long start = Math.max(now, nextFreeNanos);
      nextFreeNanos = start + (long) (bytes * 1e9 / bytesPerSecond);
      wait = start - now;
    }
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
    try {
      pool.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ParityStore s = store;
    if (s != null) {
      s.close();
    }
    FileSystem f = fs;
    if (f != null) {
      try {
        f.close();
      } catch (IOException e) {
        LOG.debug("closing the fill worker's file system", e);
      }
    }
  }
}
