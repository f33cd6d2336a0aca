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
package org.pocache.hdfs.datanode;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsTag;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * A DataNode's read counters, taken from its metrics2 source through the public
 * MetricsCollector interface (DataNodeMetrics has no public getters, and this avoids
 * Hadoop's private collector implementation): BytesRead, TotalReadTime in ms and
 * ReadBlockOpNumOps, which move when a block read ends; and the packets sent by
 * {@code transferTo} with the mean time each took, waiting for the socket and
 * transferring (SendDataPacketBlockedOnNetworkNanos and SendDataPacketTransferNanos),
 * which move with every 64 KB packet, so a read that takes a minute shows its pace
 * while it runs.
 *
 * <p>The means are those of the packets since the source's previous snapshot, and
 * reading them takes a snapshot (as a metrics sink or a JMX read does).
 */
final class ReadCounters {
  /** Data bytes in one transferTo packet (BlockSender's TRANSFERTO_BUFFER_SIZE at 512-byte chunks). */
  static final long PACKET_BYTES = 64 << 10;

  final long bytesRead;
  final long readMillis;
  final long readOps;
  /** Packets sent with transferTo so far; -1 if the DataNode does not publish them. */
  final long packets;
  /** Mean nanoseconds per packet (waiting plus transferring) since the previous snapshot. */
  final double nanosPerPacket;

  private ReadCounters(long bytesRead, long readMillis, long readOps, long packets, double nanosPerPacket) {
    this.bytesRead = bytesRead;
    this.readMillis = readMillis;
    this.readOps = readOps;
    this.packets = packets;
    this.nanosPerPacket = nanosPerPacket;
  }

  /** The counters now, or null if the source is not registered (yet). */
  static ReadCounters read(String sourceName) {
    MetricsSource source = DefaultMetricsSystem.instance().getSource(sourceName);
    if (source == null) {
      return null;
    }
    Collector c = new Collector();
    source.getMetrics(c, true);
    Long b = c.values.get("BytesRead");
    Long t = c.values.get("TotalReadTime");
    Long o = c.values.get("ReadBlockOpNumOps");
    if (b == null || t == null || o == null) {
      return null;
    }
    Long n = c.values.get("SendDataPacketTransferNanosNumOps");
    Double transfer = c.doubles.get("SendDataPacketTransferNanosAvgTime");
    Double wait = c.doubles.get("SendDataPacketBlockedOnNetworkNanosAvgTime");
    boolean havePackets = n != null && transfer != null && wait != null;
    return new ReadCounters(b, t, o, havePackets ? n : -1, havePackets ? transfer + wait : 0);
  }

  /** Keeps the numeric values by name, ignores tags. */
  private static final class Collector extends MetricsRecordBuilder implements MetricsCollector {
    final Map<String, Long> values = new HashMap<>();
    final Map<String, Double> doubles = new HashMap<>();

    @Override
    public MetricsRecordBuilder addRecord(String name) {
      return this;
    }

    @Override
    public MetricsRecordBuilder addRecord(MetricsInfo info) {
      return this;
    }

    @Override
    public MetricsRecordBuilder tag(MetricsInfo info, String value) {
      return this;
    }

    @Override
    public MetricsRecordBuilder add(MetricsTag tag) {
      return this;
    }

    @Override
    public MetricsRecordBuilder add(AbstractMetric metric) {
      values.put(metric.name(), metric.value().longValue());
      return this;
    }

    @Override
    public MetricsRecordBuilder setContext(String value) {
      return this;
    }

    @Override
    public MetricsRecordBuilder addCounter(MetricsInfo info, int value) {
      values.put(info.name(), (long) value);
      return this;
    }

    @Override
    public MetricsRecordBuilder addCounter(MetricsInfo info, long value) {
      values.put(info.name(), value);
      return this;
    }

    @Override
    public MetricsRecordBuilder addGauge(MetricsInfo info, int value) {
      values.put(info.name(), (long) value);
      return this;
    }

    @Override
    public MetricsRecordBuilder addGauge(MetricsInfo info, long value) {
      values.put(info.name(), value);
      return this;
    }

    @Override
    public MetricsRecordBuilder addGauge(MetricsInfo info, float value) {
      doubles.put(info.name(), (double) value);
      return this;
    }

    @Override
    public MetricsRecordBuilder addGauge(MetricsInfo info, double value) {
      doubles.put(info.name(), value);
      return this;
    }

    @Override
    public MetricsCollector parent() {
      return this;
    }
  }
}
