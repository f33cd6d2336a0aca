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
package org.pocache.hdfs.client;

import java.util.HashSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.pocache.manager.protocol.ReadReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which data pieces a proactive read leaves to parity, so that a straggler's
 * bandwidth is not spent on reads whose bytes are decoded anyway (and so that such
 * abandoned reads do not pile up on it).
 *
 * <p>The policy, per FileSystem: a piece is skipped when every DataNode holding it is
 * on the Manager's straggler list; or, for a piece on one DataNode, when that
 * DataNode was late in at least {@value #LATE_OF} of the last {@value #WINDOW} reads
 * it was asked for: its piece was decoded rather than awaited, and its read then
 * took at least 1.5 times as long as the pieces that completed the fetch, or failed
 * (a healthy DataNode that merely came last is not late). Either way the piece is
 * still read every {@value #PROBE_EVERY}th time, so a recovered DataNode is
 * noticed: once it is on time again its history clears, and a listed DataNode this
 * client read on time is not skipped for the list's sake until it is late again or
 * the Manager drops it (the Manager clears a DataNode only on fresh evidence, and
 * a DataNode every client skips serves nothing to give any). A piece with several
 * replicas is judged by the straggler list only, since which replica HDFS reads is
 * not known here. A read skips at most m pieces per substripe (what parity can
 * replace), and reads the skipped pieces after all if the parity turns out to be
 * missing or unusable.
 *
 * <p>Reads parity made unnecessary keep running until the DataNode answers (HDFS
 * offers no way to cancel a positional read), each holding a thread of the read
 * pool. So that a very slow DataNode cannot take the pool, a DataNode with
 * {@value #MAX_BACKLOG} or more such abandoned reads still running is skipped
 * outright, without probes, until some of them end.
 *
 * <p>What the reads found of each DataNode for the Manager's read reports is kept beside,
 * in {@link ReadObservations}.
 */
final class SlowSources {
  /**
   * The client's lines are logged under its FileSystem's name, as operators look for them:
   * once per DataNode and client, the first time its reads judge that DataNode slow, and why.
   */
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheFileSystem.class);
  static final int WINDOW = 4;
  static final int LATE_OF = 3;
  static final int PROBE_EVERY = 8;
  /** Abandoned reads still running on one DataNode past which its pieces are left to parity. */
  static final int MAX_BACKLOG = 2;

  private final Supplier<Set<String>> stragglers;
  private final Supplier<Set<String>> seenByClients;
  private final Map<String, History> histories = new ConcurrentHashMap<>();
  /** Listed DataNodes this client has since read on time: the list does not skip them. */
  private final Set<String> overruled = ConcurrentHashMap.newKeySet();
  /** Unlisted DataNodes this client has read on time: what its own clock was set by. */
  private final Set<String> onTimeUnlisted = ConcurrentHashMap.newKeySet();
  /** Skip decisions for pieces whose every replica is listed, for their probes. */
  private final AtomicLong replicatedListed = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  /** How long this client's data reads of each DataNode took, for the Manager's straggler list. */
  private final ReadObservations observations = new ReadObservations();
  /** Abandoned reads still running, per DataNode. */
  private final Map<String, AtomicInteger> backlogs = new ConcurrentHashMap<>();
  private final AtomicInteger backlog = new AtomicInteger();
  /** DataNodes this client has said at INFO it found late, and that it found listed: each once. */
  private final Set<String> toldLate = ConcurrentHashMap.newKeySet();
  private final Set<String> toldListed = ConcurrentHashMap.newKeySet();

  SlowSources(Supplier<Set<String>> stragglers) {
    this(stragglers, Collections::emptySet);
  }

  /**
   * @param stragglers the Manager's straggler list
   * @param seenByClients which of them the Manager lists on clients' reads of them
   */
  SlowSources(Supplier<Set<String>> stragglers, Supplier<Set<String>> seenByClients) {
    this.stragglers = stragglers;
    this.seenByClients = seenByClients;
  }

  /**
   * Whether every DataNode in {@code dataNodes} is listed on clients' reads (less those this
   * client overruled): readers, not only the DataNode's own heartbeats, found it slow.
   */
  boolean seenSlowByClients(List<String> dataNodes) {
    if (dataNodes.isEmpty() || !listedAll(dataNodes)) {
      return false;
    }
    Set<String> seen = seenByClients.get();
    return seen.containsAll(dataNodes);
  }

  /**
   * Whether any DataNode is slow now (listed, less those this client overruled by reading
   * them on time beside their peers; with a history of late reads; or backlogged): if
   * not, pieces need not be located at all, and reads take their fast paths.
   */
  boolean judging() {
    // The list first, so that a DataNode's first listing is logged whatever else is slow.
    return anyListed() || !histories.isEmpty() || backlog.get() > 0;
  }

  /** Whether {@link #listed} is not empty, without making its copy (asked on every read). */
  private boolean anyListed() {
    for (String dn : stragglers.get()) {
      if (!overruled.contains(dn)) {
        if (!toldListed.contains(dn) && toldListed.add(dn)) {
          LOG.info("POCache: DataNode {} is on the Manager's straggler list ({}): this client's reads"
              + " now judge its pieces and may read around them with parity", dn,
              seenByClients.get().contains(dn) ? "from clients' reads" : "from its heartbeats");
        }
        return true;
      }
    }
    return false;
  }

  /**
   * A read of a piece held by {@code dataNodes} that parity replaced is still running:
   * counted in its DataNode's backlog until the returned action is run (when the read
   * ends; exactly once). Null when not counted (several replicas: which one HDFS
   * reads is not known).
   */
  Runnable abandoned(List<String> dataNodes) {
    if (dataNodes.size() != 1) {
      return null;
    }
    AtomicInteger n = backlogs.computeIfAbsent(dataNodes.get(0), x -> new AtomicInteger());
    n.incrementAndGet();
    backlog.incrementAndGet();
    return () -> {
      n.decrementAndGet();
      backlog.decrementAndGet();
    };
  }

  /** Whether the one DataNode in {@code dataNodes} has {@link #MAX_BACKLOG} abandoned reads running. */
  boolean backlogged(List<String> dataNodes) {
    if (dataNodes.size() != 1 || backlog.get() == 0) {
      return false;
    }
    AtomicInteger n = backlogs.get(dataNodes.get(0));
    return n != null && n.get() >= MAX_BACKLOG;
  }

  /** Abandoned reads running now, over all DataNodes. */
  int backlog() {
    return backlog.get();
  }

  /**
   * Whether the piece held by {@code dataNodes} is likely to come late: its one
   * DataNode has a backlog of abandoned reads or a history of late ones, or all its
   * DataNodes are listed. Unlike {@link #skip}, no probe is counted.
   */
  boolean suspect(List<String> dataNodes) {
    if (dataNodes.isEmpty()) {
      return false;
    }
    if (dataNodes.size() == 1) {
      String dn = dataNodes.get(0);
      if (histories.containsKey(dn) || backlogged(dataNodes)) {
        return true;
      }
    }
    return listedAll(dataNodes);
  }

  /**
   * Whether the piece held by {@code dataNodes} is slow by what reads found, not by
   * heartbeats alone: this client's reads of its one DataNode were late lately (a history)
   * or are backlogged, or the Manager lists all its DataNodes on clients' reads. Under load
   * a healthy DataNode's heartbeats now and then look slow for a few seconds; a reader that
   * can afford to wait for a late read to tell it asks this.
   */
  boolean slowByReads(List<String> dataNodes) {
    if (dataNodes.size() == 1 && (histories.containsKey(dataNodes.get(0)) || backlogged(dataNodes))) {
      return true;
    }
    return seenSlowByClients(dataNodes);
  }

  /**
   * Whether the piece held by {@code dataNodes} is suspect on its heartbeats alone: every
   * DataNode is listed (less those this client overruled), none on clients' reads, none is
   * backlogged, and this client's own reads of its one DataNode were not late in the last
   * {@value #WINDOW}. A DataNode's heartbeat rate includes waiting for its readers, so one
   * serving tasks starved of a core looks slow on it for seconds although it sends as fast
   * as its peers.
   */
  boolean listedOnHeartbeatsAlone(List<String> dataNodes) {
    if (!listedAll(dataNodes) || seenSlowByClients(dataNodes) || backlogged(dataNodes)) {
      return false;
    }
    if (dataNodes.size() == 1) {
      History h = histories.get(dataNodes.get(0));
      return h == null || !h.lateInOwnReads();
    }
    return true;
  }

  /**
   * Whether this client's own reads of the one DataNode in {@code dataNodes} were late in
   * at least {@value #LATE_OF} of the last {@value #WINDOW} (the Manager's word not counted).
   */
  boolean lateByOwnReads(List<String> dataNodes) {
    if (dataNodes.size() != 1) {
      return false;
    }
    History h = histories.get(dataNodes.get(0));
    return h != null && h.lateByOwnReads();
  }

  /** Whether every DataNode in {@code dataNodes} is on the Manager's list (less those this client overruled). */
  boolean listedAll(List<String> dataNodes) {
    if (dataNodes.isEmpty()) {
      return false;
    }
    Set<String> listed = listed();
    for (String dn : dataNodes) {
      if (!listed.contains(dn)) {
        return false;
      }
    }
    return true;
  }

  /** Whether to leave the piece held by {@code dataNodes} to parity this time. */
  boolean skip(List<String> dataNodes) {
    if (dataNodes.isEmpty()) {
      return false;
    }
    Set<String> listed = listed();
    boolean allListed = !listed.isEmpty();
    for (String dn : dataNodes) {
      allListed &= listed.contains(dn);
    }
    boolean skip;
    if (backlogged(dataNodes)) {
      skip = true; // no probe either: the DataNode has not answered the ones it has
    } else if (dataNodes.size() == 1) {
      String dn = dataNodes.get(0);
      History h = histories.get(dn);
      if (h != null && !allListed && h.onlyListed()) {
        histories.remove(dn, h); // the Manager dropped it, and this client never saw it late
        h = null;
      }
      if (h == null && allListed) {
        h = histories.computeIfAbsent(dn, x -> History.suspect());
      }
      skip = h != null && h.skipNow();
    } else {
      skip = allListed && replicatedListed.incrementAndGet() % PROBE_EVERY != 0;
    }
    if (skip) {
      skipped.incrementAndGet();
    }
    return skip;
  }

  /**
   * A read of the piece held by {@code dataNodes} ended by its deadline, read alone (a short
   * positional read, no peers beside it): one on-time outcome for its DataNode's history of
   * late reads, if it has one, and nothing else (no word against the Manager's list). A
   * DataNode found late once by such reads is cleared by them, not only by reads of whole
   * substripes, which a client that reads ranges of a few MiB never makes.
   */
  void onTime(List<String> dataNodes) {
    if (dataNodes.size() != 1 || histories.isEmpty()) {
      return;
    }
    String dn = dataNodes.get(0);
    History h = histories.get(dn);
    if (h != null && !h.onlyListed() && h.add(false)) {
      histories.remove(dn, h);
    }
  }

  /** The piece held by {@code dataNodes} was read; {@code late}: parity replaced it before it arrived. */
  void served(List<String> dataNodes, boolean late) {
    served(dataNodes, late, true);
  }

  /**
   * The piece held by {@code dataNodes} was read; {@code late}: parity replaced it before it
   * arrived. {@code againstPeers}: on time was judged against the pieces read beside it (a
   * proactive read's). On time by an absolute deadline only (a sequential read's subblock,
   * under a floor of tens of milliseconds) does not overrule the Manager's list: at page-cache
   * speeds a DataNode ten times slower than its peers still sends a subblock within it.
   */
  void served(List<String> dataNodes, boolean late, boolean againstPeers) {
    if (dataNodes.size() != 1) {
      return;
    }
    String dn = dataNodes.get(0);
    boolean listed = stragglers.get().contains(dn);
    if (late) {
      overruled.remove(dn);
      if (!toldLate.contains(dn) && toldLate.add(dn)) {
        LOG.info("POCache: a read of DataNode {} came late for this client ({} by the Manager):"
            + " this client's reads now judge its pieces and may read around them with parity", dn,
            listed ? "listed" : "not listed");
      }
    } else if (listed && againstPeers) {
      // On time by this client's clock overrules the list only if that clock was also set by
      // another DataNode: a task that streams one block from one DataNode has timed only that
      // DataNode, and its pace, a straggler's included, is all the task knows as on time.
      if (onTimeUnlisted.size() > 1 || !onTimeUnlisted.isEmpty() && !onTimeUnlisted.contains(dn)) {
        overruled.add(dn);
      }
    } else if (!listed) {
      onTimeUnlisted.add(dn);
    }
    History h = histories.get(dn);
    if (h == null) {
      if (!late) {
        return; // nothing to remember about a DataNode that has only ever been on time
      }
      // Late, and on the list: the list's word stands again.
      h = histories.computeIfAbsent(dn, x -> listed ? History.suspect() : new History());
    }
    if (h.add(late)) {
      histories.remove(dn, h); // nothing late in its window any more
    }
  }

  /**
   * The Manager's straggler list as last fetched, less the DataNodes this client
   * has read on time since they were listed.
   */
  Set<String> listed() {
    Set<String> listed = stragglers.get();
    if (overruled.isEmpty()) {
      return listed;
    }
    overruled.retainAll(listed); // a DataNode the Manager dropped needs no overruling
    if (overruled.isEmpty()) {
      return listed;
    }
    Set<String> out = new HashSet<>(listed);
    out.removeAll(overruled);
    return out;
  }

  /** A data read from {@code dataNodes} starts now: see {@link ReadObservations#reading}. */
  Runnable reading(List<String> dataNodes, long bytes) {
    return observations.reading(dataNodes, bytes);
  }

  /** A data read from {@code dataNodes} ended now: see {@link ReadObservations#observed}. */
  void observed(List<String> dataNodes, long bytes, long nanos) {
    observations.observed(dataNodes, bytes, nanos);
  }

  /** A data read from {@code dataNodes} ran from {@code startNanos} to {@code endNanos}. */
  void observed(List<String> dataNodes, long bytes, long startNanos, long endNanos) {
    observations.observed(dataNodes, bytes, startNanos, endNanos);
  }

  /** The observations for the next read report: see {@link ReadObservations#drain}. */
  List<ReadReport.Observation> drainObservations() {
    return drainObservations(System.nanoTime());
  }

  /** As {@link #drainObservations()}, at {@code nowNanos} (System.nanoTime). */
  List<ReadReport.Observation> drainObservations(long nowNanos) {
    return observations.drain(nowNanos);
  }

  /** Pieces left to parity so far. */
  long skipped() {
    return skipped.get();
  }

  /** The last {@link #WINDOW} outcomes of one DataNode's reads, newest in bit 0. */
  private static final class History {
    private int bits;
    private int count;
    private int sinceProbe;
    /** Whether all it holds is the Manager's word, no outcome of this client's. */
    private boolean listedOnly;
    /** This client's own last outcomes, newest in bit 0 (bits has the Manager's word in too). */
    private int ownBits;

    /** A DataNode known only from the Manager's list: as if late every time. */
    static History suspect() {
      History h = new History();
      h.bits = (1 << WINDOW) - 1;
      h.count = WINDOW;
      h.listedOnly = true;
      return h;
    }

    synchronized boolean onlyListed() {
      return listedOnly;
    }

    /** Records one outcome; true if no read in the window was late. */
    synchronized boolean add(boolean late) {
      listedOnly = false;
      if (!late && count >= WINDOW && Integer.bitCount(bits) >= LATE_OF) {
        bits = 0; // an on-time probe: the DataNode has recovered
        count = 0;
        ownBits = 0;
        return true;
      }
      bits = (bits << 1 | (late ? 1 : 0)) & ((1 << WINDOW) - 1);
      ownBits = (ownBits << 1 | (late ? 1 : 0)) & ((1 << WINDOW) - 1);
      count = Math.min(WINDOW, count + 1);
      return bits == 0;
    }

    /** Whether any of this client's own last outcomes was late. */
    synchronized boolean lateInOwnReads() {
      return ownBits != 0;
    }

    synchronized boolean lateByOwnReads() {
      return Integer.bitCount(ownBits) >= LATE_OF;
    }

    synchronized boolean skipNow() {
      if (count < WINDOW || Integer.bitCount(bits) < LATE_OF) {
        return false;
      }
      if (++sinceProbe >= PROBE_EVERY) {
        sinceProbe = 0;
        return false; // a probe: read it and see
      }
      return true;
    }
  }
}
