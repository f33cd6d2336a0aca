package org.pocache.manager.protocol;

import com.google.protobuf.RpcController;
import com.google.protobuf.ServiceException;
import java.io.IOException;
import org.pocache.manager.proto.PoCacheManagerProtos.GetStragglersRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.GetStragglersResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.HeartbeatRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.HeartbeatResponseProto;

/** Protobuf requests in, {@link PoCacheManagerProtocol} calls out. */
public final class ServerSideTranslator implements PoCacheManagerProtocolPB {
  private static final HeartbeatResponseProto HEARTBEAT_OK = HeartbeatResponseProto.getDefaultInstance();
  private final PoCacheManagerProtocol impl;

  public ServerSideTranslator(PoCacheManagerProtocol impl) {
    this.impl = impl;
  }

  @Override
  public HeartbeatResponseProto heartbeat(RpcController c, HeartbeatRequestProto r) throws ServiceException {
    try {
      impl.heartbeat(r.getDataNode(), r.getBytesRead(), r.getServiceMillis(), r.getReadOps());
      return HEARTBEAT_OK;
    } catch (IOException | RuntimeException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public GetStragglersResponseProto getStragglers(RpcController c, GetStragglersRequestProto r)
      throws ServiceException {
    try {
      PoCacheManagerProtocol.StragglerList s = impl.getStragglers();
      return GetStragglersResponseProto.newBuilder().addAllDataNodes(s.dataNodes).setDetector(s.detector).build();
    } catch (IOException | RuntimeException e) {
      throw new ServiceException(e);
    }
  }
}
