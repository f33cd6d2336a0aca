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
 * A DataNode's read counters (BytesRead, TotalReadTime in ms, ReadBlockOpNumOps),
 * taken from its metrics2 source through the public MetricsCollector interface:
 * DataNodeMetrics has no public getters, and this avoids Hadoop's private
 * collector implementation.
 */
final class ReadCounters {
  final long bytesRead;
  final long readMillis;
  final long readOps;

  private ReadCounters(long bytesRead, long readMillis, long readOps) {
    this.bytesRead = bytesRead;
    this.readMillis = readMillis;
    this.readOps = readOps;
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
    return b == null || t == null || o == null ? null : new ReadCounters(b, t, o);
  }

  /** Keeps the numeric values by name, ignores tags. */
  private static final class Collector extends MetricsRecordBuilder implements MetricsCollector {
    final Map<String, Long> values = new HashMap<>();

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
      return this;
    }

    @Override
    public MetricsRecordBuilder addGauge(MetricsInfo info, double value) {
      return this;
    }

    @Override
    public MetricsCollector parent() {
      return this;
    }
  }
}
