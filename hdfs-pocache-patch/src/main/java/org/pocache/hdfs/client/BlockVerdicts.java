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
package org.pocache.hdfs.client;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.coder.layout.SubblockAddress;

/**
 * What a {@link SequentialReader} has decided about each block of its file: streamed, or
 * left to parity (listed straggler, late subblocks in a row, DataNodes down), or beyond
 * parity's help; and the questions of {@link PoCacheInputStream}, which reads HDFS's stream
 * itself until the reader is needed, that lead there. Blocks are numbered across the file
 * (subblock g is in block g x subblock / block size).
 *
 * <p>All state is guarded by the reader's lock: the methods the caller's thread asks take
 * it, the others are called with it held.
 */
final class BlockVerdicts {
  /** Late subblocks in a row after which the rest of their block is left to parity. */
  static final int TAKEOVER_AFTER = 2;

  private final Object lock;
  private final StripeLayout layout;
  private final ProactiveReader proactive;
  private final DegradedReader rebuilds;
  private final SubblockDeadlines deadlines;
  private final long fileLength;
  private final int subblock;

  /** Blocks rebuilt from parity instead of streamed. @GuardedBy("lock") */
  private final Set<Long> leftToParity = new HashSet<>();
  /** Blocks whose first subblock was seen (leave-to-parity decided). @GuardedBy("lock") */
  private final Set<Long> decided = new HashSet<>();
  /** Blocks parity cannot rescue: streamed whatever their speed. @GuardedBy("lock") */
  private final Set<Long> unrescuable = new HashSet<>();
  /**
   * Blocks none of whose DataNodes answered (down, or restarting): left to parity, which then
   * only another such block of the stripe keeps from standing in (a slow one only delays a
   * rebuild; waiting for a DataNode that is down takes HDFS's retries, seconds each).
   * @GuardedBy("lock")
   */
  private final Set<Long> down = new HashSet<>();
  /** Late subblocks in a row per block not (yet) left to parity. @GuardedBy("lock") */
  private final Map<Long, Integer> lateInRow = new HashMap<>();
  /** The subblock the caller's own reads found late, -1 if none: rebuilt at once. @GuardedBy("lock") */
  private long lateByCaller = -1;
  /** @GuardedBy("lock") */
  private boolean closed;

  BlockVerdicts(Object lock, StripeLayout layout, ProactiveReader proactive, DegradedReader rebuilds,
      SubblockDeadlines deadlines) {
    this.lock = lock;
    this.layout = layout;
    this.proactive = proactive;
    this.rebuilds = rebuilds;
    this.deadlines = deadlines;
    this.fileLength = layout.fileLength();
    this.subblock = layout.subblockSize();
  }

  // --- with the reader's lock held ----------------------------------------------------

  long blockOf(long g) {
    return g * subblock / layout.blockSize();
  }

  boolean leftToParity(long block) {
    return leftToParity.contains(block);
  }

  boolean down(long block) {
    return down.contains(block);
  }

  boolean unrescuable(long block) {
    return unrescuable.contains(block);
  }

  /**
   * Subblock g's block is seen for the first time: a block on a listed straggler, or on one
   * late for this client, is left to parity from its start.
   */
  void firstSight(long g) {
    long block = blockOf(g);
    if (unrescuable.contains(block) || !decided.add(block)) {
      return;
    }
    SubblockAddress a = layout.locate(g * subblock);
    if (proactive.isCached(a.stripe) && rebuilds.leaveToParity(a.stripe, a.dataIndex)) {
      leftToParity.add(block);
    }
  }

  /**
   * A subblock of {@code block} was late; returns whether the rest of the block is now left
   * to parity: {@value #TAKEOVER_AFTER} in a row, or at once where the stream failed.
   */
  boolean late(long block, boolean failed) {
    int inRow = lateInRow.merge(block, 1, Integer::sum);
    if (!failed && inRow < TAKEOVER_AFTER) {
      return false;
    }
    lateInRow.remove(block);
    leftToParity.add(block);
    return true;
  }

  /** A subblock of {@code block} came on time: the late ones before were not in a row. */
  void onTime(long block) {
    lateInRow.remove(block);
  }

  /**
   * A stream beat a rebuild of {@code block}: its DataNode serves, the rebuild waited on
   * another. Returns whether the block was left to parity (and is streamed again now).
   */
  boolean streamedAfterAll(long block) {
    return leftToParity.remove(block);
  }

  /** A rebuild of a subblock of {@code block} answered nothing usable: it is streamed from now on. */
  void rebuildFailed(long block) {
    unrescuable.add(block);
    leftToParity.remove(block);
  }

