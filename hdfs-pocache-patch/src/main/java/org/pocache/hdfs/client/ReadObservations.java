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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.pocache.manager.protocol.ReadReport;
import org.pocache.manager.server.StragglerMonitor;

/**
 * What a client FileSystem's data reads found of each DataNode since its last read report:
 * the bytes it served and how long this client had reads outstanding on it. The Manager
 * lists a DataNode on clients' reads when they say it is slow, beside what its heartbeats
 * say; {@link SlowSources} keeps these for the FileSystem's readers.
 */
final class ReadObservations {
  /** How long a read must have been in flight before a report counts it. */
  static final long IN_FLIGHT_MIN_MILLIS = 1000;

  /** Finished data reads per DataNode, not yet reported to the Manager. */
  private final Map<String, Busy> observed = new ConcurrentHashMap<>();

  /**
   * A data read of {@code bytes} from the one DataNode in {@code dataNodes} starts now;
   * until the returned action runs (when it ends, however it ends; exactly once) it is
   * in flight, and a report while it has run for {@value #IN_FLIGHT_MIN_MILLIS} ms or
   * more counts it (see {@link #drain}). Null when not attributed
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
  List<ReadReport.Observation> drain(long nowNanos) {
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
}
