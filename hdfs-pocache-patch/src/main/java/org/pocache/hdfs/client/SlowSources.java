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

import java.util.ArrayList;
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
import org.pocache.manager.server.StragglerMonitor;

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
 * <p><b>Size.</b> One class because history, probes, backlogs and long reads are one
 * skip policy over one per-DataNode state: split, they would share that state across
 * classes.
 */
final class SlowSources {
  static final int WINDOW = 4;
  static final int LATE_OF = 3;
  static final int PROBE_EVERY = 8;
  /** Abandoned reads still running on one DataNode past which its pieces are left to parity. */
  static final int MAX_BACKLOG = 2;
  /** How long a read must have been in flight before a report counts it. */
  static final long IN_FLIGHT_MIN_MILLIS = 1000;

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
  /** Finished data reads per DataNode, not yet reported to the Manager. */
  private final Map<String, Busy> observed = new ConcurrentHashMap<>();
  /** Abandoned reads still running, per DataNode. */
  private final Map<String, AtomicInteger> backlogs = new ConcurrentHashMap<>();
  private final AtomicInteger backlog = new AtomicInteger();

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
    return !histories.isEmpty() || backlog.get() > 0 || anyListed();
  }

  /** Whether {@link #listed} is not empty, without making its copy (asked on every read). */
  private boolean anyListed() {
    for (String dn : stragglers.get()) {
      if (!overruled.contains(dn)) {
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

  /**
   * A data read of {@code bytes} from the one DataNode in {@code dataNodes} starts now;
   * until the returned action runs (when it ends, however it ends; exactly once) it is
   * in flight, and a report while it has run for {@value #IN_FLIGHT_MIN_MILLIS} ms or
   * more counts it (see {@link #drainObservations}). Null when not attributed
   * (several replicas).
   */
  Runnable reading(List<String> dataNodes, long bytes) {
    if (dataNodes.size() != 1 || bytes <= 0) {
      return null;
    }
    Busy b = observed.computeIfAbsent(dataNodes.get(0), x -> new Busy());
    long[] read = {System.nanoTime(), bytes};
    b.start(read);
    return () -> b.end(read);
  }

  /**
   * A data read of {@code bytes} from the one DataNode in {@code dataNodes} took
   * {@code nanos}, ending now. Late reads count too, when they end: they are what
   * shows a straggler. Pieces with several replicas are not attributed.
   */
  void observed(List<String> dataNodes, long bytes, long nanos) {
    if (dataNodes.size() != 1 || bytes <= 0 || nanos < 0) {
      return;
    }
    long end = System.nanoTime();
    observed(dataNodes, bytes, end - nanos, end);
  }

  /** A data read of {@code bytes} ran from {@code startNanos} to {@code endNanos} (System.nanoTime). */
  void observed(List<String> dataNodes, long bytes, long startNanos, long endNanos) {
    if (dataNodes.size() != 1 || bytes <= 0 || endNanos < startNanos) {
      return;
    }
    observed.computeIfAbsent(dataNodes.get(0), x -> new Busy()).add(bytes, startNanos, endNanos);
  }

  /**
   * Removes and returns the observations of DataNodes that served at least
   * {@link StragglerMonitor#MIN_CLIENT_SAMPLE_BYTES} since the last report (the
   * Manager ignores smaller samples); smaller ones keep accumulating. The time of an
   * observation is how long this client had reads outstanding on the DataNode (the
   * union of the reads' spans, not their sum), so a DataNode serving four reads at
   * once does not look four times slower than one serving them in turn: the rate is
   * what the DataNode delivered to this client while it was asked for something.
   *
   * <p>Reads still in flight for {@value #IN_FLIGHT_MIN_MILLIS} ms or more count as if
   * their bytes had all arrived by now, which is at least as fast as they really are:
   * a straggler's read that parity made unnecessary may run for a minute, and the
   * Manager should not wait for it to end to hear that the DataNode is slow. Such a
   * read counts again in every report until it ends, each time with its time so far,
   * and then once more with its true time.
   */
  List<ReadReport.Observation> drainObservations() {
    return drainObservations(System.nanoTime());
  }

  List<ReadReport.Observation> drainObservations(long nowNanos) {
    List<ReadReport.Observation> out = new ArrayList<>();
    for (Map.Entry<String, Busy> e : observed.entrySet()) {
      long[] taken = e.getValue().takeIfAtLeast(StragglerMonitor.MIN_CLIENT_SAMPLE_BYTES, nowNanos);
      if (taken != null) {
        out.add(new ReadReport.Observation(e.getKey(), taken[0], taken[1] / 1e6));
      }
    }
    return out;
  }

  /** Bytes one DataNode served since the last report and the spans of the reads that served them. */
  static final class Busy {
    /** Spans kept before they are folded into {@link #foldedNanos}. */
    private static final int MAX_SPANS = 512;
    private long bytes;
    private long foldedNanos;
    private final List<long[]> spans = new ArrayList<>();
    /** Reads under way: {start nanos, bytes}. */
    private final List<long[]> inFlight = new ArrayList<>();

    synchronized void start(long[] read) {
      inFlight.add(read);
    }

    synchronized void end(long[] read) {
      inFlight.remove(read);
    }

    synchronized void add(long n, long start, long end) {
      bytes += n;
      spans.add(new long[] {start, end});
      if (spans.size() >= MAX_SPANS) {
        foldedNanos += union(spans); // a read overlapping the folded ones later counts a little twice
        spans.clear();
      }
    }

    /**
     * {bytes, busy nanoseconds} of the finished reads, with the reads in flight for
     * {@link #IN_FLIGHT_MIN_MILLIS} or more as of {@code nowNanos}, and a fresh start
     * for the finished ones; or null (and nothing changes) below {@code minBytes}.
     */
    synchronized long[] takeIfAtLeast(long minBytes, long nowNanos) {
      long total = bytes;
      List<long[]> all = spans;
      for (long[] r : inFlight) {
        if (nowNanos - r[0] >= IN_FLIGHT_MIN_MILLIS * 1_000_000L) {
          if (all == spans) {
            all = new ArrayList<>(spans);
          }
          total += r[1];
          all.add(new long[] {r[0], nowNanos});
        }
      }
      if (total < minBytes || total == 0) {
        return null;
      }
      long[] out = {total, foldedNanos + union(all)};
      bytes = 0;
      foldedNanos = 0;
      spans.clear();
      return out;
    }

    /** The total length of the union of {@code spans} (sorted in place). */
    static long union(List<long[]> spans) {
      spans.sort((a, b) -> Long.compare(a[0], b[0]));
      long total = 0;
      long from = Long.MIN_VALUE;
      long to = Long.MIN_VALUE;
      for (long[] s : spans) {
        if (from == Long.MIN_VALUE || s[0] > to) {
          if (from != Long.MIN_VALUE) {
            total += to - from;
          }
          from = s[0];
          to = s[1];
        } else if (s[1] > to) {
          to = s[1];
        }
      }
      return from == Long.MIN_VALUE ? total : total + (to - from);
    }
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
