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
package org.pocache.csac;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import org.pocache.csac.policy.AdmissionPolicy;
import org.pocache.csac.policy.EvictionPolicy;
import org.pocache.csac.policy.LongLongMap;
import org.pocache.csac.policy.PredictionPolicy;

/**
 * CSAC, the configurable straggler-aware cache algorithm (POCache paper §3.3,
 * Algorithm 1), over pluggable admission (G_a), eviction (G_e) and prediction
 * (G_p) policies. Capacity and file weights share one unit: parity blocks or
 * parity bytes. Not thread-safe: the Manager serializes calls.
 *
 * <p>Guards the paper leaves implicit:
 * <ul>
 *   <li>A file heavier than the whole cache is never admitted (Query says
 *       SHOULD_NOT_CACHE), so Update cannot evict everything and still fail.</li>
 *   <li>A file being admitted is never its own victim (the eviction policies are
 *       asked for a victim other than it).</li>
 *   <li>Line 7 consults G_a only while the straggler list S is empty, so one
 *       false positive that never clears would stop all normal admission. Reports
 *       expire in the detectors; in addition, once S has been non-empty for
 *       {@code exclusiveLimitMillis}, G_a is consulted again for files that touch
 *       no straggler (files on stragglers are still always admitted).</li>
 * </ul>
 *
 * <p>Beyond the paper, optionally (given a second instance of G_e for them): while
 * stragglers are known, eviction takes the files with no block on them first, in
 * G_e's order, and a file on a straggler only when no other is left (in the order of
 * the second instance, which sees every read too).
 * Line 7 already admits only files on stragglers then; without this, G_e judges
 * those files against popular files on healthy DataNodes whose parity saves no read
 * from a straggler, and an LFU or LRU evicts a straggler's file read once to keep
 * them, so its next read meets the straggler. A file admitted while on a straggler
 * goes to the second instance ("kept"); one G_e offers as victim while it is on a
 * straggler is moved there; a kept file goes back to G_e when the list no longer
 * names any of its DataNodes. Each file moves at most once per change of the list,
 * so an access costs G_e's onAccess twice, no more.
 */
public final class Csac {
  private final long capacity;
  private final AdmissionPolicy admission;
  private final EvictionPolicy eviction;
  private final PredictionPolicy prediction;
  private final double prefetchRatio;
  private final long exclusiveLimitMillis;
  private final LongSupplier clock;

  private final boolean keepStragglerFiles;
  private final EvictionPolicy keptEviction;

  private final LongLongMap cached = new LongLongMap(); // file id -> weight in cache
  /** The DataNodes of each cached file, kept only with keepStragglerFiles. */
  private final Map<Long, FileRef> refs = new HashMap<>();
  /** Cached files on a straggler, taken out of G_e into keptEviction: id -> weight. */
  private final LongLongMap kept = new LongLongMap();
  private long available;
  private Set<String> stragglers = Collections.emptySet();
  private long stragglersSince = -1;
  private boolean newStragglers;

