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
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.security.AccessControlException;
import org.pocache.cache.ParityProtection;
import org.pocache.csac.Csac;
import org.pocache.csac.Decision;
import org.pocache.csac.FileRef;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.PoCacheManagerProtocol;

/**
 * What the Manager has cached, reserved and seen: CSAC, the {@link CacheIndex}, the
 * generation counter and the files CSAC may prefetch, behind one lock, changed only
 * through the transitions below (admit on read, reserve a write, commit, abort,
 * start a fill, drop, expire, restore after a restart). The lock is held for
 * in-memory work only; NameNode calls and Redis I/O happen outside it. Every entry
 * a transition drops goes to the {@link ParityReaper}, which deletes its keys on the
 * housekeeping thread in the order the index changed.
 *
 * <p><b>Size.</b> Long because every transition of the cache holds the same lock over
 * CSAC and the index; split, the two could disagree about what is cached.
 */
final class CacheState {
  private static final SecureRandom RESERVATION_IDS = new SecureRandom();
  /** A reader's report of bad protected parity makes the Manager check it at most this often per file. */
  static final long VERIFY_EVERY_MILLIS = 60_000;

  private final ManagerSettings settings;
  private final CodePlanner planner;
  private final ParitySecrets secrets;
  private final ManagerMetrics metrics;
  private final ParityReaper reaper;
  private final LongSupplier clock;

