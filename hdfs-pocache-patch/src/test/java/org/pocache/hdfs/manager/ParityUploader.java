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
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.pocache.cache.Crc32c;
import org.pocache.cache.ParityStoreException;
import org.pocache.cache.RedisParityStore;
import org.pocache.coder.CodeParameters;
import org.pocache.coder.CoderKind;
import org.pocache.coder.Coders;
import org.pocache.coder.ErasureCoder;
import org.pocache.coder.layout.ContiguousLayout;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.coder.layout.StripedLayout;
import org.pocache.manager.protocol.ParityDescriptor;

/**
 * Test support standing in for the data path of [6/6]: reads a whole (small)
 * file back through HDFS, encodes every substripe under the descriptor's code and
 * uploads the parity to Redis under its generation. Real coder, real Redis.
 */
final class ParityUploader {
  private ParityUploader() {
  }

  /** @return parity payload bytes uploaded */
  static long upload(FileSystem fs, Path path, ParityDescriptor d, long length, RedisParityStore store)
      throws IOException, ParityStoreException {
    return upload(fs, path, d, length, store, null);
  }

  /**
   * {@link #upload} that also records the digest of every value stored in
   * {@code digests} (slot (s * substripes + j) * m + p), as a committing client does.
   */
  static long upload(FileSystem fs, Path path, ParityDescriptor d, long length, RedisParityStore store,
      byte[] digests) throws IOException, ParityStoreException {
    byte[] file = new byte[(int) length];
    try (FSDataInputStream in = fs.open(path)) {
      in.readFully(0, file);
    }
    int k = d.getK();
    int m = d.getM();
    StripeLayout layout = d.getLayout() == ParityDescriptor.Layout.CONTIGUOUS
        ? new ContiguousLayout(length, d.getBlockSize(), d.getSubblockBytes(), k)
        : new StripedLayout(length, d.getBlockSize(), d.getCellSize(), d.getSubblockBytes(), k);
    long total = 0;
    try (ErasureCoder coder = Coders.create(CodeParameters.of(k, m), CoderKind.AUTO)) {
      for (long s = 0; s < layout.stripes(); s++) {
        for (int j = 0; j < layout.substripes(s); j++) {
          int len = layout.parityLength(s, j);
          byte[][] data = new byte[k][len];
          int[] crcs = new int[k];
          for (int i = 0; i < k; i++) {
            int n = layout.storedLength(s, j, i);
            if (n > 0) {
              System.arraycopy(file, (int) layout.fileOffset(s, j, i, 0), data[i], 0, n);
            }
            crcs[i] = Crc32c.of(data[i], 0, n);
          }
          byte[][] parity = new byte[m][len];
          coder.encode(data, 0, parity, 0, len);
          for (int p = 0; p < m; p++) {
            byte[][] stored = store.putAll(java.util.Collections.singletonList(store.key(
                org.pocache.manager.protocol.ParitySeals.of(d), d.getFileId(), d.getGeneration(), (int) s, j, p)),
                java.util.Collections.singletonList(crcs),
                    java.util.Collections.singletonList(ByteBuffer.wrap(parity[p])));
            long slot = (s * d.getSubstripesPerStripe() + j) * m + p;
            if (digests != null && (slot + 1) * 16 <= digests.length) {
              System.arraycopy(stored[0], 0, digests, (int) slot * 16, 16);
            }
            total += len;
          }
        }
      }
    } catch (Exception e) {
      if (e instanceof IOException) {
        throw (IOException) e;
      }
      if (e instanceof ParityStoreException) {
        throw (ParityStoreException) e;
      }
      throw new IOException(e);
    }
    return total;
  }
}
