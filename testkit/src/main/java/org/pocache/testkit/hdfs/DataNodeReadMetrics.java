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
package org.pocache.testkit.hdfs;

import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * The read counters of a DataNode, taken from its metrics2 source (DataNodeMetrics
 * has no public getters). {@code TotalReadTime} is the time DataXceiver spent in
 * {@code sendBlock}, so bytes / time is the DataNode's service rate as the
 * POCache DataNode plugin will see it.
 */
public final class DataNodeReadMetrics {
  /** One reading of the counters. */
  public static final class Snapshot {
    public final long bytesRead;
    public final long totalReadTimeMillis;
    public final long readBlockOps;

    Snapshot(long bytesRead, long totalReadTimeMillis, long readBlockOps) {
      this.bytesRead = bytesRead;
      this.totalReadTimeMillis = totalReadTimeMillis;
      this.readBlockOps = readBlockOps;
    }

    /** The counters accumulated since {@code earlier}. */
    public Snapshot minus(Snapshot earlier) {
      return new Snapshot(bytesRead - earlier.bytesRead,
          totalReadTimeMillis - earlier.totalReadTimeMillis, readBlockOps - earlier.readBlockOps);
    }

    /** Bytes served per second of service time; NaN when nothing was timed. */
    public double serviceRateBytesPerSecond() {
      return totalReadTimeMillis <= 0 ? Double.NaN : bytesRead * 1000.0 / totalReadTimeMillis;
    }

    @Override
    public String toString() {
      return "bytesRead=" + bytesRead + " totalReadTimeMs=" + totalReadTimeMillis
          + " readBlockOps=" + readBlockOps;
    }
  }

  private DataNodeReadMetrics() {
  }

  /**
   * Waits until {@code dn} has served at least {@code bytes} since {@code since} and
   * returns the counters accumulated since then. DataXceiver updates its counters
   * only after the client acknowledged the read, so a client that has its bytes may
   * still see the old values for a moment. BytesRead also counts checksum bytes, and
   * a read the client hangs up on early counts an op but no bytes.
   *
   * @throws IllegalStateException naming the shortfall if that does not happen within the timeout
   */
  public static Snapshot awaitBytesRead(DataNode dn, Snapshot since, long bytes, long timeoutMillis) {
    return await(dn, since, timeoutMillis, d -> d.bytesRead >= bytes, "at least " + bytes + " bytes");
  }

  /** Like {@link #awaitBytesRead} for the number of block read operations. */
  public static Snapshot awaitReadOps(DataNode dn, Snapshot since, long ops, long timeoutMillis) {
    return await(dn, since, timeoutMillis, d -> d.readBlockOps >= ops, "at least " + ops + " read ops");
  }

  private static Snapshot await(DataNode dn, Snapshot since, long timeoutMillis,
      java.util.function.Predicate<Snapshot> done, String what) {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    while (true) {
      Snapshot delta = of(dn).minus(since);
      if (done.test(delta)) {
        return delta;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException("DataNode " + dn.getDisplayName() + " served " + delta
            + " within " + timeoutMillis + " ms, expected " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  public static Snapshot of(DataNode dn) {
    MetricsSource source = DefaultMetricsSystem.instance().getSource(dn.getMetrics().name());
    if (source == null) {
      throw new IllegalStateException("no metrics source " + dn.getMetrics().name());
    }
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    source.getMetrics(collector, true);
    long bytes = -1;
    long time = -1;
    long ops = -1;
    for (MetricsRecord r : collector.getRecords()) {
      for (AbstractMetric m : r.metrics()) {
        switch (m.name()) {
          case "BytesRead":
            bytes = m.value().longValue();
            break;
          case "TotalReadTime":
            time = m.value().longValue();
            break;
          case "ReadBlockOpNumOps":
            ops = m.value().longValue();
            break;
          default:
            break;
        }
      }
    }
    if (bytes < 0 || time < 0 || ops < 0) {
      throw new IllegalStateException("DataNode metrics lack BytesRead/TotalReadTime/ReadBlockOpNumOps");
    }
    return new Snapshot(bytes, time, ops);
  }
}
