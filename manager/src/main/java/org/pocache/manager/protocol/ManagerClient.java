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

import com.google.protobuf.ServiceException;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.pocache.cache.CircuitBreaker;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.proto.PoCacheManagerProtos.AbortRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.AdmitWriteRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.CommitRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.EmptyProto;
import org.pocache.manager.proto.PoCacheManagerProtos.GetDescriptorRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.GetStragglersResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.HeartbeatRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ListCachedRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.PathRequestProto;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of the Manager over Hadoop IPC, as the user current when it was made.
 * Every call is bounded by {@code rpcTimeoutMillis} (connect and answer), so a
 * missing or hung Manager costs the caller at most about that long; and after a
 * call the Manager did not answer, calls fail at once with
 * {@link ManagerUnavailableException} for {@code dfs.pocache.manager.breaker.open.ms},
 * then one call tries again, so a dead Manager costs one timeout per period, not one
 * per open or write. An error the Manager answered with (a refusal) is not a failure
 * of the Manager. The first failure of a period is logged at WARN (at most once a
 * minute), naming the address and the key that sets it.
 */
public final class ManagerClient implements PoCacheManagerProtocol, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ManagerClient.class);
  private static final EmptyProto EMPTY = EmptyProto.getDefaultInstance();
  private static final long WARN_EVERY_MILLIS = 60_000;
  /** The Managers that may serve, one per NameNode of the nameservice (one outside HA). */
  private final Target[] targets;
  /** The target that answered last (the active NameNode's Manager, in an HA pair). */
  private volatile int current;
  private final AtomicLong failedLookups = new AtomicLong();
  /** Calls not made because the breaker was open. */
  private final AtomicLong skippedCalls = new AtomicLong();
  /** Calls the Manager did not answer (timeouts, refused connections). */
  private final AtomicLong unanswered = new AtomicLong();
  /** Calls every Manager answered as standby. */
  private final AtomicLong standbyAnswers = new AtomicLong();
  /** Times a call moved on to another Manager of the pair. */
  private final AtomicLong failovers = new AtomicLong();
  private final CircuitBreaker breaker;
  private final long breakerOpenMillis;
  private volatile long lastWarning = Long.MIN_VALUE / 2;
  private final UserGroupInformation user;
  private final Configuration rpcConf;
  private final int rpcTimeoutMillis;

  /** One Manager: its address and proxies. */
  private final class Target {
    final InetSocketAddress address;
    final PoCacheManagerProtocolPB proxy;
    /** The DataNodes' protocol, made on a DataNode's first heartbeat (clients never need it). */
    private PoCacheDataNodeProtocolPB dataNodeProxy;

    Target(InetSocketAddress address) throws IOException {
      this.address = address;
      this.proxy = RPC.getProtocolProxy(PoCacheManagerProtocolPB.class,
          RPC.getProtocolVersion(PoCacheManagerProtocolPB.class), address, user, rpcConf,
          NetUtils.getDefaultSocketFactory(rpcConf), rpcTimeoutMillis, null).getProxy();
    }

    synchronized PoCacheDataNodeProtocolPB dataNodeProxy() throws IOException {
      if (dataNodeProxy == null) {
        dataNodeProxy = RPC.getProtocolProxy(PoCacheDataNodeProtocolPB.class,
            RPC.getProtocolVersion(PoCacheDataNodeProtocolPB.class), address, user, rpcConf,
            NetUtils.getDefaultSocketFactory(rpcConf), rpcTimeoutMillis, null).getProxy();
      }
      return dataNodeProxy;
    }

    synchronized void close() {
      RPC.stopProxy(proxy);
      if (dataNodeProxy != null) {
        RPC.stopProxy(dataNodeProxy);
      }
    }
  }

  public ManagerClient(InetSocketAddress address, Configuration conf, int rpcTimeoutMillis) throws IOException {
    this(java.util.Collections.singletonList(address), conf, rpcTimeoutMillis);
  }

  /**
   * A client of the Managers at {@code addresses} (the NameNodes of one nameservice, in
   * order): calls go to the one that answered last; one that answers "standby" or does
   * not answer is passed over for the next.
   */
  public ManagerClient(java.util.List<InetSocketAddress> addresses, Configuration conf, int rpcTimeoutMillis)
      throws IOException {
    if (addresses.isEmpty()) {
      throw new IllegalArgumentException("no POCache Manager address (" + PoCacheConfigKeys.MANAGER_ADDRESS_KEY + ")");
    }
    breakerOpenMillis = PoCacheConfig.getInt(conf, PoCacheConfigKeys.MANAGER_BREAKER_OPEN_KEY,
        PoCacheConfigKeys.MANAGER_BREAKER_OPEN_DEFAULT, 0, 3_600_000);
    breaker = breakerOpenMillis == 0 ? null : new CircuitBreaker(1, breakerOpenMillis, System::currentTimeMillis);
    Configuration c = new Configuration(conf);
    RPC.setProtocolEngine(c, PoCacheManagerProtocolPB.class, RpcEngines.protobuf());
    RPC.setProtocolEngine(c, PoCacheDataNodeProtocolPB.class, RpcEngines.protobuf());
    // Do not spend the timeout on reconnect attempts to a Manager that is not there.
    c.setInt("ipc.client.connect.max.retries", 0);
    c.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    c.setInt("ipc.client.connect.timeout", rpcTimeoutMillis);
    this.user = UserGroupInformation.getCurrentUser();
    this.rpcConf = c;
    this.rpcTimeoutMillis = rpcTimeoutMillis;
    Target[] t = new Target[addresses.size()];
    try {
      for (int i = 0; i < t.length; i++) {
        t[i] = new Target(addresses.get(i));
      }
    } catch (IOException | RuntimeException e) {
      for (Target made : t) {
        if (made != null) {
          made.close();
        }
      }
      throw e;
    }
    this.targets = t;
  }

  /**
   * A client for the Managers of the default file system ({@link ManagerAddresses}: one,
   * or one per NameNode of an HA nameservice), with dfs.pocache.manager.rpc.timeout.ms.
   */
  public static ManagerClient forDefaultFileSystem(Configuration conf) throws IOException {
    return forDefaultFileSystem(conf, 0);
  }

  /** As {@link #forDefaultFileSystem(Configuration)}, with at least {@code minTimeoutMillis}. */
  public static ManagerClient forDefaultFileSystem(Configuration conf, int minTimeoutMillis) throws IOException {
    java.util.List<InetSocketAddress> a = ManagerAddresses.of(conf, FileSystem.getDefaultUri(conf));
    int timeout = PoCacheConfig.getInt(conf, PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_KEY,
        PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_DEFAULT, 1, 600_000);
    return new ManagerClient(a, conf, Math.max(timeout, minTimeoutMillis));
  }

  /** The address clients and DataNodes should call: the configured one, with a wildcard host replaced. */
  public static InetSocketAddress connectAddress(Configuration conf, String namenodeHost) {
    InetSocketAddress a = PoCacheConfig.getAddress(conf, PoCacheConfigKeys.MANAGER_ADDRESS_KEY,
        PoCacheConfigKeys.MANAGER_ADDRESS_DEFAULT);
    String host = a.getHostString();
    if (host.equals("0.0.0.0") || host.equals("::")) {
      if (namenodeHost == null) {
        String key = PoCacheConfigKeys.MANAGER_ADDRESS_KEY;
        String configured = conf.getTrimmed(key, PoCacheConfigKeys.MANAGER_ADDRESS_DEFAULT);
        throw new IllegalArgumentException("no Manager to call: the file system names no NameNode host"
            + " (fs.defaultFS is " + conf.get("fs.defaultFS", "file:///") + ") and " + key + " is " + configured
            + " (the NameNode's host). Set fs.defaultFS to the cluster's hdfs:// URI (the site files in"
            + " HADOOP_CONF_DIR, or -fs), or " + key + " to the Manager's host:port");
      }
      host = namenodeHost;
    }
    return NetUtils.createSocketAddr(host, a.getPort());
  }

  /** The Manager calls go to now (the one that answered last). */
  public InetSocketAddress address() {
    return targets[current].address;
  }

  /** Every Manager this client may call, in order. */
  public java.util.List<InetSocketAddress> addresses() {
    java.util.List<InetSocketAddress> out = new ArrayList<>();
    for (Target t : targets) {
      out.add(t.address);
    }
    return out;
  }

  /**
   * The data path's lookup: the file's descriptor, or null ("no descriptor") when
   * it has none or the Manager cannot be asked (down, slow, refusing). Never
   * throws; failures are counted in {@link #failedLookups()} and logged at debug.
   */
  public ParityDescriptor lookup(String path) {
    try {
      DescriptorLookup r = getDescriptor(path);
      return r.hasParity() ? r.getParity() : null;
    } catch (IOException | RuntimeException e) {
      failedLookups.incrementAndGet();
      LOG.debug("No descriptor for {}: the Manager at {} did not answer: {}", path, address(), e.toString());
      return null;
    }
  }

  /** Lookups that ended without an answer from the Manager (skipped ones included). */
  public long failedLookups() {
    return failedLookups.get();
  }

  /** Calls the Manager did not answer within the timeout. */
  public long unansweredCalls() {
    return unanswered.get();
  }

  /** Calls not made because the Manager had not answered a call shortly before. */
  public long skippedCalls() {
    return skippedCalls.get();
  }

  @Override
  public void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException {
    call(t -> t.dataNodeProxy().heartbeat(null, HeartbeatRequestProto.newBuilder().setDataNode(dataNode)
        .setBytesRead(bytesRead).setServiceMillis(serviceMillis).setReadOps(readOps).build()));
  }

  @Override
  public StragglerList getStragglers() throws IOException {
    return call(t -> {
      GetStragglersResponseProto r = t.proxy.getStragglers(null, EMPTY);
      return new StragglerList(new ArrayList<>(r.getDataNodesList()), r.getDetector(),
          new ArrayList<>(r.getByHeartbeatsList()), new ArrayList<>(r.getByClientReadsList()));
    });
  }

  @Override
  public DescriptorLookup getDescriptor(String path) throws IOException {
    return getDescriptor(path, false);
  }

  @Override
  public DescriptorLookup getDescriptor(String path, boolean readerFills) throws IOException {
    // Retried once like other lookups: a repeated request never reserves twice (the file
    // is then FILLING); at worst a reservation whose answer was lost expires unfilled.
    return call(t -> ProtoTranslation.fromProto(t.proxy.getParityDescriptor(null,
        GetDescriptorRequestProto.newBuilder().setPath(path).setReaderFills(readerFills).build())));
  }

  /**
   * {@link #getDescriptor(String, boolean)} that never throws: null when the
   * Manager did not answer within its timeout (counted in {@link #failedLookups()}).
   */
  public DescriptorLookup lookupForRead(String path, boolean readerFills) {
    try {
      return getDescriptor(path, readerFills);
    } catch (IOException | RuntimeException e) {
      failedLookups.incrementAndGet();
      LOG.debug("No descriptor for {}: the Manager at {} did not answer: {}", path, address(), e.toString());
      return null;
    }
  }

  @Override
  public WriteAdmission admitWrite(String path, long expectedMaxBytes) throws IOException {
    return once(t -> ProtoTranslation.fromProto(t.proxy.admitWrite(null, AdmitWriteRequestProto.newBuilder()
        .setPath(path).setExpectedMaxBytes(expectedMaxBytes).build())));
  }

  @Override
  public void commit(long reservationId, long fileId, long length, long parityBytes, byte[] valueDigests)
      throws IOException {
    // A commit whose answer did not arrive (a Manager slow under load) is asked again: the
    // Manager acknowledges a repeated commit of a reservation it committed, so a lost answer
    // cannot leave the writer abandoning parity the Manager serves. A refusal is final.
    guarded(t -> t.proxy.commit(null, CommitRequestProto.newBuilder().setReservationId(reservationId).setFileId(fileId)
        .setLength(length).setParityBytes(parityBytes)
        .setValueDigests(com.google.protobuf.ByteString.copyFrom(valueDigests)).build()), false, COMMIT_ATTEMPTS);
  }

  /** Attempts of a commit the Manager does not answer (it acknowledges a repeat of one it made). */
  public static final int COMMIT_ATTEMPTS = 3;

  @Override
  public void abort(long reservationId, String reason) throws IOException {
    once(t -> t.proxy.abort(null, AbortRequestProto.newBuilder().setReservationId(reservationId)
        .setReason(reason == null ? "" : reason).build()));
  }

  @Override
  public void reportRead(ReadReport report) throws IOException {
    call(t -> t.proxy.reportRead(null, ProtoTranslation.toProto(report)));
  }

  @Override
  public ManagerReport getReport() throws IOException {
    return call(t -> ProtoTranslation.fromProto(t.proxy.getReport(null, EMPTY)));
  }

  @Override
  public CachedFiles listCached(String pathPrefix, int limit) throws IOException {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be > 0, got " + limit);
    }
    return call(t -> ProtoTranslation.fromProto(t.proxy.listCached(null, ListCachedRequestProto.newBuilder()
        .setPathPrefix(pathPrefix).setLimit(limit).build())));
  }

  @Override
  public String forgetDeleted(String path) throws IOException {
    return call(t -> t.proxy.forgetDeleted(null, PathRequestProto.newBuilder().setPath(path).build())).getOutcome();
  }

  @Override
  public String evict(String path) throws IOException {
    return once(t -> t.proxy.evict(null, PathRequestProto.newBuilder().setPath(path).build())).getOutcome();
  }

  @Override
  public String prefetch(String path) throws IOException {
    return once(t -> t.proxy.prefetch(null, PathRequestProto.newBuilder().setPath(path).build())).getOutcome();
  }

  private interface Rpc<T> {
    T run(Target t) throws ServiceException, IOException;
  }

  /**
   * Runs an idempotent call; once more if the first attempt found the connection
   * dead (EOF). Hadoop IPC keeps idle connections for a while, so the first call
   * after a Manager restart meets the old, closed one.
   */
  private <T> T call(Rpc<T> rpc) throws IOException {
    return guarded(rpc, true, 1);
  }

  /** Runs a call that must not be repeated (admit, abort). */
  private <T> T once(Rpc<T> rpc) throws IOException {
    return guarded(rpc, false, 1);
  }

  /** The bytes {@code "HTTP"} read as a big-endian length. */
  private static final int HTTP_AS_LENGTH = ('H' << 24) | ('T' << 16) | ('T' << 8) | 'P';
  /** How a call that cannot work with this Hadoop client's classes is reported. */
  private static final String WRONG_CLIENT = "the POCache Manager client does not work with this Hadoop client: ";

  /**
   * Runs a call; up to {@code attempts} times while it goes unanswered (a timeout or a
   * refused connection; a refusal by the Manager ends it). Attempts after the first do not
   * ask the breaker, which the first one's failure has just opened.
   */
  private <T> T guarded(Rpc<T> rpc, boolean idempotent, int attempts) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return guarded(rpc, idempotent, attempt == 1);
      } catch (Unanswered e) {
        if (attempt >= attempts) {
          throw e.getCause();
        }
        LOG.debug("The POCache Manager at {} did not answer attempt {} of {}: {}", describe(), attempt, attempts,
            e.getCause().toString());
      }
    }
  }

  /** A call the Manager did not answer (the failure is the cause); never leaves this class. */
  private static final class Unanswered extends Exception {
    private static final long serialVersionUID = 1L;

    Unanswered(IOException cause) {
      super(cause);
    }

    @Override
    public synchronized IOException getCause() {
      return (IOException) super.getCause();
    }
  }

  private <T> T guarded(Rpc<T> rpc, boolean idempotent, boolean askBreaker) throws IOException, Unanswered {
    if (askBreaker && breaker != null && !breaker.allow()) {
      skippedCalls.incrementAndGet();
      throw new ManagerUnavailableException("the POCache Manager at " + describe() + " did not answer a call within"
          + " the last " + breakerOpenMillis + " ms (" + PoCacheConfigKeys.MANAGER_BREAKER_OPEN_KEY + "); not asked");
    }
    int start = current;
    IOException notAnswered = null;
    String standby = null;
    for (int i = 0; i < targets.length; i++) {
      int at = (start + i) % targets.length;
      Target t = targets[at];
      T answer;
      try {
        answer = runOn(t, rpc, idempotent);
      } catch (ServiceException e) {
        Throwable c = e.getCause();
        if (c instanceof RemoteException) {
          RemoteException re = (RemoteException) c;
          if (STANDBY.equals(re.getClassName())) {
            standby = re.getMessage(); // its NameNode is standby: the other one may be active
            continue;
          }
          use(at, start);
          answered();
          throw re.unwrapRemoteException(); // a refusal: the Manager is there
        }
        notAnswered = c instanceof IOException ? (IOException) c : new IOException(e);
        continue;
      } catch (ClassCastException | LinkageError e) {
        // A Hadoop client this jar was not built for (a class missing or changed, or Hadoop's
        // RPC engine expecting its own relocated protobuf messages): for the caller an
        // unreachable Manager, never an Error that fails its job.
        IOException err = new IOException(WRONG_CLIENT + e, e);
        unanswered(err);
        throw err;
      } catch (IOException e) {
        notAnswered = e; // a proxy that could not be made
        continue;
      } catch (RuntimeException e) {
        unanswered(e);
        throw e;
      }
      use(at, start);
      answered();
      return answer;
    }
    if (notAnswered == null) {
      // Every Manager answered, each standby: the pair is between states (a failover), or no
      // NameNode is active. They answer at once, so the breaker stays closed.
      answered();
      standbyAnswers.incrementAndGet();
      IOException err = new ManagerUnavailableException("no POCache Manager of " + describe() + " is active: "
          + standby);
      warn("is standby", err, "Reads and writes use plain HDFS until a NameNode of the pair is active.");
      throw err;
    }
    unanswered(notAnswered);
    throw new Unanswered(notAnswered);
  }

  /** Runs {@code rpc} on {@code t}; an idempotent call once more if the connection was dead (EOF). */
  private static <T> T runOn(Target t, Rpc<T> rpc, boolean idempotent) throws ServiceException, IOException {
    try {
      return rpc.run(t);
    } catch (ServiceException e) {
      if (!idempotent || !(e.getCause() instanceof java.io.EOFException)) {
        throw e;
      }
      return rpc.run(t); // a connection the Manager closed before: once more on a new one
    }
  }

  /** Calls go to target {@code at} from now on; said at INFO when that is a change. */
  private void use(int at, int was) {
    if (at != was) {
      current = at;
      failovers.incrementAndGet();
      LOG.info("POCache uses the Manager at {} (the one at {} is standby or did not answer)", targets[at].address,
          targets[was].address);
    }
  }

  private String describe() {
    return targets.length == 1 ? targets[0].address.toString() : addresses().toString();
  }

  /** How a standby NameNode's Manager refuses (Hadoop's own class, which HA clients follow). */
  private static final String STANDBY = org.apache.hadoop.ipc.StandbyException.class.getName();

  /** Calls that every Manager answered as standby. */
  public long standbyAnswers() {
    return standbyAnswers.get();
  }

  /** Times calls moved from one Manager of an HA pair to the other. */
  public long failovers() {
    return failovers.get();
  }

  private void answered() {
    if (breaker != null) {
      breaker.success();
    }
  }

  private void unanswered(Exception why) {
    unanswered.incrementAndGet();
    // Without a breaker (DataNode heartbeats) every failure may warn, still at most once a minute.
    boolean worthWarning = breaker == null || breaker.failure();
    if (!worthWarning) {
      LOG.debug("The POCache Manager at {} did not answer: {}", describe(), why.toString());
      return;
    }
    warn("did not answer", why, (breaker == null ? "calls keep trying it." : "POCache skips it for " + breakerOpenMillis
        + " ms at a time until it does (reads and writes use plain HDFS meanwhile).") + " " + whatToCheck(why));
  }

  /** What an operator should check, given why a call went unanswered. */
  static String whatToCheck(Throwable why) {
    String message = messages(why);
    if (message.startsWith(WRONG_CLIENT)) {
      return "Install the POCache drop-in jar built for this Hadoop line (docs/operations.md, Troubleshooting).";
    }
    if (message.contains("cannot authenticate")) {
      return "Check that this client has a Kerberos ticket or an HDFS delegation token (a standalone Manager needs "
          + PoCacheConfigKeys.MANAGER_KERBEROS_PRINCIPAL_KEY + " on clients too).";
    }
    String other = notTheManager(message);
    if (other != null) {
      return other;
    }
    return "Check that the NameNode runs the POCache plugin and that " + PoCacheConfigKeys.MANAGER_ADDRESS_KEY
        + " names its address.";
  }

  /**
   * If {@code why} (with its causes) says that something other than a Manager answered at
   * the Manager's address, what to check; else null.
   */
  public static String notTheManager(Throwable why) {
    return notTheManager(messages(why));
  }

  private static String notTheManager(String message) {
    if (!message.contains("exceeds maximum data length")) {
      return null;
    }
    // Hadoop's RPC client read a response length no Hadoop server sends; newer clients say
    // which, and the four bytes "HTTP" read as a length mean a web server.
    String what = message.contains("length of " + HTTP_AS_LENGTH) ? "An HTTP server" : "Something";
    return what + " other than the Manager answers at that address: " + PoCacheConfigKeys.MANAGER_ADDRESS_KEY
        + " names another service's port (a web UI?), or another process took the port before the NameNode's"
        + " POCache plugin could (its log then says 'POCache Manager failed to start').";
  }

  private static String messages(Throwable why) {
    StringBuilder all = new StringBuilder(String.valueOf(why.getMessage()));
    for (Throwable t = why.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      all.append(" / ").append(t.getMessage());
    }
    return all.toString();
  }

  /** WARN at most once a minute (else DEBUG) that no Manager served a call, and why. */
  private void warn(String how, Exception why, String what) {
    long now = System.currentTimeMillis();
    if (now - lastWarning >= WARN_EVERY_MILLIS) {
      lastWarning = now;
      LOG.warn("The POCache Manager at {} {} ({}); {}", describe(), how, why.toString(), what);
    } else {
      LOG.debug("The POCache Manager at {} {}: {}", describe(), how, why.toString());
    }
  }

  @Override
  public void close() {
    for (Target t : targets) {
      t.close();
    }
  }
}
