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
package org.pocache.csac.policy;

/**
 * Benefit per byte: Greedy-Dual-Size-Frequency (Cherkasova, 1998) with a file's
 * benefit being the data its parity protects, as Agar (ICDCS 2017) weighs what to
 * cache by popularity x latency saved per cache byte. A cached file's key is
 * L + reads x (data protected / parity weight); the file with the smallest key (ties:
 * least recently used) goes first, and L becomes its key, so files that were popular
 * once age out as under LFU-DA.
 *
 * <p>The ratio is what tells files apart that LFU treats alike. With k = 4 and m = 1,
 * a one-block file's parity is a whole block for one block of data (ratio 1) and a
 * four-block file's is a block for four (ratio 4): a straggler anywhere among the
 * DataNodes is four times as likely to slow a read of the second, and one read of it
 * counts as four reads of the first. CSAC hands the files it keeps for a known
 * straggler the data on that straggler instead (see {@code Csac}), which is what their
 * parity saves while it lasts. O(log n) per operation.
 */
public final class BenefitPerByte extends AgedFrequency {
  /** Data protected per unit of weight of every cached file (the bits of a positive double). */
  private final LongLongMap ratios = new LongLongMap();

  public BenefitPerByte() {
    this(Lfu.DEFAULT_HISTORY_FILES);
  }

  /** @param historyFiles how many files' read counts to keep, cached or not (at least 1) */
  public BenefitPerByte(int historyFiles) {
    super(historyFiles);
  }

  @Override
  public String name() {
    return "benefit";
  }

  @Override
  double perRead(long fileId) {
    return Double.longBitsToDouble(ratios.get(fileId, Double.doubleToRawLongBits(1)));
  }

  @Override
  void forget(long fileId) {
    ratios.remove(fileId, -1);
  }

  @Override
  public void onInsert(long fileId, long weight) {
    onInsert(fileId, weight, weight);
  }

  @Override
  public void onInsert(long fileId, long weight, long dataWeight) {
    if (weight <= 0 || dataWeight <= 0) {
      throw new IllegalArgumentException("file " + fileId + ": weight and data weight must be > 0, got " + weight
          + " and " + dataWeight);
    }
    ratios.put(fileId, Double.doubleToRawLongBits((double) dataWeight / weight), -1);
    insert(fileId);
  }
}
