package org.pocache.manager.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.pocache.csac.detect.Detectors;
import org.pocache.csac.detect.StragglerDetector;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;

/**
 * The POCache Manager: for now the straggler list fed by DataNode heartbeats,
 * served over Hadoop IPC. (The cache index, reservations and CSAC wiring come
 * with the rest of [5/6].)
 */
public final class Manager implements AutoCloseable {
  private final StragglerMonitor stragglers;
  private final ManagerRpcServer rpc;

  private Manager(StragglerMonitor stragglers, ManagerRpcServer rpc) {
    this.stragglers = stragglers;
    this.rpc = rpc;
  }

  /**
   * Reads and validates the configuration, then starts the RPC server.
   *
   * @throws IllegalArgumentException naming a bad key
   */
  public static Manager start(Configuration conf) throws IOException {
    PoCacheConfig.init();
    StragglerDetector detector = Detectors.create(PoCacheConfigKeys.STRAGGLER_DETECTOR_KEY,
        conf.getTrimmed(PoCacheConfigKeys.STRAGGLER_DETECTOR_KEY, PoCacheConfigKeys.STRAGGLER_DETECTOR_DEFAULT),
        PoCacheConfig.getInt(conf, PoCacheConfigKeys.STRAGGLER_MIN_SAMPLES_KEY,
            PoCacheConfigKeys.STRAGGLER_MIN_SAMPLES_DEFAULT, 2, 100_000),
        PoCacheConfig.getInt(conf, PoCacheConfigKeys.STRAGGLER_SAMPLE_TTL_KEY,
            PoCacheConfigKeys.STRAGGLER_SAMPLE_TTL_DEFAULT, 1, Integer.MAX_VALUE),
        PoCacheConfig.getInt(conf, PoCacheConfigKeys.STRAGGLER_REPORT_TTL_KEY,
            PoCacheConfigKeys.STRAGGLER_REPORT_TTL_DEFAULT, 1, Integer.MAX_VALUE),
        PoCacheConfig.getDouble(conf, PoCacheConfigKeys.STRAGGLER_MIN_FRACTION_KEY,
            PoCacheConfigKeys.STRAGGLER_MIN_FRACTION_DEFAULT, 0, 1));
    StragglerMonitor monitor = new StragglerMonitor(detector, System::currentTimeMillis);
    InetSocketAddress bind = PoCacheConfig.getAddress(conf, PoCacheConfigKeys.MANAGER_ADDRESS_KEY,
        PoCacheConfigKeys.MANAGER_ADDRESS_DEFAULT);
    int handlers = PoCacheConfig.getInt(conf, PoCacheConfigKeys.MANAGER_HANDLERS_KEY,
        PoCacheConfigKeys.MANAGER_HANDLERS_DEFAULT, 1, 1024);
    return new Manager(monitor, new ManagerRpcServer(conf, bind, handlers, monitor));
  }

  public InetSocketAddress address() {
    return rpc.address();
  }

  public StragglerMonitor stragglers() {
    return stragglers;
  }

  @Override
  public void close() {
    rpc.close();
  }

  /** The address clients and DataNodes should call: the configured one, with a wildcard host replaced. */
  public static InetSocketAddress connectAddress(Configuration conf, String namenodeHost) {
    InetSocketAddress a = PoCacheConfig.getAddress(conf, PoCacheConfigKeys.MANAGER_ADDRESS_KEY,
        PoCacheConfigKeys.MANAGER_ADDRESS_DEFAULT);
    String host = a.getHostString();
    if (host.equals("0.0.0.0") || host.equals("::")) {
      host = namenodeHost;
    }
    return NetUtils.createSocketAddr(host, a.getPort());
  }
}
