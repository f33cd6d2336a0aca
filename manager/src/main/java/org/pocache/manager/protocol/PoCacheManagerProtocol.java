package org.pocache.manager.protocol;

import java.io.IOException;
import java.util.List;

/**
 * What the Manager answers, independent of the wire format. Callers reach it
 * through {@link ManagerClient} (Hadoop IPC + protobuf); the NameNode plugin
 * serves it through {@link org.pocache.manager.server.ManagerRpcServer}.
 */
public interface PoCacheManagerProtocol {
  /**
   * One interval of a DataNode's reads, from its POCache plugin.
   *
   * @param dataNode the DataNode's transfer address, host:port, as in block locations
   * @throws IOException if the Manager refuses the sample (it names what was wrong)
   */
  void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException;

  /** The current straggler list and the detector that produced it. */
  StragglerList getStragglers() throws IOException;

  /** A straggler list as the Manager reports it. */
  final class StragglerList {
    public final List<String> dataNodes;
    public final String detector;

    public StragglerList(List<String> dataNodes, String detector) {
      this.dataNodes = dataNodes;
      this.detector = detector;
    }
  }
}