  /** The read-ahead's stream failed in {@code block}: none of its DataNodes answered. */
  void streamFailed(long block) {
    down.add(block);
  }

  /** Whether the caller's own reads found subblock g late; asked once (the answer is taken). */
  boolean takeLateByCaller(long g) {
    if (g != lateByCaller) {
      return false;
    }
    lateByCaller = -1;
    return true;
  }

  /** Whether a subblock the caller found late still waits for its rebuild to start. */
  boolean lateByCallerPending() {
    return lateByCaller >= 0;
  }

  void close() {
    closed = true;
  }

  /**
   * Whether parity can stand in for subblock g: its stripe's parity is cached and fewer than
   * m of the other pieces of its substripe sit on listed stragglers, on blocks this stream
   * already found slow, or on the subblock's own DataNode (whose slowness a rebuild would then
   * share). For a block that is down only the pieces that cannot be read at all count (down
   * as well, or on its own DataNodes): a slow piece delays the rebuild, where the alternative
   * is HDFS's retries and then a failed read, and a block whose own rebuild failed, having
   * needed this one, still reads.
   */
  boolean rescuable(long g) {
    long start = g * subblock;
    if (start >= fileLength || unrescuable.contains(blockOf(g))) {
      return false;
    }
    SubblockAddress a = layout.locate(start);
    if (!proactive.isCached(a.stripe)) {
      return false;
    }
    int k = layout.k();
    int slowOthers = 0;
    long firstBlock = a.stripe * k;
    boolean isDown = down.contains(blockOf(g));
    for (int x = 0; x < k; x++) {
      if (x == a.dataIndex || layout.storedLength(a.stripe, a.substripe, x) == 0) {
        continue;
      }
      long other = firstBlock + x;
      if (isDown ? down.contains(other) || rebuilds.sameDataNodes(a.stripe, a.dataIndex, x)
          : leftToParity.contains(other) || rebuilds.listedStraggler(a.stripe, x)
          || rebuilds.sameDataNodes(a.stripe, a.dataIndex, x)) {
        slowOthers++; // a rebuild would wait on it (for a down block: could not be done at all)
      }
    }
    return slowOthers < proactive.m();
  }

  // --- the caller's own reads (these take the lock) ----------------------------------
  //
  // PoCacheInputStream reads HDFS's stream itself, on its caller's thread, until the reader
  // is needed: these let it judge its reads by the same rules the streamer's are judged by.

  /** The subblock size of the file's layout. */
  int subblockSize() {
    return subblock;
  }

  long blockSize() {
    return layout.blockSize();
  }

  /** Where the stripe holding file offset {@code pos} starts. */
  long stripeStart(long pos) {
    long stripeBytes = layout.k() * layout.blockSize();
    return pos / stripeBytes * stripeBytes;
  }

