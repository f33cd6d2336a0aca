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
package org.pocache.hdfs.namenode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code dfs.block.replicator.classname}: HDFS's default block placement, except that a
 * new block of a replicated file avoids the DataNodes that hold the file's previous
 * k - 1 blocks, so that the k blocks of every stripe sit on k different DataNodes.
 *
 * <p>Why: POCache's parity rebuilds a stripe when at most m of its k + m pieces are slow.
 * Under HDFS's random placement with replication 1, two blocks of a four-block stripe
 * share a DataNode in about one stripe of five on a five-node cluster, and then one slow
 * DataNode is two slow pieces, more than m = 1 parity can mask. HDFS's erasure-coded
 * files get the same guarantee from their own placement policy; this does it for the
 * contiguous files POCache protects with cached parity.
 *
 * <p>A new block also keeps off the DataNodes on the Manager's straggler list, when the
 * Manager runs in this NameNode ({@link PoCacheNameNodePlugin} hands the list over). A
 * straggler is idle next to its peers once POCache's readers go around it, and HDFS's
 * load-aware placement then favours it for new blocks; a file written there is slow to
 * write, and slow to read until its parity is cached. When too few other DataNodes are
 * left, the straggler is used as HDFS would.
 *
 * <p>Implementation notes: only a first allocation for a new block is steered (no replicas
 * chosen yet and the client's add-block flags present); re-replication, pipeline recovery,
 * favored nodes and WebHDFS redirects are HDFS's own. The DataNodes of each file's last
 * k - 1 blocks are kept per path in a bounded, least-recently-used map (a sliding window,
 * so every k consecutive blocks differ, whatever the stripe alignment and even after an
 * abandoned block or an overwrite at the same path). The window is a preference: when
 * too few DataNodes are left outside it, the block avoids the newest blocks' DataNodes only,
 * and failing that the remaining replicas are chosen as HDFS would.
 * Any failure of this class falls back to HDFS's choice; block allocation never fails
 * because of POCache. With {@code dfs.pocache.enabled=false} it is the default policy.
 */
public class StripePlacementPolicy extends BlockPlacementPolicyDefault implements Configurable {
  private static final Logger LOG = LoggerFactory.getLogger(StripePlacementPolicy.class);
  /** Files whose recent placements are kept; older ones are forgotten (their next block is placed freely). */
  static final int MAX_FILES = 1 << 14;
  /** How long one read of the straggler list serves block allocations. */
  static final long STRAGGLERS_REFRESH_MILLIS = 500;

  private final Recent recent = new Recent(MAX_FILES);
  private final AtomicBoolean warned = new AtomicBoolean();
  private final AtomicLong steered = new AtomicLong();
  private final AtomicLong relaxed = new AtomicLong();
  private final AtomicLong keptOff = new AtomicLong();
  private volatile Supplier<? extends Collection<String>> stragglerList;
  private volatile Set<Node> stragglers = Collections.emptySet();
  private volatile long stragglersReadAt;
  private volatile boolean enabled;
  private volatile int window;
  private volatile Configuration conf;

  /** HDFS makes the policy by {@code ReflectionUtils.newInstance}, which passes it the NameNode's conf. */
  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    try {
      window = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CODE_K_KEY, PoCacheConfigKeys.CODE_K_DEFAULT, 2, 32) - 1;
      enabled = PoCacheConfig.isEnabled(conf);
    } catch (IllegalArgumentException e) {
      // As the Manager's plugin: a malformed key leaves HDFS running, here with its own placement.
      enabled = false;
      LOG.error("POCache stripe placement is off, blocks are placed by HDFS's default policy: {}", e.getMessage());
      return;
    }
    LOG.info(enabled
        ? "POCache stripe placement: a new block avoids the DataNodes of its file's previous " + window + " blocks"
        : "POCache is disabled; stripe placement places blocks as HDFS's default policy");
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  /**
   * New blocks keep off the DataNodes the list names (transfer addresses, ip:port), or,
   * with null, no longer do. The list is read at most every
   * {@value #STRAGGLERS_REFRESH_MILLIS} ms, on a block allocation.
   */
  public void avoidStragglers(Supplier<? extends Collection<String>> list) {
    stragglerList = list;
    stragglers = Collections.emptySet();
    stragglersReadAt = 0;
  }

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes, long blocksize,
      BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    if (!enabled || srcPath == null || flags == null || numOfReplicas <= 0 || (chosen != null && !chosen.isEmpty())) {
      return super.chooseTarget(srcPath, numOfReplicas, writer, chosen, returnChosenNodes, excludedNodes, blocksize,
          storagePolicy, flags);
    }
    List<Set<Node>> previous;
    Set<Node> slow;
    try {
      previous = recent.window(srcPath);
      slow = stragglerNodes();
    } catch (RuntimeException | LinkageError e) {
      warnOnce(e);
      return super.chooseTarget(srcPath, numOfReplicas, writer, chosen, returnChosenNodes, excludedNodes, blocksize,
          storagePolicy, flags);
    }
    DatanodeStorageInfo[] targets = null;
    if (!slow.isEmpty()) {
      Set<Node> outside = excludedNodes == null ? new HashSet<>() : new HashSet<>(excludedNodes);
      outside.addAll(slow);
      targets = steer(srcPath, numOfReplicas, writer, previous, outside, blocksize, storagePolicy, flags, false);
      if (targets != null) {
        keptOff.incrementAndGet();
      }
    }
    if (targets == null) {
      targets = steer(srcPath, numOfReplicas, writer, previous, excludedNodes, blocksize, storagePolicy, flags, true);
    }
    try {
      recent.record(srcPath, targets, window);
    } catch (RuntimeException | LinkageError e) {
      warnOnce(e);
    }
    return targets;
  }

  /**
   * Targets outside the window's DataNodes (or, short of DataNodes, the newest blocks'),
   * or, if none is found: with {@code fill}, the rest chosen as HDFS would; without, null.
   */
  private DatanodeStorageInfo[] steer(String srcPath, int numOfReplicas, Node writer, List<Set<Node>> previous,
      Set<Node> excludedNodes, long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags,
      boolean fill) {
    if (previous.isEmpty() && fill) {
      return super.chooseTarget(srcPath, numOfReplicas, writer, new ArrayList<>(), false, excludedNodes, blocksize,
          storagePolicy, flags);
    }
    try {
      // Avoid the DataNodes of all of the window's blocks; with too few DataNodes outside it,
      // of the newest ones only (so that a 3-node cluster still spreads any 3 blocks). Without
      // fill, last of all the window is let go (the excluded stragglers are what matters then).
      DatanodeStorageInfo[] partial = new DatanodeStorageInfo[0];
      for (int w = previous.size(); w >= (fill ? 1 : 0); w--) {
        // HDFS's chooser adds what it picks to the excluded set it is given: give it copies.
        Set<Node> outside = excludedNodes == null ? new HashSet<>() : new HashSet<>(excludedNodes);
        for (Set<Node> block : previous.subList(previous.size() - w, previous.size())) {
          outside.addAll(block);
        }
        partial = super.chooseTarget(srcPath, numOfReplicas, writer, new ArrayList<>(), false, outside, blocksize,
            storagePolicy, flags);
        if (partial.length >= numOfReplicas) {
          if (!previous.isEmpty()) {
            (w == previous.size() ? steered : relaxed).incrementAndGet();
          }
          return partial;
        }
      }
      if (!fill) {
        return null;
      }
      relaxed.incrementAndGet();
      Set<Node> rest = excludedNodes == null ? new HashSet<>() : new HashSet<>(excludedNodes);
      return super.chooseTarget(srcPath, numOfReplicas - partial.length, writer,
          new ArrayList<>(Arrays.asList(partial)), true, rest, blocksize, storagePolicy, flags);
    } catch (RuntimeException | LinkageError e) {
      warnOnce(e);
      return fill ? super.chooseTarget(srcPath, numOfReplicas, writer, new ArrayList<>(), false, excludedNodes,
          blocksize, storagePolicy, flags) : null;
    }
  }

  /** The listed stragglers' descriptors (those in this NameNode's topology), read again after the refresh interval. */
  private Set<Node> stragglerNodes() {
    Supplier<? extends Collection<String>> list = stragglerList;
    if (list == null) {
      return Collections.emptySet();
    }
    long now = System.nanoTime();
    if (stragglersReadAt != 0 && now - stragglersReadAt <= STRAGGLERS_REFRESH_MILLIS * 1_000_000L) {
      return stragglers;
    }
    Collection<String> names = list.get();
    Set<Node> nodes = Collections.emptySet();
    if (names != null && !names.isEmpty()) {
      nodes = new HashSet<>();
      for (Node n : clusterMap.getLeaves(NodeBase.ROOT)) {
        if (n instanceof DatanodeDescriptor && names.contains(((DatanodeDescriptor) n).getXferAddr())) {
          nodes.add(n);
        }
      }
    }
    stragglers = nodes;
    stragglersReadAt = now == 0 ? 1 : now;
    return nodes;
  }

  private void warnOnce(Throwable e) {
    if (warned.compareAndSet(false, true)) {
      LOG.warn("POCache stripe placement failed ({}); blocks are placed by HDFS's default policy where it fails",
          e.toString());
    }
  }

  /** New blocks placed outside their file's window. */
  long steeredBlocks() {
    return steered.get();
  }

  /** New blocks placed off the DataNodes on the straggler list while it named any. */
  long keptOffStragglers() {
    return keptOff.get();
  }

  /** New blocks for which too few DataNodes were left outside the whole window. */
  long relaxedBlocks() {
    return relaxed.get();
  }

  /** The DataNodes of each file's last few blocks, least recently written files forgotten first. */
  static final class Recent {
    private final Map<String, ArrayDeque<Node[]>> byPath;

    Recent(int maxFiles) {
      this.byPath = new LinkedHashMap<String, ArrayDeque<Node[]>>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ArrayDeque<Node[]>> eldest) {
          return size() > maxFiles;
        }
      };
    }

    /** The DataNodes of each of the file's last blocks, oldest first. */
    synchronized List<Set<Node>> window(String path) {
      ArrayDeque<Node[]> last = byPath.get(path);
      if (last == null) {
        return java.util.Collections.emptyList();
      }
      List<Set<Node>> blocks = new ArrayList<>(last.size());
      for (Node[] block : last) {
        blocks.add(new HashSet<>(Arrays.asList(block)));
      }
      return blocks;
    }

    synchronized void record(String path, DatanodeStorageInfo[] targets, int window) {
      if (window <= 0 || targets.length == 0) {
        return;
      }
      Node[] nodes = new Node[targets.length];
      for (int i = 0; i < targets.length; i++) {
        nodes[i] = targets[i].getDatanodeDescriptor();
      }
      ArrayDeque<Node[]> last = byPath.computeIfAbsent(path, p -> new ArrayDeque<>(window + 1));
      last.addLast(nodes);
      while (last.size() > window) {
        last.removeFirst();
      }
    }

    synchronized int files() {
      return byPath.size();
    }
  }
}
