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
package org.pocache.manager.server;

import com.google.protobuf.BlockingService;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.pocache.manager.proto.PoCacheManagerProtos.PoCacheDataNodeProtocolService;
import org.pocache.manager.proto.PoCacheManagerProtos.PoCacheManagerProtocolService;
import org.pocache.manager.protocol.PoCacheDataNodeProtocolPB;
import org.pocache.manager.protocol.PoCacheManagerProtocol;
import org.pocache.manager.protocol.PoCacheManagerProtocolPB;
import org.pocache.manager.protocol.RpcEngines;
import org.pocache.manager.protocol.ServerSideTranslator;

/**
 * The Manager's Hadoop IPC server (protobuf engine, so SASL/Kerberos apply, and
 * with hadoop.security.authorization the service ACL of {@link ManagerPolicyProvider}).
 */
public final class ManagerRpcServer implements AutoCloseable {
  private final RPC.Server server;

  /**
   * Binds and starts serving {@code impl}.
   *
   * @param bind host:port to listen on (port 0: any free port)
   */
  public ManagerRpcServer(Configuration conf, InetSocketAddress bind, int handlers, PoCacheManagerProtocol impl)
      throws IOException {
    this(conf, bind, handlers, impl, null);
  }

  /**
   * @param tokens checks delegation tokens callers present (the NameNode's, for a Manager
   *     inside it), or null: Kerberos (or simple) authentication only
   */
  public ManagerRpcServer(Configuration conf, InetSocketAddress bind, int handlers, PoCacheManagerProtocol impl,
      SecretManager<? extends TokenIdentifier> tokens) throws IOException {
    Configuration c = new Configuration(conf);
    RPC.setProtocolEngine(c, PoCacheManagerProtocolPB.class, RpcEngines.protobuf());
    BlockingService service = PoCacheManagerProtocolService.newReflectiveBlockingService(
        new ServerSideTranslator(impl));
    server = new RPC.Builder(c).setProtocol(PoCacheManagerProtocolPB.class).setInstance(service)
        .setBindAddress(bind.getHostString()).setPort(bind.getPort()).setNumHandlers(handlers).setVerbose(false)
        .setSecretManager(tokens).build();
    RPC.setProtocolEngine(c, PoCacheDataNodeProtocolPB.class, RpcEngines.protobuf());
    server.addProtocol(RPC.RpcKind.RPC_PROTOCOL_BUFFER, PoCacheDataNodeProtocolPB.class,
        PoCacheDataNodeProtocolService.newReflectiveBlockingService(new ServerSideTranslator.DataNodes(impl)));
    if (c.getBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, false)) {
      server.refreshServiceAcl(c, new ManagerPolicyProvider());
    }
    // A standby's Manager refuses every call in an HA pair (clients move on): not worth a log line each.
    server.addSuppressedLoggingExceptions(org.apache.hadoop.ipc.StandbyException.class);
    server.start();
  }

  /** Where it listens. */
  public InetSocketAddress address() {
    return NetUtils.getConnectAddress(server);
  }

  @Override
  public void close() {
    server.stop();
  }
}
