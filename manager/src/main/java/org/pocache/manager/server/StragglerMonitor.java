package org.pocache.manager.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.function.LongSupplier;
import org.pocache.csac.detect.StragglerDetector;
import org.pocache.manager.protocol.PoCacheManagerProtocol.StragglerList;

/**
 * The Manager's straggler list: DataNode heartbeats and client observations feed
 * the configured detector; the list is what the detector says now. The detector
 * synchronizes on itself (its own state), so heartbeats from many RPC handler
 * threads and readers of the list are safe.
 */
public final class StragglerMonitor {
  /**
   * Client observations shorter than this are not timed: a few KB take a
   * millisecond or less, and TotalReadTime-like granularity would make noise.
   */
  public static final long MIN_CLIENT_SAMPLE_BYTES = 1 << 20;

  private final StragglerDetector detector;
  private final LongSupplier clock;

  public StragglerMonitor(StragglerDetector detector, LongSupplier clock) {
    this.detector = detector;
    this.clock = clock;
  }

  /** A DataNode plugin's interval. */
  public void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException {
    if (dataNode == null || dataNode.isEmpty()) {
      throw new IOException("heartbeat without a DataNode name");
    }
    report(dataNode, bytesRead, serviceMillis, "heartbeat");
  }

  /**
   * What a client saw one DataNode do during a read (network included). Folded
   * into the same per-DataNode rate as heartbeats: whichever is newer counts.
   */
  public void observe(String dataNode, long bytes, double millis) throws IOException {
    if (dataNode == null || dataNode.isEmpty()) {
      throw new IOException("read report names an empty DataNode");
    }
    if (bytes >= MIN_CLIENT_SAMPLE_BYTES || bytes < 0 || !(millis >= 0)) {
      report(dataNode, bytes, millis, "read report");
    }
  }

  private void report(String dataNode, long bytes, double millis, String what) throws IOException {
    try {
      detector.report(dataNode, bytes, millis, clock.getAsLong());
    } catch (IllegalArgumentException e) {
      throw new IOException("bad " + what + " from " + dataNode + ": " + e.getMessage(), e);
    }
  }

  public StragglerList getStragglers() {
    return new StragglerList(new ArrayList<>(detector.stragglers(clock.getAsLong())), detector.name());
  }
}