  /**
   * @param capacity T, in the unit of the file weights (> 0)
   * @param prefetchRatio theta_p in [0, 1]
   * @param exclusiveLimitMillis how long a non-empty straggler list may keep G_a
   *     from being consulted (Long.MAX_VALUE: never, as in the paper)
   * @param keptEviction null for G_e alone (as in the paper); else a second, empty
   *     instance of G_e's kind: eviction then spares files on known stragglers while
   *     there are others, and this orders them
   * @throws IllegalArgumentException naming the bad argument
   */
  public Csac(long capacity, AdmissionPolicy admission, EvictionPolicy eviction, PredictionPolicy prediction,
      double prefetchRatio, long exclusiveLimitMillis, EvictionPolicy keptEviction, LongSupplier clock) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("cache capacity T must be > 0, got " + capacity);
    }
    if (!(prefetchRatio >= 0 && prefetchRatio <= 1)) {
      throw new IllegalArgumentException("prefetch ratio theta_p must be in [0, 1], got " + prefetchRatio);
    }
    if (exclusiveLimitMillis < 0) {
      throw new IllegalArgumentException("exclusive straggler admission limit must be >= 0 ms, got "
          + exclusiveLimitMillis);
    }
    if (admission == null || eviction == null || prediction == null || clock == null) {
      throw new IllegalArgumentException("admission, eviction, prediction and clock must be given");
    }
    this.capacity = capacity;
    this.available = capacity;
    this.admission = admission;
    this.eviction = eviction;
    this.prediction = prediction;
    this.prefetchRatio = prefetchRatio;
    this.exclusiveLimitMillis = exclusiveLimitMillis;
    if (keptEviction == eviction) {
      throw new IllegalArgumentException("the kept files' eviction policy must be a second instance, not G_e itself");
    }
    this.keepStragglerFiles = keptEviction != null;
    this.keptEviction = keptEviction;
    this.clock = clock;
  }

  public long capacity() {
    return capacity;
  }

  /** A, the free space. */
  public long available() {
    return available;
  }

  public long used() {
    return capacity - available;
  }

  public int cachedFiles() {
    return cached.size();
  }

  public boolean isCached(long fileId) {
    return cached.containsKey(fileId);
  }

  public Set<String> stragglers() {
    return stragglers;
  }

  /**
   * Line 3: the latest straggler list. Returns true if it names a DataNode the
   * previous one did not (the trigger for {@link #prefetch}).
   */
  public boolean setStragglers(Collection<String> latest) {
    Set<String> s = latest.isEmpty() ? Collections.<String>emptySet()
        : Collections.unmodifiableSet(new HashSet<>(latest));
    boolean added = !stragglers.containsAll(s);
    if (s.isEmpty()) {
      stragglersSince = -1;
    } else if (stragglers.isEmpty() || added) {
      stragglersSince = clock.getAsLong();
    }
    boolean changed = !s.equals(stragglers);
    stragglers = s;
    newStragglers |= added;
    if (changed && kept.size() > 0) {
      releaseKept();
    }
    return added;
  }

  /** Files whose DataNodes are all off the new straggler list go back to G_e. */
  private void releaseKept() {
    long[] ids = new long[kept.size()];
    int[] n = {0};
    kept.forEach((id, w) -> {
      ids[n[0]++] = id;
      return w;
    });
    for (int i = 0; i < n[0]; i++) {
      FileRef r = refs.get(ids[i]);
      if (r == null || !r.touches(stragglers)) {
        long w = kept.remove(ids[i], -1);
        keptEviction.onRemove(ids[i]);
        eviction.onInsert(ids[i], w, r == null ? w : r.dataWeight());
      }
    }
  }

  /** Files taken out of G_e because they are on a straggler (for tests and metrics). */
  public int keptFiles() {
    return kept.size();
  }

  /** Lines 4-12. */
  public Decision query(FileRef f) {
    if (cached.containsKey(f.id())) {
      return Decision.CACHED;
    }
    if (f.weight() > capacity) {
      return Decision.SHOULD_NOT_CACHE; // guard: could never fit
    }
    if (f.touches(stragglers)) {
      return Decision.SHOULD_CACHE;
    }
    boolean consultAdmission = stragglers.isEmpty()
        || clock.getAsLong() - stragglersSince >= exclusiveLimitMillis;
    if (consultAdmission && admission.admit(f, f.weight() <= available, eviction)) {
      return Decision.SHOULD_CACHE;
    }
    return Decision.SHOULD_NOT_CACHE;
  }

  /**
   * Write admission (paper section 4.2) for a file being created: it has no
   * DataNodes yet, so the straggler rule of line 7 cannot apply either way; the
   * admission policy G_a decides, as for any file while no straggler is known.
   * Does not record an access or change the cache.
   */
  public boolean admitNew(FileRef f) {
    if (cached.containsKey(f.id())) {
      return false;
    }
    return f.weight() <= capacity && admission.admit(f, f.weight() <= available, eviction);
  }

  /**
   * Lines 13-27: records the read of {@code f} and, for SHOULD_CACHE, makes room
   * and caches it.
   *
   * @return the ids of the files evicted to make room, in eviction order
   */
  public List<Long> update(FileRef f, Decision decision) {
    boolean isCached = cached.containsKey(f.id());
    admission.record(f.id());
    prediction.record(f.id());
    boolean isKept = isCached && kept.containsKey(f.id());
    eviction.onAccess(f.id(), isCached && !isKept);
    if (keepStragglerFiles) {
      keptEviction.onAccess(f.id(), isKept);
    }
    if (decision != Decision.SHOULD_CACHE || isCached) {
      return Collections.emptyList();
    }
    return insert(f);
  }

  /**
   * Caches {@code f} without counting a read (a prefetch or a write admission),
   * evicting as needed; a no-op if it is cached or heavier than the cache.
   *
   * @return the ids of the files evicted
   */
  public List<Long> insert(FileRef f) {
    if (cached.containsKey(f.id()) || f.weight() > capacity) {
      return Collections.emptyList();
    }
    List<Long> evicted = new ArrayList<>(2);
    while (available < f.weight()) {
      long victim = victim(f.id());
      long w = victim < 0 ? -1 : cached.remove(victim, -1);
      if (w < 0) {
        // The policy lost track of the cache: fail loudly rather than loop or overfill.
        throw new IllegalStateException(eviction.name() + " offered victim " + victim + " with "
            + cached.size() + " files cached and " + available + " of " + capacity + " free");
      }
      if (kept.remove(victim, -1) >= 0) {
        keptEviction.onEvict(victim);
      } else {
        eviction.onEvict(victim);
      }
      refs.remove(victim);
      available += w;
      evicted.add(victim);
    }
    available -= f.weight();
    cached.put(f.id(), f.weight(), -1);
    if (!keepStragglerFiles) {
      eviction.onInsert(f.id(), f.weight(), f.dataWeight());
      return evicted;
    }
    refs.put(f.id(), f);
    if (f.touches(stragglers)) {
      kept.put(f.id(), f.weight(), -1);
      keptEviction.onInsert(f.id(), f.weight(), f.dataWeightOn(stragglers));
    } else {
      eviction.onInsert(f.id(), f.weight(), f.dataWeight());
    }
    return evicted;
  }

  /**
   * G_e's victim; with kept files and stragglers known, the first of its victims on
   * no straggler (those on one move to keptEviction), else keptEviction's.
   */
  private long victim(long protectedId) {
    if (!keepStragglerFiles || stragglers.isEmpty()) {
      return eviction.victim(protectedId);
    }
    for (;;) {
      long v = eviction.victim(protectedId);
      if (v < 0) {
        return keptEviction.victim(protectedId);
      }
      FileRef r = refs.get(v);
      if (r == null || !r.touches(stragglers)) {
        return v;
      }
      long w = cached.get(v, -1);
      eviction.onRemove(v);
      kept.put(v, w, -1);
      keptEviction.onInsert(v, w, r.dataWeightOn(stragglers));
    }
  }

  /** Drops a file (deleted, renamed over, or its parity found bad). Returns whether it was cached. */
  public boolean remove(long fileId) {
    prediction.forget(fileId);
    long w = cached.remove(fileId, -1);
    eviction.onRemove(fileId);
    refs.remove(fileId);
    if (kept.remove(fileId, -1) >= 0) {
      keptEviction.onRemove(fileId);
    }
    if (w >= 0) {
      available += w;
      return true;
    }
    return false;
  }

  /** Whether the straggler list gained a DataNode since the last {@link #prefetch}. */
  public boolean hasNewStragglers() {
    return newStragglers;
  }

  /**
   * Lines 28-41: files predicted to be read soon that touch a straggler and are
   * not cached, up to theta_p x T of weight. Looks at no more than
   * {@code maxCandidates} predictions. The caller fills their parity and calls
   * {@link #insert} for each.
   *
   * @param resolve the file's weight and DataNodes, or null if it no longer exists
   */
  public List<FileRef> prefetch(LongFunction<FileRef> resolve, int maxCandidates) {
    newStragglers = false;
    List<FileRef> out = new ArrayList<>();
    if (stragglers.isEmpty() || prefetchRatio == 0) {
      return out;
    }
    double budget = capacity * prefetchRatio;
    long planned = 0;
    Iterator<Long> it = prediction.candidates();
    for (int seen = 0; it.hasNext() && seen < maxCandidates; seen++) {
      long id = it.next();
      if (cached.containsKey(id)) {
        continue;
      }
      FileRef f = resolve.apply(id);
      if (f != null && f.touches(stragglers) && planned + f.weight() <= budget) {
        out.add(f);
        planned += f.weight();
      }
    }
    return out;
  }

  /** A consistency check for tests: the cached weights add up to T - A, and every kept file is cached. */
  boolean accountingHolds() {
    long[] sum = {0};
    cached.forEach((id, w) -> sum[0] += w);
    boolean[] keptCached = {true};
    kept.forEach((id, w) -> {
      keptCached[0] &= cached.get(id, -1) == w;
      return w;
    });
    return sum[0] == capacity - available && available >= 0 && keptCached[0]
        && (!keepStragglerFiles || refs.size() == cached.size());
  }
}
