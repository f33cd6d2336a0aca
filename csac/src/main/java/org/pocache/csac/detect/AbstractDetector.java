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
package org.pocache.csac.detect;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Sample bookkeeping shared by the detectors: the latest rate of each DataNode
 * (a sample older than {@code sampleTtlMillis} no longer flags or clears its
 * DataNode, but stays the reference its DataNode sets for the others until
 * {@code reportTtlMillis}: a DataNode nobody reads from still serves as fast as it
 * did, and when every reader is stuck on a straggler the others go quiet; judged
 * against no one, the straggler would be cleared), a minimum number of
 * fresh samples before anything is flagged, and report expiry: a flagged DataNode
 * stays on the list until a fresh sample clears it or {@code reportTtlMillis}
 * pass without it being flagged again, so a report that is never refreshed (a
 * DataNode that went quiet) cannot stay on the list forever.
 */
abstract class AbstractDetector implements StragglerDetector {
  private static final class Sample {
    final double rate;
    final long at;

    Sample(double rate, long at) {
      this.rate = rate;
      this.at = at;
    }
  }

  private final int minSamples;
  private final long sampleTtlMillis;
  private final long reportTtlMillis;
  private final Map<String, Sample> latest = new HashMap<>();
  private final Map<String, Long> flaggedAt = new HashMap<>();

  AbstractDetector(int minSamples, long sampleTtlMillis, long reportTtlMillis) {
    if (minSamples < 2) {
      throw new IllegalArgumentException("minimum samples must be >= 2, got " + minSamples);
    }
    if (sampleTtlMillis <= 0 || reportTtlMillis <= 0) {
      throw new IllegalArgumentException("sample and report expiry must be > 0 ms, got " + sampleTtlMillis
          + " and " + reportTtlMillis);
    }
    this.minSamples = minSamples;
    this.sampleTtlMillis = sampleTtlMillis;
    this.reportTtlMillis = reportTtlMillis;
  }

  /** No DataNode serves faster than this (1 TB/s): a report claiming more is made up. */
  static final double MAX_RATE = 1e12;

  @Override
  public synchronized void report(String dataNode, long bytes, double serviceMillis, long nowMillis) {
    if (dataNode == null) {
      throw new IllegalArgumentException("dataNode is null");
    }
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes served by " + dataNode + " must be >= 0, got " + bytes);
    }
    if (!(serviceMillis >= 0) || Double.isInfinite(serviceMillis)) {
      throw new IllegalArgumentException("service time of " + dataNode + " must be a finite number >= 0 ms, got "
          + serviceMillis);
    }
    if (bytes == 0 || serviceMillis == 0) {
      return; // served nothing this interval: no evidence either way
    }
    double rate = bytes / (serviceMillis / 1000.0);
    if (!(rate <= MAX_RATE)) {
      throw new IllegalArgumentException(dataNode + " cannot have served " + bytes + " bytes in " + serviceMillis
          + " ms: faster than " + (long) MAX_RATE + " bytes/s");
    }
    latest.put(dataNode, new Sample(rate, nowMillis));
  }

  @Override
  public synchronized Set<String> stragglers(long nowMillis) {
    List<String> names = new ArrayList<>();
    List<Double> rates = new ArrayList<>();
    List<Boolean> fresh = new ArrayList<>();
    for (Iterator<Map.Entry<String, Sample>> it = latest.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Sample> e = it.next();
      long age = nowMillis - e.getValue().at;
      if (age > referenceTtlMillis()) {
        it.remove();
      } else {
        names.add(e.getKey());
        rates.add(e.getValue().rate);
        fresh.add(age <= sampleTtlMillis);
      }
    }
    if (names.size() >= minSamples) {
      double[] r = new double[rates.size()];
      for (int i = 0; i < r.length; i++) {
        r[i] = rates.get(i);
      }
      boolean[] slow = flag(r);
      for (int i = 0; i < slow.length; i++) {
        if (!fresh.get(i)) {
          continue; // a reference for the others only
        } else if (slow[i]) {
          flaggedAt.put(names.get(i), nowMillis);
        } else {
          flaggedAt.remove(names.get(i)); // a fresh, normal sample clears a report
        }
      }
    }
    flaggedAt.values().removeIf(at -> nowMillis - at > reportTtlMillis);
    return flaggedAt.isEmpty() ? Collections.<String>emptySet()
        : Collections.unmodifiableSet(new TreeSet<>(flaggedAt.keySet()));
  }

  @Override
  public synchronized double rateOverPeers(String dataNode, long nowMillis) {
    Sample own = latest.get(dataNode);
    if (own == null || nowMillis - own.at > sampleTtlMillis) {
      return Double.NaN;
    }
    List<Double> others = new ArrayList<>();
    for (Map.Entry<String, Sample> e : latest.entrySet()) {
      if (!e.getKey().equals(dataNode) && nowMillis - e.getValue().at <= referenceTtlMillis()) {
        others.add(e.getValue().rate);
      }
    }
    if (others.size() + 1 < minSamples) {
      return Double.NaN;
    }
    Collections.sort(others);
    int n = others.size();
    double median = n % 2 == 1 ? others.get(n / 2) : (others.get(n / 2 - 1) + others.get(n / 2)) / 2;
    return own.rate / median;
  }

  /** How long a DataNode's newest sample stays a reference for the others. */
  private long referenceTtlMillis() {
    return Math.max(sampleTtlMillis, reportTtlMillis);
  }

  /** Which of the rates are stragglers. */
  abstract boolean[] flag(double[] rates);
}
