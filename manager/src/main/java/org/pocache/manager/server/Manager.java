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

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.pocache.csac.detect.Detectors;
import org.pocache.csac.detect.StragglerDetector;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;

/**
 * The POCache Manager: the straggler list, the cache index with CSAC
 * ({@link CacheService}), served over Hadoop IPC, with a metrics2 source. Runs in
 * the NameNode (the plugin passes a {@link Namespace} over the NameNode's own RPC
 * server) or standalone (a Namespace over NameNode RPCs).
 */
public final class Manager implements AutoCloseable {
  private final StragglerMonitor stragglers;
  private final CacheService cache;
  private final ManagerRpcServer rpc;

  private Manager(StragglerMonitor stragglers, CacheService cache, ManagerRpcServer rpc) {
    this.stragglers = stragglers;
    this.cache = cache;
    this.rpc = rpc;
  }

  /**
   * Reads and validates the configuration, then starts the RPC server and the
   * housekeeping that connects to Redis (and keeps retrying while it cannot).
   *
   * @throws IllegalArgumentException naming a bad key
   */
  public static Manager start(Configuration conf, Namespace namespace) throws IOException {
    return start(conf, namespace, null);
  }

  /**
   * {@link #start(Configuration, Namespace)} that also accepts callers authenticated by
   * a delegation token {@code tokens} checks (tasks, which hold no Kerberos ticket).
   */
  public static Manager start(Configuration conf, Namespace namespace,
      org.apache.hadoop.security.token.SecretManager<? extends org.apache.hadoop.security.token.TokenIdentifier> tokens)
      throws IOException {
    return start(conf, namespace, tokens, () -> true);
  }

  /**
   * {@link #start(Configuration, Namespace, org.apache.hadoop.security.token.SecretManager)} for
   * a NameNode of an HA pair: the Manager serves, and changes Redis, only while
   * {@code activeNameNode} says its NameNode is active.
   */
  public static Manager start(Configuration conf, Namespace namespace,
      org.apache.hadoop.security.token.SecretManager<? extends org.apache.hadoop.security.token.TokenIdentifier> tokens,
      java.util.function.BooleanSupplier activeNameNode) throws IOException {
    int heartbeatInterval = PoCacheConfig.getInt(conf, PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_KEY,
        PoCacheConfigKeys.DATANODE_HEARTBEAT_INTERVAL_DEFAULT, 10, 3_600_000);
    StragglerMonitor monitor = new StragglerMonitor(newDetector(conf), () -> newDetector(conf), reportTtl(conf),
        heartbeatInterval, System::currentTimeMillis);
    InetSocketAddress bind = PoCacheConfig.getAddress(conf, PoCacheConfigKeys.MANAGER_ADDRESS_KEY,
        PoCacheConfigKeys.MANAGER_ADDRESS_DEFAULT);
    int handlers = PoCacheConfig.getInt(conf, PoCacheConfigKeys.MANAGER_HANDLERS_KEY,
        PoCacheConfigKeys.MANAGER_HANDLERS_DEFAULT, 1, 1024);
    int tick = PoCacheConfig.getInt(conf, PoCacheConfigKeys.MANAGER_TICK_KEY, PoCacheConfigKeys.MANAGER_TICK_DEFAULT,
        10, 3_600_000);
    CacheService cache = new CacheService(conf, namespace, monitor, System::currentTimeMillis);
    cache.followNameNode(activeNameNode);
    ParityFiller filler = null;
    ManagerRpcServer rpc = null;
    try {
      filler = newFiller(conf, cache);
      rpc = new ManagerRpcServer(conf, bind, handlers, cache, tokens);
      cache.start(tick, filler);
      return new Manager(monitor, cache, rpc);
    } catch (IOException | RuntimeException e) {
      if (rpc != null) {
        rpc.close();
      }
      cache.close();
      if (filler != null) {
        filler.close();
      }
      throw e;
    }
  }

  private static ParityFiller newFiller(Configuration conf, CacheService cache) {
    String name = conf.getTrimmed(PoCacheConfigKeys.MANAGER_FILLER_KEY, PoCacheConfigKeys.MANAGER_FILLER_DEFAULT);
    if (name.isEmpty()) {
      return null;
    }
    try {
      Class<? extends ParityFiller> c = conf.getClassByName(name).asSubclass(ParityFiller.class);
      Constructor<? extends ParityFiller> k = c.getConstructor(Configuration.class, CacheService.class);
      return k.newInstance(conf, cache);
    } catch (ClassNotFoundException | ClassCastException | NoSuchMethodException e) {
      throw new IllegalArgumentException(PoCacheConfigKeys.MANAGER_FILLER_KEY + " = " + name + ": not a ParityFiller"
          + " with a public (Configuration, CacheService) constructor: " + e, e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(PoCacheConfigKeys.MANAGER_FILLER_KEY + " = " + name
          + ": could not be created: " + e.getCause(), e);
    }
  }

  public InetSocketAddress address() {
    return rpc.address();
  }

  /** The configured straggler detector; a fresh instance per call. */
  private static StragglerDetector newDetector(Configuration conf) {
    return Detectors.create(PoCacheConfigKeys.STRAGGLER_DETECTOR_KEY,
        conf.getTrimmed(PoCacheConfigKeys.STRAGGLER_DETECTOR_KEY, PoCacheConfigKeys.STRAGGLER_DETECTOR_DEFAULT),
        PoCacheConfig.getInt(conf, PoCacheConfigKeys.STRAGGLER_MIN_SAMPLES_KEY,
            PoCacheConfigKeys.STRAGGLER_MIN_SAMPLES_DEFAULT, 2, 100_000),
        PoCacheConfig.getInt(conf, PoCacheConfigKeys.STRAGGLER_SAMPLE_TTL_KEY,
            PoCacheConfigKeys.STRAGGLER_SAMPLE_TTL_DEFAULT, 1, Integer.MAX_VALUE),
        reportTtl(conf),
        PoCacheConfig.getDouble(conf, PoCacheConfigKeys.STRAGGLER_MIN_FRACTION_KEY,
            PoCacheConfigKeys.STRAGGLER_MIN_FRACTION_DEFAULT, 0, 1));
  }

  private static int reportTtl(Configuration conf) {
    return PoCacheConfig.getInt(conf, PoCacheConfigKeys.STRAGGLER_REPORT_TTL_KEY,
        PoCacheConfigKeys.STRAGGLER_REPORT_TTL_DEFAULT, 1, Integer.MAX_VALUE);
  }

  public StragglerMonitor stragglers() {
    return stragglers;
  }

  public CacheService cache() {
    return cache;
  }

  @Override
  public void close() {
    rpc.close();
    cache.close();
  }

  /** The address clients and DataNodes should call: the configured one, with a wildcard host replaced. */
  public static InetSocketAddress connectAddress(Configuration conf, String namenodeHost) {
    return ManagerClient.connectAddress(conf, namenodeHost);
  }
}
