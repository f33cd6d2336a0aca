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

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands fills to the fill worker ({@link ParityFiller}, the DataNode-side worker
 * that reads a file and writes its parity); a fill the worker does not take is
 * aborted, so its reservation does not hold cache until it expires.
 */
final class Fills implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Fills.class);

  private final ManagerSettings settings;
  private final CacheState state;
  private final ParitySecrets secrets;
  private volatile ParityFiller filler;

  Fills(ManagerSettings settings, CacheState state, ParitySecrets secrets) {
    this.settings = settings;
    this.state = state;
    this.secrets = secrets;
  }

  void start(ParityFiller f) {
    this.filler = f;
  }

  boolean haveWorker() {
    return filler != null;
  }

  /** Whether {@code f} can be filled now: a worker, a ready cache, a closed file of a cacheable size. */
  boolean canFill(FileInfo f, boolean ready) {
    return filler != null && ready && f.complete && f.length <= settings.maxFileBytes
        && f.length >= settings.minFileBytes;
  }

  /** Gives {@code fill} to the worker; aborts it if the worker does not take it. */
  void dispatch(CacheIndex.Entry fill) {
    ParityFiller fl = filler;
    boolean taken = false;
    try {
      taken = fl != null && fl.fill(fill.reservationId, secrets.withKey(fill.descriptor(settings.keyPrefix())));
    } catch (RuntimeException ex) {
      LOG.warn("The fill worker failed to take {}", fill, ex);
    }
    if (!taken) {
      try {
        state.abort(fill.reservationId, "the fill worker did not take it", e -> { });
      } catch (IOException ignored) {
        // Already ended (expired or aborted): nothing more to release.
      }
    }
  }

  @Override
  public void close() {
    ParityFiller f = filler;
    filler = null;
    if (f != null) {
      try {
        f.close();
      } catch (RuntimeException e) {
        LOG.warn("The fill worker did not close cleanly", e);
      }
    }
  }
}