  /**
   * Whether rebuilds will want the block starting at {@code pos} after the caller has read
   * it: the block is not left to parity, and a later block of its stripe is, or is held by a
   * DataNode this client suspects (listed, late in its reads, or backlogged) and parity can
   * stand in for it. A rebuild of a subblock reads the same subblock of every other block of
   * the stripe, and without a copy those the caller has passed are read from their DataNodes
   * a second time. Asks nothing that counts: the later blocks are decided at their own start
   * (a listed DataNode's probes count those answers), and a copy made for a block that is
   * probed after all is only memory the budget allowed.
   */
  boolean wantedByLaterRebuilds(long pos) {
    if (!rebuilds.anySuspect()) {
      return false; // nothing slow: no block is left to parity
    }
    long blockSize = layout.blockSize();
    long end = stripeStart(pos) + layout.k() * blockSize;
    synchronized (lock) {
      if (closed || leftToParity.contains(pos / blockSize)) {
        return false;
      }
    }
    for (long at = (pos / blockSize + 1) * blockSize; at < end && at < fileLength; at += blockSize) {
      long block = at / blockSize;
      boolean undecided;
      synchronized (lock) {
        if (leftToParity.contains(block)) {
          return true;
        }
        undecided = !decided.contains(block);
      }
      SubblockAddress a = layout.locate(at);
      if (undecided && rebuilds.suspect(a.stripe, a.dataIndex)) { // locations: outside the lock
        synchronized (lock) {
          if (rescuable(at / subblock)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Whether the DataNodes of the block holding {@code pos} are on the Manager's list, on
   * their heartbeats or on clients' reads. A block there that is not left to parity from its
   * start ({@link #leftToParityAt}) is not fetched ahead: a fetch would read all of it at the
   * DataNode's pace, where the caller's own read judges it by its first subblock.
   */
  boolean onListedDataNode(long pos) {
    SubblockAddress a = layout.locate(pos / subblock * subblock);
    return rebuilds.listedStraggler(a.stripe, a.dataIndex);
  }

  /** Where the block holding file offset {@code pos} ends (exclusive). */
  long blockEnd(long pos) {
    long blockSize = layout.blockSize();
    return Math.min(fileLength, (pos / blockSize + 1) * blockSize);
  }

  /**
   * Whether the block holding {@code pos} is left to parity from its start (its DataNodes
   * are listed, or were late for this client) and parity can stand in for it: the caller
   * hands its reads to the reader rather than read that DataNode itself. Asked once per
   * block (the straggler list's probes count the answers): a yes is the reader's decision
   * for the block too.
   *
   * <p>A DataNode listed on its heartbeats alone, and not late in this client's own reads,
   * does not take a block from its start: the block is read, undecided, and its later
   * subblocks ask {@link #listedSince} whether the last one kept pace (in a new client, with
   * no subblock timed yet, within the minimum deadline: see {@link DirectReadTimes}). A
   * healthy DataNode whose heartbeats looked slow because its readers were starved of a
   * core keeps its blocks (a rebuild reads k - 1 other blocks and the parity on those same
   * busy cores, and a wave of new tasks is where that happens most); a straggler costs the
   * part of a subblock it sends within that bar ({@link DirectReadTimes#fallenBehind}).
   */
  boolean leftToParityAt(long pos) {
    long g = pos / subblock;
    long block = blockOf(g);
    synchronized (lock) {
      if (decided.contains(block)) {
        return leftToParity.contains(block);
      }
    }
    SubblockAddress a = layout.locate(g * subblock);
    if (!proactive.isCached(a.stripe)
        || rebuilds.listedOnHeartbeatsAlone(a.stripe, a.dataIndex)
        || !rebuilds.leaveToParity(a.stripe, a.dataIndex)) {
      return false;
    }
    synchronized (lock) {
      if (decided.contains(block)) {
        return leftToParity.contains(block); // asked before (by the prefetch, or at the block's start)
      }
      if (closed || !rescuable(g)) {
        return false;
      }
      decided.add(block);
      leftToParity.add(block);
      return true;
    }
  }

  /**
   * Whether the block holding {@code pos}, which the caller has been reading itself, is on
   * the Manager's straggler list now and parity can stand in for the rest of it: the rest
   * of the block is left to parity from the subblock at {@code pos} and the caller hands
   * its reads to the reader. Asked at each subblock the caller starts, and within one that
   * can no longer keep pace (then from {@code pos} on, mid-subblock). A task's stream
   * reads one block for as long as the block's DataNode takes, and a straggler listed
   * while it does would otherwise keep it until the end of its split.
   *
   * <p>Listed on clients' reads (what readers waited on) is enough. Listed on its heartbeats
   * alone, the DataNode takes the block over only if the caller is {@code readBound} (has
   * spent most of its time on this block waiting in HDFS's reads): under MapReduce load a
   * healthy DataNode's heartbeat now and then looks a fifth as fast as its peers' for a few
   * seconds, while its tasks, which compute as fast as it sends, wait little on it;
   * rebuilding the rest of its blocks would cost k - 1 other DataNodes for nothing. The
   * clients' verdict takes longer: it needs the tasks reading the straggler's peers to have
   * reported, and two samples in a row.
   */
  boolean listedSince(long pos, boolean readBound) {
    long g = pos / subblock;
    SubblockAddress a = layout.locate(g * subblock);
    if (!(rebuilds.seenSlowByClients(a.stripe, a.dataIndex) || readBound && rebuilds.listedStraggler(a.stripe,
        a.dataIndex)) || !proactive.isCached(a.stripe)) {
      return false;
    }
    synchronized (lock) {
      long block = blockOf(g);
      if (closed || leftToParity.contains(block) || !rescuable(g)) {
        return false;
      }
      decided.add(block);
      leftToParity.add(block);
      return true;
    }
  }

  /**
   * The caller's own read of the block holding {@code pos} failed at once: none of its
   * DataNodes answered (down, or restarting). The rest of the block is left to parity
   * where parity can stand in; otherwise it is streamed, through HDFS's retries.
   */
  void blockDown(long pos) {
    long g = pos / subblock;
    synchronized (lock) {
      long block = blockOf(g);
      down.add(block);
      decided.add(block);
      if (!closed && rescuable(g)) {
        leftToParity.add(block);
      }
      lock.notifyAll();
    }
  }

  /** The floor of every deadline (nanoseconds). */
  long deadlineFloor() {
    return deadlines.minNanos();
  }

  /** The per-subblock deadline the caller judges a block's subblocks by, taken as it begins the block. */
  long perSubblockDeadline() {
    return deadlines.perSubblock();
  }

  /**
   * Whether the caller's own reads of subblock {@code g} ({@code t}: their times, less the
   * time the caller's thread waited for a core) are late, and parity could stand in for it.
   * Late alone: the subblock's time so far against the deadline a streamed subblock is
   * judged by, or the cold bar (a second) before any subblock was timed or while no rebuild
   * has succeeded through this file system: a new client's first rebuild opens the coder,
   * Redis and the other DataNodes' block readers, most of a second on busy cores, and a
   * healthy DataNode's subblock held up by a pause of its host comes sooner.
   * Or late as a run ({@link DirectReadTimes#slowRun}, with the floor counted once): this
   * catches a DataNode a few times slower than its peers whose subblocks each arrive under
   * the floor (a 1 MiB subblock at 80 MiB/s takes 12.5 ms), and the rest of its block is
   * left to parity at once. A subblock late alone is raced by a rebuild as soon as the
   * caller waits on it in the reader, and counts as a late subblock of its block: one more
   * in a row leaves the rest of the block to parity.
   */
  boolean lateForCaller(long g, DirectReadTimes t) {
    boolean slowBlock = false;
    long whole = deadlines.lateAlone();
    if (t.subblockNanos() < whole || t.netNanos(whole) < whole) {
      if (!t.slowRun(deadlines.minNanos())) {
        return false;
      }
      slowBlock = true;
    }
    synchronized (lock) {
      if (closed || !rescuable(g)) {
        return false;
      }
      lateByCaller = g;
      if (slowBlock) {
        lateInRow.put(blockOf(g), TAKEOVER_AFTER - 1); // this late one leaves the rest of the block to parity
      }
      return true;
    }
  }

  /**
   * Subblock {@code g} was read whole from its DataNode by the caller itself, outside the
   * reader's window, in {@code nanos}: timed and reported as a streamed one. Read within
   * the per-subblock deadline (the factor times the recent mean of this client's subblocks,
   * without the floor), it was on time against its peers: a DataNode the Manager lists on
   * its heartbeats alone (under load a healthy one now and then looks slow for seconds) is
   * then read by this client again, as a proactive read's on-time piece has it read. A
   * straggler a tenth as fast as its peers never is.
   */
  void readElsewhere(long g, long nanos) {
    readElsewhere(g, nanos, true);
  }

  /**
   * As {@link #readElsewhere(long, long)}; {@code byCaller} false: read by a fetch ahead,
   * on the pool beside other fetches, whose times say less about the DataNode against its
   * peers (on time by the deadline only, as a stream's subblock).
   */
  private void readElsewhere(long g, long nanos, boolean byCaller) {
    long start = g * subblock;
    int len = (int) Math.min(subblock, fileLength - start);
    if (len <= 0) {
      return;
    }
    long perSub = deadlines.perSubblock(); // before this one counts in the mean
    deadlines.learn(nanos);
    synchronized (lock) {
      lateInRow.remove(blockOf(g)); // on time: the late ones were not in a row
    }
    SubblockAddress a = layout.locate(start);
    if (perSub > 0 && nanos >= perSub) {
      // Within the deadline but slower than this client's recent subblocks: no word either
      // way on its DataNode. Counted on time, a straggler's first subblocks of each block
      // would clear the history of late reads the verdicts on its blocks leave.
      rebuilds.observed(a.stripe, a.dataIndex, len, nanos);
      return;
    }
    rebuilds.streamed(a.stripe, a.dataIndex, len, nanos, false, byCaller && perSub > 0);
  }

  /**
   * Subblock {@code g} was fetched whole ahead of the caller in {@code nanos} of HDFS reads;
   * returns whether it was on time, by the deadline the caller's own reads are judged by.
   * On time it is timed and reported as a streamed one; late, it is reported as a read
   * parity had to replace (its DataNode is slow for this client: the caller's reads of the
   * block go to parity when it gets there), and the fetch of its block should stop.
   */
  boolean fetchedAhead(long g, long nanos) {
    if (nanos < deadlines.wholeSubblock()) {
      readElsewhere(g, nanos, false);
      return true;
    }
    long start = g * subblock;
    int len = (int) Math.min(subblock, fileLength - start);
    SubblockAddress a = layout.locate(start);
    rebuilds.streamed(a.stripe, a.dataIndex, len, nanos, true);
    return false;
  }
}
