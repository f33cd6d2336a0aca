/*
 * Copyright 2026 the POCache for HDFS authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.pocache.manager.protocol;

import com.google.protobuf.RpcController;
import com.google.protobuf.ServiceException;
import java.io.IOException;
import org.pocache.manager.proto.PoCacheManagerProtos.AbortRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.AdmitWriteRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.AdmitWriteResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.CommitRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.EmptyProto;
import org.pocache.manager.proto.PoCacheManagerProtos.GetDescriptorRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.GetDescriptorResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.GetStragglersResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.HeartbeatRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ListCachedRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ListCachedResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.PathRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.PathResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReportProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReportReadRequestProto;

/**
 * Protobuf requests in, {@link PoCacheManagerProtocol} calls out. Exceptions travel
 * back to the caller as Hadoop RemoteExceptions of the same class and message.
 */
public final class ServerSideTranslator implements PoCacheManagerProtocolPB {
  private static final EmptyProto EMPTY = EmptyProto.getDefaultInstance();
  private final PoCacheManagerProtocol impl;

  public ServerSideTranslator(PoCacheManagerProtocol impl) {
    this.impl = impl;
  }

  private interface Call<T> {
    T run() throws IOException;
  }

  private static <T> T serve(Call<T> c) throws ServiceException {
    try {
      return c.run();
    } catch (IOException e) {
      throw new ServiceException(e);
    } catch (IllegalArgumentException | IllegalStateException e) {
      // Bad arguments reach the caller as IOExceptions with the same message.
      throw new ServiceException(new IOException(e.getMessage(), e));
    }
  }

  /** The DataNodes' protocol, served by the same implementation. */
  public static final class DataNodes implements PoCacheDataNodeProtocolPB {
    private final PoCacheDataNodeProtocol impl;

    public DataNodes(PoCacheDataNodeProtocol impl) {
      this.impl = impl;
    }

    @Override
    public EmptyProto heartbeat(RpcController c, HeartbeatRequestProto r) throws ServiceException {
      return serve(() -> {
        impl.heartbeat(r.getDataNode(), r.getBytesRead(), r.getServiceMillis(), r.getReadOps());
        return EMPTY;
      });
    }
  }

  @Override
  public GetStragglersResponseProto getStragglers(RpcController c, EmptyProto r) throws ServiceException {
    return serve(() -> {
      PoCacheManagerProtocol.StragglerList s = impl.getStragglers();
      return GetStragglersResponseProto.newBuilder().addAllDataNodes(s.dataNodes).setDetector(s.detector)
          .addAllByHeartbeats(s.byHeartbeats).addAllByClientReads(s.byClientReads).build();
    });
  }

  @Override
  public GetDescriptorResponseProto getParityDescriptor(RpcController c, GetDescriptorRequestProto r)
      throws ServiceException {
    return serve(() -> ProtoTranslation.toProto(impl.getDescriptor(r.getPath(), r.getReaderFills())));
  }

  @Override
  public AdmitWriteResponseProto admitWrite(RpcController c, AdmitWriteRequestProto r) throws ServiceException {
    return serve(() -> ProtoTranslation.toProto(impl.admitWrite(r.getPath(), r.getExpectedMaxBytes())));
  }

  @Override
  public EmptyProto commit(RpcController c, CommitRequestProto r) throws ServiceException {
    return serve(() -> {
      impl.commit(r.getReservationId(), r.getFileId(), r.getLength(), r.getParityBytes(),
          r.getValueDigests().toByteArray());
      return EMPTY;
    });
  }

  @Override
  public EmptyProto abort(RpcController c, AbortRequestProto r) throws ServiceException {
    return serve(() -> {
      impl.abort(r.getReservationId(), r.getReason());
      return EMPTY;
    });
  }

  @Override
  public EmptyProto reportRead(RpcController c, ReportReadRequestProto r) throws ServiceException {
    return serve(() -> {
      impl.reportRead(ProtoTranslation.fromProto(r));
      return EMPTY;
    });
  }

  @Override
  public ReportProto getReport(RpcController c, EmptyProto r) throws ServiceException {
    return serve(() -> ProtoTranslation.toProto(impl.getReport()));
  }

  @Override
  public ListCachedResponseProto listCached(RpcController c, ListCachedRequestProto r) throws ServiceException {
    return serve(() -> ProtoTranslation.toProto(impl.listCached(r.getPathPrefix(), r.getLimit())));
  }

  @Override
  public PathResponseProto forgetDeleted(RpcController c, PathRequestProto r) throws ServiceException {
    return serve(() -> PathResponseProto.newBuilder().setOutcome(impl.forgetDeleted(r.getPath())).build());
  }

  @Override
  public PathResponseProto evict(RpcController c, PathRequestProto r) throws ServiceException {
    return serve(() -> PathResponseProto.newBuilder().setOutcome(impl.evict(r.getPath())).build());
  }

  @Override
  public PathResponseProto prefetch(RpcController c, PathRequestProto r) throws ServiceException {
    return serve(() -> PathResponseProto.newBuilder().setOutcome(impl.prefetch(r.getPath())).build());
  }
}
