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
package org.pocache.manager.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.pocache.cache.CorruptParityException;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParitySeal;
import org.pocache.cache.ParityStore;
import org.pocache.cache.ParityStoreException;
import org.pocache.cache.ParityValue;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ParitySeals;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reader reported a file's protected parity missing or bad: the Manager reads every
 * value back on the housekeeping thread and drops the parity only if one is missing
 * or does not open, so a reader's word alone drops nothing. At most one check per
 * file a minute ({@link CacheState#toVerify}), so reports cannot keep the Manager reading.
 */
final class ParityVerifier {
  private static final Logger LOG = LoggerFactory.getLogger(ParityVerifier.class);

  private final CacheState state;
  private final ManagerStore store;
  private final Executor housekeeping;
  private final ManagerMetrics metrics;

  ParityVerifier(CacheState state, ManagerStore store, Executor housekeeping, ManagerMetrics metrics) {
    this.state = state;
    this.store = store;
    this.housekeeping = housekeeping;
    this.metrics = metrics;
  }

  /** Queues a check of {@code fileId}'s parity at {@code generation}, unless one ran lately. */
  void verifyLater(long fileId, long generation) {
    ParityDescriptor d = state.toVerify(fileId, generation);
    if (d == null) {
      return;
    }
    try {
      housekeeping.execute(() -> verify(d));
    } catch (RejectedExecutionException closed) {
      // shutting down
    }
  }

  /** Housekeeping thread: checks every stored value of {@code d}'s parity. */
  void verify(ParityDescriptor d) {
    String bad = null;
    metrics.parityChecks.incrementAndGet();
    try {
      ParityStore s = store.get();
      ParitySeal seal = ParitySeals.forReading(d);
      byte[] digests = d.getValueDigests();
      int per = ParityValue.DIGEST_BYTES;
      List<ParityKey> batch = new ArrayList<>();
      for (int slot = 0; slot * per < digests.length && bad == null; slot++) {
        boolean stored = false;
        for (int i = 0; i < per; i++) {
          stored |= digests[slot * per + i] != 0;
        }
        if (stored) {
          int p = slot % d.getM();
          int j = (slot / d.getM()) % d.getSubstripesPerStripe();
          int stripe = slot / d.getM() / d.getSubstripesPerStripe();
          batch.add(s.key(seal, d.getFileId(), d.getGeneration(), stripe, j, p));
        }
        if (batch.size() == 8 || (slot + 1) * per >= digests.length) {
          ParityValue[] got = batch.isEmpty() ? new ParityValue[0] : s.getAll(batch);
          for (int i = 0; i < got.length && bad == null; i++) {
            bad = got[i] == null ? batch.get(i) + " is missing" : null;
          }
          batch.clear();
        }
      }
    } catch (CorruptParityException e) {
      bad = e.getMessage();
    } catch (ParityStoreException | RuntimeException e) {
      LOG.debug("The parity of {} could not be checked: {}", d.getPath(), e.toString());
      return;
    }
    if (bad == null) {
      LOG.debug("A reader reported the parity of {} (generation {}) bad; every value opens: kept", d.getPath(),
          d.getGeneration());
      return;
    }
    state.dropIfCurrent(d.getFileId(), d.getGeneration(), "its parity failed the Manager's check: " + bad);
  }
}
