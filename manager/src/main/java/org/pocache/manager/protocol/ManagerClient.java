package org.pocache.manager.protocol;

import com.google.protobuf.ServiceException;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtobufRpcEngine;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.pocache.manager.proto.PoCacheManagerProtos.GetStragglersRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.GetStragglersResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.HeartbeatRequestProto;

/**
 * A client of the Manager over Hadoop IPC. Every call is bounded by
 * {@code rpcTimeoutMillis}, so a missing Manager costs the caller at most that long.
 */
public final class ManagerClient implements PoCacheManagerProtocol, Closeable {
  private static final GetStragglersRequestProto STRAGGLERS = GetStragglersRequestProto.getDefaultInstance();
  private final PoCacheManagerProtocolPB proxy;

  public ManagerClient(InetSocketAddress address, Configuration conf, int rpcTimeoutMillis) throws IOException {
    Configuration c = new Configuration(conf);
    RPC.setProtocolEngine(c, PoCacheManagerProtocolPB.class, ProtobufRpcEngine.class);
    // Do not spend the timeout on reconnect attempts to a Manager that is not there.
    c.setInt("ipc.client.connect.max.retries", 0);
    c.setInt("ipc.client.connect.timeout", rpcTimeoutMillis);
    proxy = RPC.getProtocolProxy(PoCacheManagerProtocolPB.class, RPC.getProtocolVersion(PoCacheManagerProtocolPB.class),
        address, UserGroupInformation.getCurrentUser(), c, NetUtils.getDefaultSocketFactory(c), rpcTimeoutMillis, null)
        .getProxy();
  }

  @Override
  public void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException {
    try {
      proxy.heartbeat(null, HeartbeatRequestProto.newBuilder().setDataNode(dataNode).setBytesRead(bytesRead)
          .setServiceMillis(serviceMillis).setReadOps(readOps).build());
    } catch (ServiceException e) {
      throw unwrap(e);
    }
  }

  @Override
  public StragglerList getStragglers() throws IOException {
    try {
      GetStragglersResponseProto r = proxy.getStragglers(null, STRAGGLERS);
      return new StragglerList(new ArrayList<>(r.getDataNodesList()), r.getDetector());
    } catch (ServiceException e) {
      throw unwrap(e);
    }
  }

  private static IOException unwrap(ServiceException e) {
    Throwable c = e.getCause();
    if (c instanceof RemoteException) {
      return ((RemoteException) c).unwrapRemoteException();
    }
    return c instanceof IOException ? (IOException) c : new IOException(e);
  }

  @Override
  public void close() {
    RPC.stopProxy(proxy);
  }
}
