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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.pocache.csac.detect.StragglerDetector;
import org.pocache.manager.protocol.PoCacheManagerProtocol.StragglerList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Manager's straggler list: DataNode heartbeats and client observations each
 * feed their own instance of the configured detector, and the list is every
 * DataNode either of them lists now. The two are kept apart because they measure
 * different things: a heartbeat's rate is what the DataNode sent over the time it
 * spent sending (waits for the network included), a client's is that client's share
 * of the DataNode, queueing and other readers included, which is lower for every
 * DataNode. Compared with each other, a DataNode whose newest sample happened to be a
 * client's looked slow next to DataNodes whose newest was a heartbeat. Client
 * observations cover DataNodes without the plugin or whose heartbeats do not arrive
 * (stuck behind a bad link), and slow paths a DataNode's own clock
 * cannot see. Each detector synchronizes on itself, so heartbeats and reports
 * from many RPC handler threads and readers of the list are safe.
 *
 * <p>A DataNode is listed once {@value #CONFIRMATIONS} successive samples of it (at
 * least half a heartbeat interval apart) were flagged, or at once on one heartbeat
 * at most {@value #SEVERE_FRACTION} of the median of the others' rates (a tenth-speed
 * DataNode is listed one heartbeat after its first wholly slow interval; a healthy
 * DataNode's heartbeat under load, sampled every 2 s, came to 0.21 of it at worst on
 * the project's cluster), and leaves the list once
 * {@value #CONFIRMATIONS} successive samples were not (or when nothing flagged it for
 * the report expiry: a DataNode that went quiet).
 * A single sample is one interval of one DataNode's reads, and under load one
 * interval often looks slow on a healthy DataNode (two readers sharing it, a long
 * read that finished in that interval); listing it sends every reader of its blocks
 * to parity, which costs the other DataNodes k - 1 reads per piece. A real straggler
 * is slow in nearly every sample and is listed one interval later. The same holds
 * the other way: one interval in which the healthy DataNodes happened to be slow
 * too, or a heartbeat that waited behind the straggler's own backlog, does not take
 * a straggler off the list and hand its readers back to it.
 *
 * <p>A DataNode its own heartbeats vouch for (its newest heartbeat, at most two
 * intervals old, was normal, and it sent at least {@value #VOUCH_RATIO} times the rate
 * the clients that flagged it got) is not listed on client reads alone. Clients see a
 * busy DataNode slow: five readers sharing one at full speed each get a fifth of it, and
 * to each of them it looks like a straggler. Its heartbeat measures what it sends in
 * all, network waits included, and tells busy from slow. But a heartbeat measures what
 * the DataNode's readers took as much as what it could send: when every DataNode serves
 * readers slower than itself (MapReduce tasks that compute as fast as they read), a
 * straggler's heartbeats, at its one reader's pace, look like its peers', are not
 * flagged, and would vouch for it against the clients that wait on it; a DataNode that
 * sends no faster than its slow clients receive is not busy, whatever its peers send.
 * Where there is no fresh heartbeat (no plugin, or one stuck behind a bad link) client
 * reads stand alone.
 *
 * <p>Client reads list a DataNode only when at least {@value #MIN_CLIENT_REPORTERS}
 * distinct clients (a client is a user on a host, as the Manager's RPC server
 * authenticated it) each list it on their own reads, or when one does and the
 * DataNode's own fresh heartbeat agrees: it sent less than {@value #VOUCH_RATIO} times
 * the rate at which that client found it slow (the MapReduce case above, where every
 * task of a one-host cluster is the same client). Every client's observations go to
 * a detector of its own and are judged against that client's view of the other
 * DataNodes only, with verdicts of their own: a client's reports are one vote, whatever
 * they claim and however many it sends. One user who invents reads (the victim serving
 * 2 MiB in 100 s, every other DataNode 64 MiB in 0.1 s) can neither list a healthy
 * DataNode alone nor make an honest client's reads of it look slow, since the honest
 * client's samples are never compared with the forger's; a DataNode that serves reads
 * has heartbeats that contradict a rate it never sent, and one that serves none has
 * no heartbeat to agree.
 */
public final class StragglerMonitor {
  private static final Logger LOG = LoggerFactory.getLogger(StragglerMonitor.class);
  /**
   * Client observations shorter than this are not timed: a few KB take a
   * millisecond or less, and TotalReadTime-like granularity would make noise.
   */
  public static final long MIN_CLIENT_SAMPLE_BYTES = 1 << 20;
  /**
   * A heartbeat whose DataNode sent less than {@link #MIN_CLIENT_SAMPLE_BYTES} in less
   * than this much service time is not timed either: a few short reads measure the
   * first packets' latency, not the rate (a healthy DataNode's 640 KB in 280 ms looked a
   * quarter as fast as its peers). A straggler, busy the whole interval, always passes.
   */
  public static final double MIN_HEARTBEAT_SERVICE_MILLIS = 1000;
  /** Successive flagged samples of a DataNode before it is listed, and unflagged ones before it is not. */
  public static final int CONFIRMATIONS = 2;
  /**
   * A flagged heartbeat at most this fraction of the median of the other DataNodes'
   * rates lists its DataNode at once, without waiting for a second one.
   */
  public static final double SEVERE_FRACTION = 0.2;
  /**
   * A heartbeat vouches against clients' slow views of its DataNode only if it sent at
   * least this many times the rate of the newest client sample that flagged it.
   */
  public static final double VOUCH_RATIO = 2;
  /** Distinct clients (user and host) that must each list a DataNode before client reads list it. */
  public static final int MIN_CLIENT_REPORTERS = 2;
  /** Clients whose reads are judged at once; a new one beyond this waits until an idle one is dropped. */
  static final int MAX_REPORTERS = 4096;


  private final StragglerDetector heartbeats;
  /** Makes the detector of each client's reads. */
  private final Supplier<StragglerDetector> clientDetectors;
  private final long reportTtlMillis;
  /**
   * Flagged samples closer together than this (half a heartbeat interval) count as one
   * confirmation: a client's report of its reads under way and the report of the
   * stream that ends them often arrive within a millisecond and describe the same
   * seconds of the same reads.
   */
  private final long confirmationGapMillis;
  /** How recent a normal heartbeat must be to overrule client reads (two heartbeat intervals). */
  private final long vouchMillis;
  private final LongSupplier clock;
  /** Per DataNode, the verdicts on its heartbeats and on client reads of it. */
  private final Map<String, Verdicts> byHeartbeats = new ConcurrentHashMap<>();
  /** Per client (user@host), its detector and its verdicts on the DataNodes it read from. */
  private final Map<String, Reporter> reporters = new ConcurrentHashMap<>();
  /** The list last returned, to log each change once. */
  private volatile String lastLogged = "[] []";

  /**
   * @param heartbeats judges DataNode heartbeats
   * @param clientDetectors makes a detector for each client's observations, of the same kind as
   *     {@code heartbeats} (a new instance each time: no client's samples are compared with heartbeats'
   *     or with another client's)
   * @param reportTtlMillis how long a listed DataNode stays listed without a flagged sample
   * @param heartbeatIntervalMillis the DataNodes' heartbeat interval
   */
  public StragglerMonitor(StragglerDetector heartbeats, Supplier<StragglerDetector> clientDetectors,
      long reportTtlMillis, long heartbeatIntervalMillis, LongSupplier clock) {
    StragglerDetector probe = clientDetectors.get();
    if (probe == null || probe == heartbeats || probe == clientDetectors.get()) {
      throw new IllegalArgumentException("heartbeats and each client's observations need detectors of their own");
    }
    if (reportTtlMillis <= 0 || heartbeatIntervalMillis <= 0) {
      throw new IllegalArgumentException("report expiry and heartbeat interval must be > 0 ms, got "
          + reportTtlMillis + " and " + heartbeatIntervalMillis);
    }
    this.confirmationGapMillis = heartbeatIntervalMillis / 2;
    this.vouchMillis = 2 * heartbeatIntervalMillis;
    this.heartbeats = heartbeats;
    this.clientDetectors = clientDetectors;
    this.reportTtlMillis = reportTtlMillis;
    this.clock = clock;
  }

  /** A DataNode plugin's interval. */
  public void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException {
    if (dataNode == null || dataNode.isEmpty()) {
      throw new IOException("heartbeat without a DataNode name");
    }
    if (bytesRead >= 0 && bytesRead < MIN_CLIENT_SAMPLE_BYTES && serviceMillis >= 0
        && serviceMillis < MIN_HEARTBEAT_SERVICE_MILLIS) {
      return; // too little to time
    }
    report(heartbeats, dataNode, bytesRead, serviceMillis, "heartbeat");
    if (bytesRead > 0 && serviceMillis > 0) {
      judge(heartbeats, byHeartbeats, dataNode, true, bytesRead / serviceMillis);
    }
  }

  /**
   * What client {@code reporter} (user@host) saw one DataNode do during a read (network
   * included), judged against that client's observations of other DataNodes only.
   */
  public void observe(String reporter, String dataNode, long bytes, double millis) throws IOException {
    if (dataNode == null || dataNode.isEmpty()) {
      throw new IOException("read report names an empty DataNode");
    }
    if (bytes >= MIN_CLIENT_SAMPLE_BYTES || bytes < 0 || !(millis >= 0)) {
      Reporter r = reporter(reporter == null ? "in-process" : reporter);
      if (r == null) {
        return; // too many clients at once; this one's reads count once an idle one is dropped
      }
      report(r.detector, dataNode, bytes, millis, "read report of " + reporter);
      if (millis > 0) {
        judge(r.detector, r.verdicts, dataNode, false, bytes / millis);
      }
    }
  }

  /** The state of client {@code name}, made on its first report; null when {@link #MAX_REPORTERS} are busy. */
  private Reporter reporter(String name) {
    long now = clock.getAsLong();
    Reporter r = reporters.get(name);
    if (r == null) {
      if (reporters.size() >= MAX_REPORTERS) {
        dropIdleReporters(now);
        if (reporters.size() >= MAX_REPORTERS) {
          return null;
        }
      }
      r = reporters.computeIfAbsent(name, x -> new Reporter(clientDetectors.get()));
    }
    r.lastReportAt = now;
    return r;
  }

  /** Forgets clients that reported nothing for twice the report expiry (they list nothing any more). */
  private void dropIdleReporters(long now) {
    reporters.values().removeIf(r -> now - r.lastReportAt > 2 * reportTtlMillis);
  }

  /** One client's detector and its verdicts on the DataNodes it read from. */
  private static final class Reporter {
    final StragglerDetector detector;
    final Map<String, Verdicts> verdicts = new ConcurrentHashMap<>();
    volatile long lastReportAt;

    Reporter(StragglerDetector detector) {
      this.detector = detector;
    }
  }

  /**
   * Counts a fresh sample of {@code dataNode} (at {@code rate} bytes per ms) as flagged or
   * not; with {@code severeLists}, a flagged sample far below its peers
   * ({@link #SEVERE_FRACTION}) lists it at once.
   */
  private void judge(StragglerDetector detector, Map<String, Verdicts> verdicts, String dataNode,
      boolean severeLists, double rate) {
    long now = clock.getAsLong();
    boolean flagged = detector.stragglers(now).contains(dataNode);
    boolean severe = flagged && severeLists && detector.rateOverPeers(dataNode, now) <= SEVERE_FRACTION;
    verdicts.computeIfAbsent(dataNode, x -> new Verdicts()).add(flagged, severe, now, confirmationGapMillis, rate);
    LOG.debug("{} sample of {} {}", detector == heartbeats ? "Heartbeat" : "Client read", dataNode,
        severe ? "flagged (severe)" : flagged ? "flagged" : "not flagged");
  }

  /** The DataNodes {@code verdicts} list now. */
  private Set<String> listed(Map<String, Verdicts> verdicts, long now) {
    Set<String> out = new TreeSet<>();
    for (Map.Entry<String, Verdicts> e : verdicts.entrySet()) {
      if (e.getValue().listed(now, reportTtlMillis)) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /** One DataNode's recent verdicts from one source. */
  private static final class Verdicts {
    private int flaggedInRow;
    private int clearedInRow;
    private boolean listed;
    private long lastFlaggedAt;
    /** When the last flagged sample that counted toward {@link #flaggedInRow} came. */
    private long lastCountedAt;
    private long lastClearedAt = Long.MIN_VALUE / 2;
    /** Bytes per ms of the newest sample, and of the newest flagged one. */
    private double lastRate;
    private double lastFlaggedRate;
    /** When the newest sample came. */
    private long lastAt = Long.MIN_VALUE / 2;

    synchronized void add(boolean flagged, boolean severe, long now, long gap, double rate) {
      lastRate = rate;
      lastAt = now;
      if (flagged) {
        lastFlaggedRate = rate;
        clearedInRow = 0;
        if (severe) {
          flaggedInRow = CONFIRMATIONS;
          lastCountedAt = now;
        } else if (flaggedInRow == 0 || now - lastCountedAt >= gap) {
          flaggedInRow = Math.min(flaggedInRow + 1, CONFIRMATIONS);
          lastCountedAt = now;
        }
        lastFlaggedAt = now;
        listed |= flaggedInRow >= CONFIRMATIONS;
      } else {
        flaggedInRow = 0;
        lastClearedAt = now;
        clearedInRow = Math.min(clearedInRow + 1, CONFIRMATIONS);
        listed &= clearedInRow < CONFIRMATIONS;
      }
    }

    /**
     * Whether its newest sample, at most {@code window} ms old, was normal, it is not listed,
     * and that sample's rate was at least {@link #VOUCH_RATIO} times {@code slowRate}.
     */
    synchronized boolean vouches(long now, long window, double slowRate) {
      return !listed && flaggedInRow == 0 && now - lastClearedAt <= window && lastRate >= VOUCH_RATIO * slowRate;
    }

    /**
     * Whether its newest sample, at most {@code window} ms old, sent less than
     * {@link #VOUCH_RATIO} times {@code slowRate}: the DataNode's own clock bears out a
     * client that found it that slow.
     */
    synchronized boolean agrees(long now, long window, double slowRate) {
      return now - lastAt <= window && lastRate < VOUCH_RATIO * slowRate;
    }

    synchronized double lastFlaggedRate() {
      return lastFlaggedRate;
    }

    synchronized boolean listed(long now, long ttl) {
      if (listed && now - lastFlaggedAt > ttl) {
        listed = false; // nothing flagged it for a while: it went quiet
        flaggedInRow = 0;
      }
      return listed;
    }
  }

  private void report(StragglerDetector detector, String dataNode, long bytes, double millis, String what)
      throws IOException {
    try {
      detector.report(dataNode, bytes, millis, clock.getAsLong());
      if (LOG.isDebugEnabled()) {
        LOG.debug("{} from {}: {} bytes in {} ms ({} MiB/s)", what, dataNode, bytes, String.format("%.1f", millis),
            millis > 0 ? String.format("%.2f", bytes / 1048576.0 / (millis / 1000)) : "-");
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("bad " + what + " from " + dataNode + ": " + e.getMessage(), e);
    }
  }

  public StragglerList getStragglers() {
    long now = clock.getAsLong();
    Set<String> disk = listed(byHeartbeats, now);
    // Per DataNode, how many clients list it, and the fastest rate at which one of them found it slow.
    Map<String, Integer> votes = new HashMap<>();
    Map<String, Double> slowRate = new HashMap<>();
    for (Reporter r : reporters.values()) {
      for (String dn : listed(r.verdicts, now)) {
        votes.merge(dn, 1, Integer::sum);
        slowRate.merge(dn, r.verdicts.get(dn).lastFlaggedRate(), Math::max);
      }
    }
    Set<String> seen = new TreeSet<>();
    for (Map.Entry<String, Integer> v : votes.entrySet()) {
      String dn = v.getKey();
      Verdicts own = byHeartbeats.get(dn);
      if (v.getValue() < MIN_CLIENT_REPORTERS && (own == null || !own.agrees(now, vouchMillis, slowRate.get(dn)))) {
        continue; // one client's word, which the DataNode's own heartbeats do not bear out
      }
      if (own != null && own.vouches(now, vouchMillis, slowRate.get(dn))) {
        continue; // busy, not slow: it sends at the others' pace, its clients share it
      }
      seen.add(dn);
    }
    Set<String> both = new TreeSet<>(disk);
    both.addAll(seen);
    String shown = disk + " " + seen; // both sorted (listed returns TreeSets)
    if (!shown.equals(lastLogged)) {
      synchronized (this) {
        if (!shown.equals(lastLogged)) {
          lastLogged = shown;
          LOG.info("Straggler list is now {} (from heartbeats {}, from client reads {})", both, disk, seen);
        }
      }
    }
    return new StragglerList(new ArrayList<>(both), heartbeats.name(), new ArrayList<>(disk),
        new ArrayList<>(seen));
  }
}
