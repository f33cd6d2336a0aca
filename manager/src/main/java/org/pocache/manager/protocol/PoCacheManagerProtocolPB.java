package org.pocache.manager.protocol;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.pocache.manager.proto.PoCacheManagerProtos.PoCacheManagerProtocolService;

/** The protobuf face of the protocol, registered with Hadoop IPC. */
// The protocol name is a class name, as Hadoop's service authorization loads it to find the ACL.
@ProtocolInfo(protocolName = "org.pocache.manager.protocol.PoCacheManagerProtocol", protocolVersion = 1)
public interface PoCacheManagerProtocolPB extends PoCacheManagerProtocolService.BlockingInterface {
}