  /** Held for in-memory work only (microseconds): never across a NameNode call or Redis I/O. */
  private final ReentrantLock lock = new ReentrantLock();
  @GuardedBy("lock")
  private final Csac csac;
  @GuardedBy("lock")
  private final CacheIndex index = new CacheIndex();
  /** Files CSAC has seen, by id, as last seen (prefetch picks from them). */
  @GuardedBy("lock")
  private final Map<Long, FileInfo> known;
  /** When the Manager last read back a file's parity on a reader's report. */
  @GuardedBy("lock")
  private final Map<Long, Long> lastVerified = new LinkedHashMap<Long, Long>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
      return size() > 10_000;
    }
  };
  @GuardedBy("lock")
  private long lastGeneration;

  CacheState(ManagerSettings settings, CodePlanner planner, ParitySecrets secrets, ManagerMetrics metrics,
      ParityReaper reaper, LongSupplier clock) {
    this.settings = settings;
    this.planner = planner;
    this.secrets = secrets;
    this.metrics = metrics;
    this.reaper = reaper;
    this.clock = clock;
    this.csac = settings.newCsac(clock);
    int history = settings.predictionHistory;
    this.known = new LinkedHashMap<Long, FileInfo>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, FileInfo> eldest) {
        return size() > history;
      }
    };
    this.lastGeneration = clock.getAsLong() * 1000; // unique across Manager restarts while the clock moves on
  }

  /** What a lookup decided: the descriptor to serve (or null), the decision's name, a fill to start (or null). */
  static final class Lookup {
    final ParityDescriptor descriptor;
    final String decision;
    final CacheIndex.Entry fill;

    Lookup(ParityDescriptor descriptor, String decision, CacheIndex.Entry fill) {
      this.descriptor = descriptor;
      this.decision = decision;
      this.fill = fill;
    }
  }

  /**
   * A read opens {@code f}: CSAC learns of the access (Algorithm 1), parity of an older
   * version of the file is dropped, and a file CSAC wants gets a fill when
   * {@code canFill}. The descriptor is served only while {@code ready}.
   */
  Lookup admitOnRead(FileInfo f, CodePlanner.Code code, boolean readerFills, boolean canFill, boolean ready,
      String runIdForWrites) {
    FileRef ref = code.cacheable ? planner.fileRef(f, code, f.length) : null;
    List<CacheIndex.Entry> victims = new ArrayList<>();
    lock.lock();
    try {
      CacheIndex.Entry e = index.get(f.id);
      if (e != null && e.cached() && !e.matches(f)) {
        victims.add(dropLocked(e, "the file changed in HDFS"));
        metrics.invalidations.incrementAndGet();
        e = null;
      }
      if (e != null) {
        followRenameLocked(e, f.path);
      }
      String decision;
      CacheIndex.Entry fill = null;
      if (ref == null) {
        decision = code.why;
      } else {
        known.put(f.id, f);
        Decision d = csac.query(ref);
        boolean passedShort = d == Decision.SHOULD_CACHE && e == null && shortOffStragglers(f, code, ref);
        if (passedShort) {
          d = Decision.SHOULD_NOT_CACHE;
        }
        boolean fillNow = d == Decision.SHOULD_CACHE && canFill && e == null;
        evictLocked(csac.update(ref, fillNow ? Decision.SHOULD_CACHE
            : d == Decision.CACHED ? Decision.CACHED : Decision.SHOULD_NOT_CACHE), victims);
        if (fillNow) {
          fill = newEntryLocked(f, code, ref.weight(), ParityState.FILLING, runIdForWrites);
          fill.setReaderFill(readerFills);
        }
        decision = e != null ? e.state().name() : fillNow ? "FILLING" : passedShort ? "SHORT_FILE" : d.name();
      }
      ParityDescriptor descriptor = null;
      if (e != null && e.cached() && ready) {
        descriptor = e.served(f, secrets, settings.keyPrefix());
      } else if (e != null && e.cached()) {
        decision = "CACHE_UNAVAILABLE";
      }
      return new Lookup(descriptor, decision, fill);
    } finally {
      reaper.reap(victims); // under the lock: Redis sees the changes in the order the index made them
      lock.unlock();
    }
  }

  /**
   * Whether a replicated file is shorter than {@code dfs.pocache.cache.read.min.blocks} full
   * blocks (at most k) and has no block on a listed straggler. Its parity would be as large as
   * its data (the rest of its stripe is virtual zeros); it is filled on a read miss only while a
   * straggler holds one of its blocks, so that the first read of a short file on healthy
   * DataNodes (a Parquet file of one row group, a reducer's part file) costs what HDFS's does.
   */
  private boolean shortOffStragglers(FileInfo f, CodePlanner.Code code, FileRef ref) {
    int blocks = Math.min(settings.readMinBlocks, code.k);
    return blocks > 1 && f.ecDataUnits == 0 && f.blockSize > 0 && f.length < (long) blocks * f.blockSize
        && !ref.touches(csac.stragglers());
  }

  /** A fill first offered to its reader goes to the fill worker instead. */
  void handToWorker(CacheIndex.Entry fill) {
    lock.lock();
    try {
      fill.setReaderFill(false);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Reserves the parity of a file being written, {@code ref.weight()} bytes of it.
   *
   * @return the reservation's entry, or a String saying why there is none
   */
  Object reserveWrite(FileInfo f, CodePlanner.Code code, FileRef ref, String caller, String runIdForWrites) {
    List<CacheIndex.Entry> victims = new ArrayList<>();
    lock.lock();
    try {
      CacheIndex.Entry e = index.get(f.id);
      long held = caller == null ? 0 : index.reservedBy(caller);
      if (e != null) {
        return "file id " + f.id + " already has parity " + e.state();
      }
      if (held > 0 && held + ref.weight() > settings.userShare * settings.capacityBytes) {
        return "user " + caller + " already holds " + held + " bytes of reservations; "
            + PoCacheConfigKeys.MANAGER_USER_SHARE_KEY + " = " + settings.userShare
            + " of the cache is the most one user may reserve";
      }
      if (!csac.admitNew(ref)) {
        return "CSAC's admission policy declined (" + settings.policies() + ")";
      }
      evictLocked(csac.insert(ref), victims);
      return newEntryLocked(f, code, ref.weight(), ParityState.RESERVED, runIdForWrites);
    } finally {
      reaper.reap(victims); // under the lock: Redis sees the changes in the order the index made them
      lock.unlock();
    }
  }

  /** An open reservation for {@code fileId}. */
  CacheIndex.Entry openReservation(long reservationId, long fileId) throws IOException {
    lock.lock();
    try {
      CacheIndex.Entry e = index.reservation(reservationId);
      if (e == null) {
        throw unknownReservationLocked(reservationId);
      }
      if (e.fileId != fileId) {
        throw new IOException("reservation " + reservationId + " is for file id " + e.fileId + ", not " + fileId);
      }
      return e;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The entry a commit of this reservation already made CACHED, with the same file and
   * length, or null: a writer whose commit answer was lost (a timeout under load) asks
   * again, and the repeat is acknowledged rather than refused, so writer and Manager
   * agree that the file is cached.
   */
  CacheIndex.Entry committedBy(long reservationId, long fileId, long length) {
    lock.lock();
    try {
      if (index.reservation(reservationId) != null || !"committed".equals(index.closedAs(reservationId))) {
        return null;
      }
      CacheIndex.Entry e = index.get(fileId);
      return e != null && e.cached() && e.reservationId == reservationId && e.length() == length ? e : null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * RESERVED or FILLING -> CACHED: the reservation is trimmed to (or grown to) the
   * parity stored, and the index entry is written to Redis.
   *
   * @return whether it was a fill (not a write)
   */
  boolean commit(CacheIndex.Entry e, FileInfo f, long parityBytes, byte[] valueDigests, String runIdForWrites)
      throws IOException {
    List<CacheIndex.Entry> victims = new ArrayList<>();
    lock.lock();
    try {
      if (index.reservation(e.reservationId) != e) {
        throw new IOException("reservation " + e.reservationId + " ended while committing: "
            + index.closedAs(e.reservationId));
      }
      boolean wasFill = e.state() == ParityState.FILLING;
      csac.remove(e.fileId);
      long bytes = Math.max(1, parityBytes);
      evictLocked(csac.insert(CodePlanner.fileRef(e.fileId, bytes, f)), victims);
      index.closeReservation(e, "committed");
      e.commit(f, bytes, e.protection == ParityProtection.NONE ? new byte[0] : valueDigests.clone(),
          runIdForWrites);
      known.put(e.fileId, f);
      reaper.writeIndex(e.fileId, e.descriptor(settings.keyPrefix()));
      return wasFill;
    } finally {
      reaper.reap(victims); // under the lock: Redis sees the changes in the order the index made them
      lock.unlock();
    }
  }

  /** Checks, under the state lock, whether the RPC caller may end a reservation. */
  interface OwnerCheck {
    void check(CacheIndex.Entry e) throws AccessControlException;
  }

  /**
   * Ends a reservation: a reader's fill is handed to the fill worker (returned, for
   * the caller to dispatch), anything else is dropped (null returned).
   */
  CacheIndex.Entry abort(long reservationId, String reason, OwnerCheck owner) throws IOException {
    List<CacheIndex.Entry> victims = new ArrayList<>(1);
    lock.lock();
    try {
      CacheIndex.Entry e = index.reservation(reservationId);
      if (e == null) {
        throw unknownReservationLocked(reservationId);
      }
      owner.check(e);
      if (e.readerFill()) {
        // The reader could not fill it (it did not read the whole file, Redis failed it, ...):
        // the fill worker takes over the same reservation and keys.
        e.setReaderFill(false);
        return e;
      }
      if (e.state() == ParityState.FILLING) {
        metrics.failedFills.incrementAndGet();
      }
      victims.add(dropLocked(e, "aborted: " + reason));
      return null;
    } finally {
      reaper.reap(victims); // under the lock: Redis sees the changes in the order the index made them
      lock.unlock();
    }
  }

  /**
   * Starts a fill of {@code f} (an operator's prefetch or a straggler's): replaces
   * parity of an older version of the file.
   *
   * @return the fill's entry, or null if the file already has parity (or a reservation)
   */
  CacheIndex.Entry startFill(FileInfo f, CodePlanner.Code code, String runIdForWrites) {
    List<CacheIndex.Entry> victims = new ArrayList<>();
    lock.lock();
    try {
      CacheIndex.Entry e = index.get(f.id);
      if (e != null && !(e.cached() && !e.matches(f))) {
        return null;
      }
      if (e != null) {
        victims.add(dropLocked(e, "the file changed in HDFS"));
      }
      FileRef ref = planner.fileRef(f, code, f.length);
      evictLocked(csac.insert(ref), victims);
      return newEntryLocked(f, code, ref.weight(), ParityState.FILLING, runIdForWrites);
    } finally {
      reaper.reap(victims); // under the lock: Redis sees the changes in the order the index made them
      lock.unlock();
    }
  }

  /** The state of {@code fileId}'s entry, or null if it has none. */
  ParityState stateOf(long fileId) {
    lock.lock();
    try {
      CacheIndex.Entry e = index.get(fileId);
      return e == null ? null : e.state();
    } finally {
      lock.unlock();
    }
  }

  /** Drops {@code fileId}'s parity if it is still CACHED at {@code generation}; true if it was. */
  boolean dropIfCurrent(long fileId, long generation, String why) {
    List<CacheIndex.Entry> victims = new ArrayList<>(1);
    lock.lock();
    try {
      CacheIndex.Entry e = index.get(fileId);
      if (e != null && e.generation == generation && e.cached()) {
        metrics.invalidations.incrementAndGet();
        victims.add(dropLocked(e, why));
      }
    } finally {
      reaper.reap(victims); // under the lock: Redis sees the changes in the order the index made them
      lock.unlock();
    }
    return !victims.isEmpty();
  }

  /** Shows file {@code fileId} under {@code path}, the name the NameNode has for it now. */
  void followRename(long fileId, String path) {
    lock.lock();
    try {
      CacheIndex.Entry e = index.get(fileId);
      if (e != null) {
        followRenameLocked(e, path);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Drops {@code fileId}'s parity if it is CACHED and {@code f} (the file now, or null if gone) no longer matches. */
  boolean dropIfStale(long fileId, FileInfo f) {
    List<CacheIndex.Entry> victims = new ArrayList<>(1);
    lock.lock();
    try {
      CacheIndex.Entry e = index.get(fileId);
      if (e != null && e.cached() && !e.matches(f)) {
        metrics.invalidations.incrementAndGet();
        victims.add(dropLocked(e, f == null ? "deleted" : "changed"));
      } else if (e != null && f != null) {
        followRenameLocked(e, f.path);
      }
    } finally {
      reaper.reap(victims); // under the lock: Redis sees the changes in the order the index made them
      lock.unlock();
    }
    return !victims.isEmpty();
  }

  /** An operator's evict: whatever the file has is dropped. */
  String evict(FileInfo f, String path) {
    List<CacheIndex.Entry> victims = new ArrayList<>(1);
    lock.lock();
    try {
      CacheIndex.Entry e = index.get(f.id);
      if (e == null) {
        return path + ": not cached";
      }
      metrics.evictions.incrementAndGet();
      String was = e.state().name();
      victims.add(dropLocked(e, "evicted by an operator"));
      return path + ": evicted (" + was + ", " + e.parityBytes() + " parity bytes)";
    } finally {
      reaper.reap(victims); // under the lock: Redis sees the changes in the order the index made them
      lock.unlock();
    }
  }

  /**
   * The descriptor (with its file key) of {@code fileId}'s parity for the Manager to
   * check on a reader's report, or null: not CACHED at {@code generation}, or checked
   * within the last {@link #VERIFY_EVERY_MILLIS}.
   */
  ParityDescriptor toVerify(long fileId, long generation) {
    long now = clock.getAsLong();
    lock.lock();
    try {
      CacheIndex.Entry e = index.get(fileId);
      Long last = lastVerified.get(fileId);
      if (e == null || e.generation != generation || !e.cached()
          || last != null && now - last < VERIFY_EVERY_MILLIS) {
        return null;
      }
      lastVerified.put(fileId, now);
      return secrets.withKey(e.descriptor(settings.keyPrefix()));
    } finally {
      lock.unlock();
    }
  }

  /** Descriptors (without keys) of every entry whose path starts with {@code prefix}. */
  List<ParityDescriptor> list(String prefix) {
    List<ParityDescriptor> out = new ArrayList<>();
    lock.lock();
    try {
      for (CacheIndex.Entry e : index.entries()) {
        if (e.path().startsWith(prefix)) {
          out.add(e.descriptor(settings.keyPrefix()));
        }
      }
    } finally {
      lock.unlock();
    }
    return out;
  }

  /** Ids of the CACHED files at {@code path} or under it (a directory), other than {@code exceptId}. */
  List<Long> cachedAt(String path, boolean orUnder, long exceptId) {
    String under = path.endsWith("/") ? path : path + "/";
    List<Long> out = new ArrayList<>();
    lock.lock();
    try {
      for (CacheIndex.Entry e : index.entries()) {
        if (e.cached() && e.fileId != exceptId && (e.path().equals(path) || orUnder && e.path().startsWith(under))) {
          out.add(e.fileId);
        }
      }
    } finally {
      lock.unlock();
    }
    return out;
  }

  /** Ids of every CACHED file. */
  List<Long> cachedIds() {
    List<Long> out = new ArrayList<>();
    lock.lock();
    try {
      for (CacheIndex.Entry e : index.entries()) {
        if (e.cached()) {
          out.add(e.fileId);
        }
      }
    } finally {
      lock.unlock();
    }
    return out;
  }

  /** Open write reservations (the housekeeping tick grows them with their files). */
  List<CacheIndex.Entry> openWrites() {
    lock.lock();
    try {
      return index.openWrites();
    } finally {
      lock.unlock();
    }
  }

  /** Grows a write's reservation to {@code need} bytes, evicting as needed; false if it ended meanwhile. */
  boolean grow(CacheIndex.Entry e, long need, FileInfo f) {
    List<CacheIndex.Entry> victims = new ArrayList<>();
    lock.lock();
    try {
      if (index.reservation(e.reservationId) != e) {
        return false;
      }
      csac.remove(e.fileId);
      evictLocked(csac.insert(CodePlanner.fileRef(e.fileId, need, f)), victims);
      e.grow(need);
      return true;
    } finally {
      reaper.reap(victims); // under the lock: Redis sees the changes in the order the index made them
      lock.unlock();
    }
  }

  /** Ends the reservations past their expiry; returns them (their keys are for the caller to delete). */
  List<CacheIndex.Entry> expire() {
    lock.lock();
    try {
      List<CacheIndex.Entry> expired = index.expire(clock.getAsLong());
      for (CacheIndex.Entry e : expired) {
        csac.remove(e.fileId);
        if (e.state() == ParityState.FILLING) {
          metrics.failedFills.incrementAndGet();
        }
      }
      return expired;
    } finally {
      lock.unlock();
    }
  }

  /** Drops every entry whose parity the current secrets cannot open; returns how many. */
  int dropUnopenable() {
    List<CacheIndex.Entry> victims = new ArrayList<>();
    lock.lock();
    try {
      for (CacheIndex.Entry e : new ArrayList<>(index.entries())) {
        e.forgetServed();
        if (!secrets.canOpen(e.descriptor(settings.keyPrefix()))) {
          victims.add(dropLocked(e, "its parity secret was removed"));
        }
      }
      metrics.invalidations.addAndGet(victims.size());
    } finally {
      reaper.reap(victims); // under the lock: Redis sees the changes in the order the index made them
      lock.unlock();
    }
    return victims.size();
  }

  /** Forgets everything (Redis lost it); returns what was there, for its keys to be deleted. */
  List<CacheIndex.Entry> clear(String why) {
    lock.lock();
    try {
      List<CacheIndex.Entry> all = index.clear("cancelled: " + why);
      for (CacheIndex.Entry e : all) {
        csac.remove(e.fileId);
      }
      return all;
    } finally {
      lock.unlock();
    }
  }

  /**
   * After a Manager restart: the entries found true again, each with its file, go back
   * into CSAC and the index as far as the capacity allows. Returns the entries that did
   * not fit or were evicted for others, for their keys to be deleted.
   */
  List<CacheIndex.Entry> restore(List<CacheIndex.Entry> entries, List<FileInfo> files) {
    List<CacheIndex.Entry> drop = new ArrayList<>();
    lock.lock();
    try {
      for (int i = 0; i < entries.size(); i++) {
        CacheIndex.Entry e = entries.get(i);
        FileInfo f = files.get(i);
        // Generations made by another Manager (the other NameNode of an HA pair) are never reused.
        lastGeneration = Math.max(lastGeneration, e.generation);
        known.put(f.id, f);
        List<Long> evicted = csac.insert(CodePlanner.fileRef(e.fileId, Math.max(1, e.parityBytes()), f));
        if (csac.isCached(e.fileId)) {
          index.put(e);
        } else {
          drop.add(e);
        }
        for (long id : evicted) {
          CacheIndex.Entry v = index.get(id);
          if (v != null) {
            metrics.evictions.incrementAndGet();
            drop.add(dropLocked(v, "evicted"));
          }
        }
      }
    } finally {
      lock.unlock();
    }
    return drop;
  }

  /** Whether a newer entry of the same file is in the index (then its index field is not the old one's to remove). */
  boolean indexedElsewhere(CacheIndex.Entry e) {
    lock.lock();
    try {
      CacheIndex.Entry now = index.get(e.fileId);
      return now != null && now != e;
    } finally {
      lock.unlock();
    }
  }

  /**
   * New stragglers listed: the files CSAC would prefetch for them (Algorithm 1,
   * lines 28-41), at most {@code max}; empty when none are new.
   */
  List<FileRef> prefetchCandidates(List<String> stragglers, boolean enabled, int max) {
    lock.lock();
    try {
      csac.setStragglers(stragglers);
      if (!enabled || !csac.hasNewStragglers()) {
        return Collections.emptyList();
      }
      return csac.prefetch(id -> {
        FileInfo f = known.get(id);
        return f == null ? null : planner.refIfCacheable(f);
      }, max);
    } finally {
      lock.unlock();
    }
  }

  /** The file as CSAC last saw it (with its path), or null. */
  FileInfo known(long fileId) {
    lock.lock();
    try {
      return known.get(fileId);
    } finally {
      lock.unlock();
    }
  }

  ManagerMetrics.Gauges gauges(PoCacheManagerProtocol.StragglerList s, boolean ready) {
    lock.lock();
    try {
      return new ManagerMetrics.Gauges(csac.capacity(), csac.used(), index.size(), index.reservations(),
          String.join(",", s.dataNodes), s.dataNodes.size(), ready);
    } finally {
      lock.unlock();
    }
  }

  // --- under the lock ----------------------------------------------------------------

  @GuardedBy("lock")
  private CacheIndex.Entry newEntryLocked(FileInfo f, CodePlanner.Code code, long weight, ParityState st,
      String runIdForWrites) {
    long generation = Math.max(lastGeneration + 1, clock.getAsLong() * 1000);
    lastGeneration = generation;
    // Not the generation (listed, and guessable from the clock): only the caller learns it.
    long id;
    do {
      id = RESERVATION_IDS.nextLong() & Long.MAX_VALUE;
    } while (id == 0 || index.reservation(id) != null);
    boolean fill = st == ParityState.FILLING; // a fill knows its file's length; a write does not yet
    CacheIndex.Entry e = new CacheIndex.Entry(f.id, generation, f.path, fill ? f.length : 0,
        fill ? f.modificationTime : 0, f.blockSize, code.cell, code.k, planner.m(), planner.subblockBytes(code),
        weight, st, runIdForWrites, f.blocksDigest, secrets.protection(), secrets.currentKeyId(), id,
        ManagerAuthorizer.callerName(), clock.getAsLong() + settings.reservationTtlMillis);
    index.put(e);
    return e;
  }

  /** Drops CSAC's victims from the index into {@code out}. */
  @GuardedBy("lock")
  private void evictLocked(List<Long> victimIds, List<CacheIndex.Entry> out) {
    for (long id : victimIds) {
      CacheIndex.Entry v = index.get(id);
      if (v != null) {
        metrics.evictions.incrementAndGet();
        out.add(dropLocked(v, "evicted"));
      }
    }
  }

  /** Removes {@code e} from the index and CSAC; the caller has its keys deleted. */
  @GuardedBy("lock")
  private CacheIndex.Entry dropLocked(CacheIndex.Entry e, String how) {
    index.remove(e.fileId, how);
    csac.remove(e.fileId);
    e.evicting();
    return e;
  }

  /**
   * The index is keyed by inode id, which a rename keeps; the path it shows (admin
   * -ls, descriptors) is brought up to date whenever the NameNode answers for the file
   * under another name (hdfs dfs -put writes x._COPYING_, jobs write task outputs under
   * _temporary and rename them).
   */
  @GuardedBy("lock")
  private void followRenameLocked(CacheIndex.Entry e, String path) {
    if (e.renamedTo(path) && e.cached()) {
      reaper.writeIndex(e.fileId, e.descriptor(settings.keyPrefix()));
    }
  }

  @GuardedBy("lock")
  private IOException unknownReservationLocked(long id) {
    String how = index.closedAs(id);
    return new IOException(how == null ? "unknown reservation " + id
        : "reservation " + id + " is no longer open: " + how);
  }
}
