package org.pocache.manager.protocol;

import java.io.IOException;

/**
 * What DataNodes call on the Manager: their heartbeat. A protocol of its own (Hadoop
 * IPC protocol name = this interface's class name), so that service-level
 * authorization can give it an ACL of its own, {@code security.pocache.datanode.protocol.acl}.
 */
public interface PoCacheDataNodeProtocol {
  /** One interval of a DataNode: bytes it served, their service time, read ops. */
  void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException;
}
