package org.pocache.manager.protocol;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.pocache.manager.proto.PoCacheManagerProtos.PoCacheDataNodeProtocolService;

/** The protobuf face of {@link PoCacheDataNodeProtocol}, registered with Hadoop IPC. */
@ProtocolInfo(protocolName = "org.pocache.manager.protocol.PoCacheDataNodeProtocol", protocolVersion = 1)
public interface PoCacheDataNodeProtocolPB extends PoCacheDataNodeProtocolService.BlockingInterface {
}
