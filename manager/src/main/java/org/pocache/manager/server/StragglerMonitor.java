package org.pocache.manager.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.pocache.csac.detect.StragglerDetector;
import org.pocache.manager.protocol.PoCacheManagerProtocol.StragglerList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Manager's straggler list: DataNode heartbeats and client observations each
 * feed their own instance of the configured detector, and the list is every
 * DataNode either of them flags now. The two are kept apart because they measure
 * different things: a heartbeat's rate is the DataNode's own read time (disk), a
 * client's is the whole read as the client saw it (network and queueing
 * included), which is lower for every DataNode. Compared with each other, a
 * DataNode whose newest sample happened to be a client's looked slow next to
 * DataNodes whose newest was a heartbeat. Apart, heartbeats find slow disks and
 * client observations find slow paths (a bad link) that a DataNode's own clock
 * cannot see. Each detector synchronizes on itself, so heartbeats and reports
 * from many RPC handler threads and readers of the list are safe.
 *
 * <p>A DataNode is listed only once {@value #CONFIRMATIONS} successive samples of it
 * were flagged. A single sample is one interval of one DataNode's reads, and under
 * load one interval often looks slow on a healthy DataNode (two readers sharing it, a
 * long read that finished in that interval); listing it sends every reader of its
 * blocks to parity, which costs the other DataNodes k - 1 reads per piece. A real
 * straggler is slow in every sample and is listed one interval later.
 */
public final class StragglerMonitor {
  private static final Logger LOG = LoggerFactory.getLogger(StragglerMonitor.class);
  /**
   * Client observations shorter than this are not timed: a few KB take a
   * millisecond or less, and TotalReadTime-like granularity would make noise.
   */
  public static final long MIN_CLIENT_SAMPLE_BYTES = 1 << 20;
  /** Successive flagged samples of a DataNode before it is listed. */
  public static final int CONFIRMATIONS = 2;

  private final StragglerDetector heartbeats;
  private final StragglerDetector clientReads;
  private final LongSupplier clock;
  /** Flagged samples in a row, per DataNode, of heartbeats and of client reads. */
  private final Map<String, Integer> slowHeartbeats = new ConcurrentHashMap<>();
  private final Map<String, Integer> slowReads = new ConcurrentHashMap<>();
  /** The list last returned, to log each change once. */
  private volatile String lastLogged = "[] []";

  /**
   * @param heartbeats judges DataNode heartbeats
   * @param clientReads judges client observations; a separate instance of the same
   *     kind (its samples are never compared with heartbeats')
   */
  public StragglerMonitor(StragglerDetector heartbeats, StragglerDetector clientReads, LongSupplier clock) {
    if (heartbeats == clientReads) {
      throw new IllegalArgumentException("heartbeats and client observations need detectors of their own");
    }
    this.heartbeats = heartbeats;
    this.clientReads = clientReads;
    this.clock = clock;
  }

  /** A DataNode plugin's interval. */
  public void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException {
    if (dataNode == null || dataNode.isEmpty()) {
      throw new IOException("heartbeat without a DataNode name");
    }
    report(heartbeats, dataNode, bytesRead, serviceMillis, "heartbeat");
    if (bytesRead > 0 && serviceMillis > 0) {
      judge(heartbeats, slowHeartbeats, dataNode);
    }
  }

  /**
   * What a client saw one DataNode do during a read (network included), judged
   * against other clients' observations only.
   */
  public void observe(String dataNode, long bytes, double millis) throws IOException {
    if (dataNode == null || dataNode.isEmpty()) {
      throw new IOException("read report names an empty DataNode");
    }
    if (bytes >= MIN_CLIENT_SAMPLE_BYTES || bytes < 0 || !(millis >= 0)) {
      report(clientReads, dataNode, bytes, millis, "read report");
      if (millis > 0) {
        judge(clientReads, slowReads, dataNode);
      }
    }
  }

  /** Counts a fresh sample of {@code dataNode} as flagged or not. */
  private void judge(StragglerDetector detector, Map<String, Integer> runs, String dataNode) {
    boolean flagged = detector.stragglers(clock.getAsLong()).contains(dataNode);
    if (flagged) {
      runs.merge(dataNode, 1, (a, b) -> Math.min(a + b, CONFIRMATIONS));
    } else {
      runs.remove(dataNode);
    }
    LOG.debug("{} sample of {} {}", detector == heartbeats ? "Heartbeat" : "Client", dataNode,
        flagged ? "flagged" : "not flagged");
  }

  /** The detector's flagged DataNodes whose last {@link #CONFIRMATIONS} samples were all flagged. */
  private static Set<String> confirmed(Set<String> flagged, Map<String, Integer> runs) {
    Set<String> out = new TreeSet<>();
    for (String dn : flagged) {
      if (runs.getOrDefault(dn, 0) >= CONFIRMATIONS) {
        out.add(dn);
      }
    }
    return out;
  }

  private void report(StragglerDetector detector, String dataNode, long bytes, double millis, String what)
      throws IOException {
    try {
      detector.report(dataNode, bytes, millis, clock.getAsLong());
      if (LOG.isDebugEnabled()) {
        LOG.debug("{} from {}: {} bytes in {} ms ({} MiB/s)", what, dataNode, bytes, String.format("%.1f", millis),
            millis > 0 ? String.format("%.2f", bytes / 1048576.0 / (millis / 1000)) : "-");
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("bad " + what + " from " + dataNode + ": " + e.getMessage(), e);
    }
  }

  public StragglerList getStragglers() {
    long now = clock.getAsLong();
    Set<String> disk = confirmed(heartbeats.stragglers(now), slowHeartbeats);
    Set<String> seen = confirmed(clientReads.stragglers(now), slowReads);
    Set<String> both = new TreeSet<>(disk);
    both.addAll(seen);
    String shown = disk + " " + seen; // both sorted (confirmed returns TreeSets)
    if (!shown.equals(lastLogged)) {
      synchronized (this) {
        if (!shown.equals(lastLogged)) {
          lastLogged = shown;
          LOG.info("Straggler list is now {} (from heartbeats {}, from client reads {})", both, disk, seen);
        }
      }
    }
    return new StragglerList(new ArrayList<>(both), heartbeats.name(), new ArrayList<>(disk),
        new ArrayList<>(seen));
  }
}
