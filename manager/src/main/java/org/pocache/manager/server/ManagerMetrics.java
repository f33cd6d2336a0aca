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

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableRate;

/**
 * The Manager's metrics2 source, "PoCacheManager": inside the NameNode it shows in
 * {@code /jmx} as {@code Hadoop:service=NameNode,name=PoCacheManager}. Counters are
 * cumulative since the Manager started; gauges are read when the source is polled.
 */
public final class ManagerMetrics implements MetricsSource {
  public static final String SOURCE_NAME = "PoCacheManager";

  /** A point-in-time view of the cache, taken under the Manager's state lock. */
  public static final class Gauges {
    public final long capacity;
    public final long used;
    public final int filesCached;
    public final int reservations;
    public final String stragglers;
    public final int stragglerCount;
    public final boolean redisHealthy;

    public Gauges(long capacity, long used, int filesCached, int reservations, String stragglers,
        int stragglerCount, boolean redisHealthy) {
      this.capacity = capacity;
      this.used = used;
      this.filesCached = filesCached;
      this.reservations = reservations;
      this.stragglers = stragglers;
      this.stragglerCount = stragglerCount;
      this.redisHealthy = redisHealthy;
    }
  }

  final AtomicLong hits = new AtomicLong();
  final AtomicLong misses = new AtomicLong();
  final AtomicLong stragglerHits = new AtomicLong();
  final AtomicLong admissions = new AtomicLong();
  final AtomicLong refusedAdmissions = new AtomicLong();
  final AtomicLong evictions = new AtomicLong();
  final AtomicLong prefetches = new AtomicLong();
  final AtomicLong fills = new AtomicLong();
  final AtomicLong failedFills = new AtomicLong();
  final AtomicLong expiredReservations = new AtomicLong();
  final AtomicLong invalidations = new AtomicLong();
  final AtomicLong parityFaults = new AtomicLong();
  /** Reports of bad protected parity the Manager checked by reading the values back. */
  final AtomicLong parityChecks = new AtomicLong();

  /** Reported faults of protected parity the Manager has checked so far. */
  public long parityChecks() {
    return parityChecks.get();
  }
  final AtomicLong redisRestarts = new AtomicLong();
  final AtomicLong redisFailures = new AtomicLong();
  final AtomicLong failedDeletes = new AtomicLong();
  final AtomicLong clientObservations = new AtomicLong();
  final AtomicLong heartbeats = new AtomicLong();

  private final MetricsRegistry registry = new MetricsRegistry(SOURCE_NAME);
  private final MutableRate lookupLatency = registry.newRate("GetDescriptor", "descriptor lookups (microseconds)",
      false);
  private final MutableRate rpcLatency = registry.newRate("OtherRpc",
      "other client RPCs: admit, commit, abort, read reports (microseconds)", false);
  private final Supplier<Gauges> gauges;
  private volatile boolean registered;

  ManagerMetrics(Supplier<Gauges> gauges) {
    this.gauges = gauges;
  }

  void lookup(long nanos) {
    lookupLatency.add(nanos / 1000);
  }

  void rpc(long nanos) {
    rpcLatency.add(nanos / 1000);
  }

  /** Registers with the process's metrics system (the NameNode's when in the plugin). */
  void register() {
    MetricsSystem ms = DefaultMetricsSystem.instance();
    if (ms.getSource(SOURCE_NAME) != null) {
      ms.unregisterSource(SOURCE_NAME); // a Manager restarted in the same process
    }
    ms.register(SOURCE_NAME, "POCache Manager: parity cache and straggler list", this);
    registered = true;
  }

  void unregister() {
    if (registered) {
      registered = false;
      DefaultMetricsSystem.instance().unregisterSource(SOURCE_NAME);
    }
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    Gauges g = gauges.get();
    MetricsRecordBuilder b = collector.addRecord(SOURCE_NAME).setContext("pocache")
        .tag(Interns.info("Stragglers", "DataNodes on the straggler list"), g.stragglers)
        .addGauge(Interns.info("CapacityBytes", "parity bytes the cache may hold"), g.capacity)
        .addGauge(Interns.info("UsedBytes", "parity bytes cached or reserved"), g.used)
        .addGauge(Interns.info("FilesCached", "files with parity cached, reserved or filling"), g.filesCached)
        .addGauge(Interns.info("Reservations", "open write reservations and fills"), g.reservations)
        .addGauge(Interns.info("StragglerCount", "DataNodes on the straggler list"), g.stragglerCount)
        .addGauge(Interns.info("RedisHealthy", "1 when Redis answers and the index is valid"), g.redisHealthy ? 1 : 0)
        .addCounter(Interns.info("Hits", "opens that got a descriptor"), hits.get())
        .addCounter(Interns.info("Misses", "opens that got none"), misses.get())
        .addCounter(Interns.info("StragglerHits", "reads where parity replaced a late piece"), stragglerHits.get())
        .addCounter(Interns.info("ClientObservations", "per-DataNode read times clients reported"),
            clientObservations.get())
        .addCounter(Interns.info("Heartbeats", "DataNode heartbeats taken"), heartbeats.get())
        .addCounter(Interns.info("Admissions", "write reservations and fills granted"), admissions.get())
        .addCounter(Interns.info("RefusedAdmissions", "write admissions refused"), refusedAdmissions.get())
        .addCounter(Interns.info("Evictions", "files evicted"), evictions.get())
        .addCounter(Interns.info("Prefetches", "prefetch fills started"), prefetches.get())
        .addCounter(Interns.info("Fills", "fills started (admit-on-read and prefetch)"), fills.get())
        .addCounter(Interns.info("FailedFills", "fills aborted, refused or expired"), failedFills.get())
        .addCounter(Interns.info("ExpiredReservations", "reservations that expired"), expiredReservations.get())
        .addCounter(Interns.info("Invalidations", "entries dropped as stale (file changed, Redis restarted)"),
            invalidations.get())
        .addCounter(Interns.info("ParityFaults", "reads that found parity missing or corrupt"), parityFaults.get())
        .addCounter(Interns.info("ParityChecks", "reported faults the Manager checked by reading the parity back"),
            parityChecks.get())
        .addCounter(Interns.info("RedisRestarts", "Redis restarts seen (index invalidated)"), redisRestarts.get())
        .addCounter(Interns.info("RedisFailures", "failed Redis calls of the Manager"), redisFailures.get())
        .addCounter(Interns.info("FailedDeletes", "key deletions that failed (retried)"), failedDeletes.get());
    registry.snapshot(b, all);
  }
}
