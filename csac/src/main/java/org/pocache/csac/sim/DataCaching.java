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

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pocache.csac.Csac;
import org.pocache.csac.Decision;
import org.pocache.csac.FileRef;

/**
 * Caching data blocks instead of parity (Experiment 13's baselines). A read
 * avoids a straggler only if the very block on the straggler is cached, so these
 * depend on the straggler estimate being right.
 *
 * <ul>
 *   <li>SR, selective replication: caches all k data blocks of popular files,
 *       LFU, blind to stragglers (weight k per file).</li>
 *   <li>SP-Cache (SC 2018) under a cache budget: the whole data of the most read
 *       files, LFU, blind to stragglers, weighing each file by its data blocks (a
 *       one-block file 1, an eight-block file 8). SP-Cache partitions a cached file
 *       over the cache servers, which changes only how fast it comes from the cache;
 *       no straggler DataNode is on that path.</li>
 *   <li>DC1: caches the data blocks of a read file that sit on an estimated
 *       straggler, one entry per block (weight 1), LFU.</li>
 *   <li>DC2: CSAC+LFU decides which files to cache; a cached file holds its
 *       blocks on the stragglers estimated when it was admitted (weight = their
 *       number). A file with no block on an estimated straggler has nothing
 *       worth caching and is not admitted.</li>
 * </ul>
 */
final class DataCaching extends CountingStrategy {
  enum Kind { SR, SP_CACHE, DC1, DC2 }

  private final Kind kind;
  private final Csac csac;
  private final int k;
  private final Map<Long, Set<String>> covered = new HashMap<>(); // entry id -> DataNodes whose blocks it holds
  private final Map<Long, Long> weights = new HashMap<>();
  private Set<String> estimated = ParityCaching.none();

  DataCaching(Kind kind, Csac csac, int k) {
    this.kind = kind;
    this.csac = csac;
    this.k = k;
  }

  @Override
  public String name() {
    return kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  @Override
  public void onWrite(FileRef f) {
    // Data caches fill on reads.
  }

  @Override
  public void onStragglers(Set<String> est) {
    estimated = est;
    if (kind == Kind.DC2) {
      csac.setStragglers(est);
    }
  }

  @Override
  public boolean read(FileRef f, Set<String> actual) {
    String[] dns = f.dataNodes();
    boolean hit = false;
    lastHit = false;
    for (int i = 0; i < dns.length; i++) {
      boolean on = actual.contains(dns[i]);
      boolean held = holds(f, i, dns[i]);
      lastHit |= held;
      hit |= on && !held;
    }
    switch (kind) {
      case SR:
      case SP_CACHE: {
        FileRef whole = new FileRef(f.id(), kind == Kind.SR ? k : dns.length, dns);
        Decision d = csac.query(whole);
        put(f.id(), whole, csac.update(whole, d), null);
        break;
      }
      case DC1:
        for (int i = 0; i < dns.length; i++) {
          if (estimated.contains(dns[i])) {
            long id = f.id() * 64 + i;
            FileRef block = new FileRef(id, 1, dns[i]);
            Decision d = csac.query(block);
            put(id, block, csac.update(block, d == Decision.CACHED ? d : Decision.SHOULD_CACHE),
                java.util.Collections.singleton(dns[i]));
          }
        }
        break;
      default: {
        int onEstimated = Simulator.blocksOn(f, estimated);
        if (csac.isCached(f.id()) || onEstimated > 0) {
          FileRef entry = new FileRef(f.id(), Math.max(1, onEstimated), dns);
          Decision d = csac.query(entry);
          java.util.Set<String> hold = new java.util.HashSet<>();
          for (String dn : dns) {
            if (estimated.contains(dn)) {
              hold.add(dn);
            }
          }
          put(f.id(), entry, csac.update(entry, d), hold);
        }
        break;
      }
    }
    return hit;
  }

  private boolean holds(FileRef f, int block, String dn) {
    switch (kind) {
      case SR:
      case SP_CACHE:
        return csac.isCached(f.id());
      case DC1:
        return csac.isCached(f.id() * 64 + block);
      default:
        Set<String> c = covered.get(f.id());
        return csac.isCached(f.id()) && c != null && c.contains(dn);
    }
  }

  private void put(long id, FileRef entry, List<Long> ev, Set<String> hold) {
    if (csac.isCached(id) && !weights.containsKey(id)) {
      weights.put(id, entry.weight());
      cached += entry.weight();
      if (hold != null) {
        covered.put(id, hold);
      }
    }
    for (long e : ev) {
      Long w = weights.remove(e);
      covered.remove(e);
      evicted += w == null ? 0 : w;
    }
  }
}
