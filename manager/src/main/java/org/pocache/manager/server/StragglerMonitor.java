package org.pocache.manager.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.function.LongSupplier;
import org.pocache.csac.detect.StragglerDetector;
import org.pocache.manager.protocol.PoCacheManagerProtocol;

/**
 * The Manager's straggler list: DataNode heartbeats (and, later, client
 * observations) feed the configured detector; the list is what the detector says
 * now. The detector synchronizes on itself, so heartbeats from many RPC handler
 * threads and readers of the list are safe.
 */
public final class StragglerMonitor implements PoCacheManagerProtocol {
  private final StragglerDetector detector;
  private final LongSupplier clock;

  public StragglerMonitor(StragglerDetector detector, LongSupplier clock) {
    this.detector = detector;
    this.clock = clock;
  }

  @Override
  public void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException {
    if (dataNode == null || dataNode.isEmpty()) {
      throw new IOException("heartbeat without a DataNode name");
    }
    try {
      detector.report(dataNode, bytesRead, serviceMillis, clock.getAsLong());
    } catch (IllegalArgumentException e) {
      throw new IOException("bad heartbeat from " + dataNode + ": " + e.getMessage(), e);
    }
  }

  @Override
  public StragglerList getStragglers() {
    return new StragglerList(new ArrayList<>(detector.stragglers(clock.getAsLong())), detector.name());
  }
}
