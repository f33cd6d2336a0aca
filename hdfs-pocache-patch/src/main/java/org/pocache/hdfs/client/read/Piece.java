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
package org.pocache.hdfs.client.read;

/**
 * One data piece of a fetch and everything known about it: where it stands, its array,
 * when its read started, had its first row and ended, why it was left to parity, whether
 * its pace is known, and from when its bytes are no longer wanted. Its {@link State},
 * array and pace belong to the thread completing the fetch; the read's thread writes
 * {@link #finishedAt}, {@link #firstRowAt} and {@link #rowsIn} before the events that
 * report them; {@link #copiedWhole} is written under the caller's buffer guard.
 */
public final class Piece {
  /** Where a piece stands; it changes only through the transitions below. */
  public enum State {
    /** Nothing stored here (past the end of a short file): virtual zeros, never read. */
    VIRTUAL_ZERO,
    /** Left to parity because its source is slow; read only if the substripe cannot do without it. */
    SKIPPED,
    /** Skipped, and kept so even while a piece that was read lags: its DataNode has a backlog. */
    HELD,
    /** Its read is under way. */
    READING,
    /** Its read brought its bytes. */
    ARRIVED,
    /** Its read failed (a dead DataNode): only decoding can bring it. */
    FAILED,
    /** Rebuilt from parity; a read of it, if one was started, is abandoned. */
    DECODED
  }

  public final int index;
  /** Stored bytes of this piece over the whole run of substripes. */
  public final int bytes;
  private final Clock clock;
  private byte[] array;
  private State state;
  private boolean started;
  /** When its read was started, 0 if never. */
  private long startedAt;
  private long arrivedAt;
  /** When its read had the first row of a run of several, 0 before; set once. */
  private volatile long firstRowAt;
  /** From when its bytes are no longer wanted: a read that can stop does. */
  private volatile long unwantedFrom = Long.MAX_VALUE;
  private boolean copied;
  /** Rows of its run wholly in its array, as its read reported them. */
  private volatile int rowsIn;
  /** Bytes its read reported in its array so far. */
  private volatile int bytesIn;
  /** Why it was left to parity when the fetch began (backlog, listed, history), or null. */
  private String skippedFor;
  /** Whether its pace is known: its run's first row is in, or it arrived. */
  private boolean paced;

  public Piece(int index, int bytes, byte[] array, State state, Clock clock) {
    this.index = index;
    this.bytes = bytes;
    this.array = array;
    this.state = state;
    this.clock = clock;
  }

  public State state() {
    return state;
  }

  /** The array a read fills, or the decoded bytes that replaced it. */
  public byte[] array() {
    return array;
  }

  /** Whether a read of it was ever started. */
  public boolean started() {
    return started;
  }

  /** When its read started; 0 if none did. */
  public long startedAt() {
    return startedAt;
  }

  /** When its read finished; 0 before. */
  public long arrivedAt() {
    return arrivedAt;
  }

  /** Read threads: {@code rows} rows of the run are wholly in the array; true if that is more than before. */
  public boolean rowsIn(int rows) {
    if (rows <= rowsIn) {
      return false;
    }
    rowsIn = rows;
    return true;
  }

  /** Rows of its run its read reported wholly in its array (never the last: that one comes with the arrival). */
  public int rowsIn() {
    return rowsIn;
  }

  /** Read threads: the first {@code n} bytes of the piece are in its array. */
  public void bytesIn(int n) {
    if (n > bytesIn) {
      bytesIn = n;
    }
  }

  /** Bytes its read reported in so far (reads that report progress only; 0 otherwise). */
  public int bytesIn() {
    return bytesIn;
  }

  /** Whether its read copied it whole into the caller's buffer. */
  public boolean copied() {
    return copied;
  }

  /** Why it was left to parity when the fetch began, or null if it was not. */
  public String skippedFor() {
    return skippedFor;
  }

  boolean paced() {
    return paced;
  }

  void paced(boolean known) {
    paced = known;
  }

  /** Left to parity from the start, for {@code why}. */
  void skip(String why) {
    skippedFor = why;
  }

  /** Its read starts now (SKIPPED or HELD: after all). */
  void reading(long now) {
    started = true;
    startedAt = now;
    state = State.READING;
  }

  /** Read threads: the read finished at {@code nanos}, before its ending event is sent. */
  public void finishedAt(long nanos) {
    arrivedAt = nanos;
  }

  /**
   * Read threads: the first row of the piece's run is in its array at {@code nanos}; true
   * only the first time (a read that falls back to HDFS's reads may report it again).
   */
  public synchronized boolean firstRowAt(long nanos) {
    if (firstRowAt != 0) {
      return false;
    }
    firstRowAt = nanos;
    return true;
  }

  /** When its read had its run's first row, 0 before (or if it was not reported: the arrival counts). */
  public long firstRowAt() {
    return firstRowAt;
  }

  /** Its bytes are not wanted from {@code nanos} on (it was decoded; a read still running then is late). */
  void unwantedFrom(long nanos) {
    unwantedFrom = nanos;
  }

  /** From when its bytes are not wanted; {@code Long.MAX_VALUE} while they are. */
  public long unwantedFrom() {
    return unwantedFrom;
  }

  /** Read threads: whether a read still running should stop. */
  public boolean unwanted() {
    return clock.nanoTime() >= unwantedFrom;
  }

  /** Under the caller's buffer guard: whether the read copied the piece whole. */
  public void copiedWhole(boolean whole) {
    copied = whole;
  }

  /** Skipped, and held back from reading while its DataNode has a backlog. */
  void hold() {
    state = State.HELD;
  }

  void arrived() {
    state = State.ARRIVED;
  }

  void failed() {
    state = State.FAILED;
  }

  /** Rebuilt from parity into {@code decoded}, which take the read's array's place. */
  public void decodedInto(byte[] decoded) {
    array = decoded;
    state = State.DECODED;
  }

  /** Whether its bytes are in hand: arrived, decoded, or zeros. */
  public boolean have() {
    return state == State.ARRIVED || state == State.DECODED || state == State.VIRTUAL_ZERO;
  }

  /** Whether it waits to be read only if parity cannot stand in for it. */
  public boolean leftToParity() {
    return state == State.SKIPPED || state == State.HELD;
  }
}
