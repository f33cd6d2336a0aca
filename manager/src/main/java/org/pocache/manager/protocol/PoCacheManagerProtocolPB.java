package org.pocache.manager.protocol;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.pocache.manager.proto.PoCacheManagerProtos.PoCacheManagerProtocolService;

/** The protobuf face of the protocol, registered with Hadoop IPC. */
@ProtocolInfo(protocolName = "org.pocache.manager.PoCacheManagerProtocol", protocolVersion = 1)
public interface PoCacheManagerProtocolPB extends PoCacheManagerProtocolService.BlockingInterface {
}
