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
package org.pocache.hdfs.client.write;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.Test;
import org.pocache.cache.Crc32c;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParitySeal;
import org.pocache.cache.ParityStore;
import org.pocache.cache.ParityValue;
import org.pocache.coder.CodeParameters;
import org.pocache.coder.CoderKind;
import org.pocache.coder.Coders;
import org.pocache.coder.ErasureCoder;
import org.pocache.hdfs.client.buffer.BufferPool;
import org.pocache.manager.protocol.ParityDescriptor;

/**
 * The incremental encoder against a whole-stripe encode of the same bytes, whatever the
 * sizes of the calls that feed it: every value it hands the store holds the parity of
 * its substripe's zero-padded data subblocks and their CRC32Cs. The store here only
 * records what it is given (Redis is not what is tested).
 */
public class TestParityEncoder {
  private static final int K = 3;
  private static final int M = 2;
  /** At least BufferPool.MIN_POOLED: accumulators are reused, old bytes and all. */
  private static final int SUB = BufferPool.MIN_POOLED;

  /** What the encoder uploaded: by "stripe/substripe/parity", the payload and the data CRCs. */
  private static final class Uploads {
    final Map<String, byte[]> payloads = new TreeMap<>();
    final Map<String, int[]> crcs = new TreeMap<>();
  }

  private static ParityStore recording(Uploads into, int header) {
    return (ParityStore) Proxy.newProxyInstance(ParityStore.class.getClassLoader(), new Class<?>[] {ParityStore.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "prefix":
              return "t";
            case "key":
              // key(prefix, seal, fileId, generation, stripe, substripe, parity)
              return ParityKey.of("t", (Long) args[2], (Long) args[3], (Integer) args[4], (Integer) args[5],
                  (Integer) args[6]).sealedWith((ParitySeal) args[1]);
            case "inFlightBytes":
              return 0L;
            case "uploadWindowBytes":
              return Long.MAX_VALUE;
            case "putInPlaceAsync": {
              ParityKey key = (ParityKey) args[0];
              byte[] value = (byte[]) args[2];
              String at = key.stripe() + "/" + key.substripe() + "/" + key.parityIndex();
              into.payloads.put(at, Arrays.copyOfRange(value, header, value.length));
              into.crcs.put(at, ((int[]) args[1]).clone());
              return CompletableFuture.completedFuture(null);
            }
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }

  private static ParityDescriptor descriptor(boolean striped, long blockSize) {
    return ParityDescriptor.newBuilder().setFileId(7).setGeneration(1).setPath("/f")
        .setLayout(striped ? ParityDescriptor.Layout.STRIPED : ParityDescriptor.Layout.CONTIGUOUS)
        .setBlockSize(blockSize).setCellSize(striped ? SUB : 0).setK(K).setM(M).setSubblockBytes(SUB).build();
  }

  /** Feeds {@code data} in calls of random sizes (1 byte to 3 subblocks) and returns what was uploaded. */
  private static Uploads encode(ErasureCoder coder, ParityDescriptor d, byte[] data, long seed) throws Exception {
    Uploads u = new Uploads();
    ParityStore store = recording(u, ParityValue.headerBytes(K, ParitySeal.NONE));
    ParityEncoder e = new ParityEncoder(d, store, coder, new BufferPool(16 << 20));
    Random r = new Random(seed);
    int at = 0;
    while (at < data.length) {
      int n = Math.min(data.length - at, r.nextInt(4) == 0 ? 1 + r.nextInt(16) : 1 + r.nextInt(3 * SUB));
      e.feed(data, at, n);
      at += n;
    }
    e.finish(10);
    return u;
  }

  /** The data subblock (stripe s, piece i, substripe j) of the file, zero-padded; null past the file's end. */
  private static byte[] piece(ParityDescriptor d, byte[] data, int s, int i, int j) {
    long block = d.getBlockSize();
    boolean striped = d.getLayout() == ParityDescriptor.Layout.STRIPED;
    long start = s * block * K + (striped ? ((long) j * K + i) * SUB : i * block + (long) j * SUB);
    if (start >= data.length) {
      return null;
    }
    return Arrays.copyOfRange(data, (int) start, (int) start + SUB);
  }

  private static void check(ErasureCoder coder, boolean striped, long blockSize, int length, long seed)
      throws Exception {
    ParityDescriptor d = descriptor(striped, blockSize);
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    Uploads u = encode(coder, d, data, seed);
    int substripes = (int) (blockSize / SUB);
    long stripeBytes = blockSize * K;
    int stripes = (int) ((length + stripeBytes - 1) / stripeBytes);
    int expected = 0;
    for (int s = 0; s < stripes; s++) {
      for (int j = 0; j < substripes; j++) {
        byte[][] in = new byte[K][];
        int[] crcs = new int[K];
        boolean any = false;
        for (int i = 0; i < K; i++) {
          byte[] p = piece(d, data, s, i, j);
          any |= p != null;
          long start = s * stripeBytes + (striped ? ((long) j * K + i) * SUB : i * blockSize + (long) j * SUB);
          int real = (int) Math.max(0, Math.min(SUB, length - start));
          crcs[i] = Crc32c.of(data, (int) Math.min(start, length), real);
          in[i] = p == null ? new byte[SUB] : p;
        }
        if (!any) {
          continue; // a substripe with no data has no value
        }
        byte[][] parity = new byte[M][SUB];
        coder.encode(in, 0, parity, 0, SUB);
        for (int p = 0; p < M; p++) {
          String at = s + "/" + j + "/" + p;
          byte[] got = u.payloads.get(at);
          String what = (striped ? "striped" : "contiguous") + " file of " + length + " bytes, value " + at;
          assertEquals(what + " uploaded", true, got != null);
          assertArrayEquals(what + " payload", Arrays.copyOf(parity[p], got.length), got);
          assertArrayEquals(what + " data CRCs", crcs, u.crcs.get(at));
          expected++;
        }
      }
    }
    assertEquals("values uploaded", expected, u.payloads.size());
  }

  @Test
  public void whatIsFedInCallsOfAnySizeEncodesAsTheWholeStripeDoes() throws Exception {
    for (CoderKind kind : new CoderKind[] {CoderKind.JAVA, Coders.resolve(CoderKind.AUTO)}) {
      try (ErasureCoder coder = Coders.create(CodeParameters.of(K, M), kind)) {
        long block = 4L * SUB;
        int stripe = (int) block * K;
        int[] lengths = {
            stripe, // one full stripe
            2 * stripe + 5 * SUB / 2, // a partial piece sets the last stripe's accumulators
            stripe + (int) block + SUB + 100, // a partial piece folds into accumulators block 0 set
            SUB / 3, // less than one piece
            3 * stripe - 1};
        long seed = 1;
        for (int length : lengths) {
          check(coder, false, block, length, seed++);
          check(coder, true, block, length, seed++);
        }
      }
    }
  }
}
