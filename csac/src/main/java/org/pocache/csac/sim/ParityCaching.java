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
package org.pocache.csac.sim;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pocache.csac.Csac;
import org.pocache.csac.Decision;
import org.pocache.csac.FileRef;

/**
 * POCache's parity caching managed by a {@link Csac}: straggler-aware ("csac+x")
 * or not (plain "x", which never sees a straggler list and so admits by G_a
 * alone), optionally with prefetching. A read hits a straggler if more of its
 * blocks are on stragglers than the cached parity (m blocks) can replace.
 */
final class ParityCaching extends CountingStrategy {
  private final String name;
  private final Csac csac;
  private final boolean aware;
  private final boolean prefetch;
  private final Map<Long, FileRef> byId;

  ParityCaching(String name, Csac csac, boolean aware, boolean prefetch, Map<Long, FileRef> byId) {
    this.name = name;
    this.csac = csac;
    this.aware = aware;
    this.prefetch = prefetch;
    this.byId = byId;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void onWrite(FileRef f) {
    if (csac.query(f) == Decision.SHOULD_CACHE) {
      account(csac.insert(f), f);
    }
  }

  @Override
  public void onStragglers(Set<String> estimated) {
    if (!aware) {
      return;
    }
    csac.setStragglers(estimated);
    if (prefetch && csac.hasNewStragglers()) {
      for (FileRef f : csac.prefetch(byId::get, Integer.MAX_VALUE)) {
        List<Long> ev = csac.insert(f);
        account(ev, f);
        prefetched += f.weight();
      }
    }
  }

  @Override
  public boolean read(FileRef f, Set<String> actual) {
    Decision d = csac.query(f);
    lastHit = d == Decision.CACHED;
    int slow = Simulator.blocksOn(f, actual);
    boolean hit = slow > (lastHit ? f.weight() : 0);
    boolean wasCached = csac.isCached(f.id());
    List<Long> ev = csac.update(f, d);
    if (!wasCached && csac.isCached(f.id())) {
      account(ev, f);
    }
    return hit;
  }

  private void account(List<Long> ev, FileRef inserted) {
    if (csac.isCached(inserted.id())) {
      cached += inserted.weight();
    }
    for (long id : ev) {
      evicted += byId.get(id).weight();
    }
  }

  static Set<String> none() {
    return Collections.emptySet();
  }
}
