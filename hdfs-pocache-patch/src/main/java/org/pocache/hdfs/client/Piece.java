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

import java.util.concurrent.Future;

/**
 * One data piece of a proactive fetch and where it stands. Its {@link State} and
 * array belong to the thread completing the fetch; {@link #arrivedAt} is written by
 * the piece's read before its future completes; {@link #copied} under the fetch's
 * {@link CallerBufferGuard}. It changes only through the transitions below.
 */
final class Piece {
  enum State {
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

  final int index;
  /** Stored bytes of this piece over the whole run of substripes. */
  final int bytes;
  private byte[] array;
  private State state;
  private Future<Integer> read;
  private long arrivedAt;
  /** When its read had the first row of a run of several (System.nanoTime), 0 before; set once. */
  private volatile long firstRowAt;
  /** From when (System.nanoTime) its bytes are no longer wanted: a direct read stops then. */
  private volatile long unwantedFrom = Long.MAX_VALUE;
  /** When its read was started (System.nanoTime), 0 if never; for the trace. */
  private long startedAt;
  private boolean copied;
  /** Rows of its run wholly in its array, as its read reported them. */
  private volatile int rowsIn;

  Piece(int index, int bytes, byte[] array, State state) {
    this.index = index;
    this.bytes = bytes;
    this.array = array;
    this.state = state;
  }

  State state() {
    return state;
  }

  /** The array a read fills, or the decoded bytes that replaced it. */
  byte[] array() {
    return array;
  }

  /** Its read (completes with {@link #index}), or null if none was started. */
  Future<Integer> read() {
    return read;
  }

  /** When its read finished (System.nanoTime); 0 before. */
  long arrivedAt() {
    return arrivedAt;
  }

  /** Read threads: {@code rows} rows of the run are wholly in the array; true if that is more than before. */
  boolean rowsIn(int rows) {
    if (rows <= rowsIn) {
      return false;
    }
    rowsIn = rows;
    return true;
  }

  /** Rows of its run its read reported wholly in its array (never the last: that one comes with the arrival). */
  int rowsIn() {
    return rowsIn;
  }

  /** Whether its read copied it whole into the caller's buffer. */
  boolean copied() {
    return copied;
  }

  long startedAt() {
    return startedAt;
  }

  /** Its read started (SKIPPED or HELD: after all). */
  void reading(Future<Integer> future) {
    startedAt = System.nanoTime();
    state = State.READING;
    read = future;
  }

  /** Read threads: the read finished now, before its future completes. */
  void finishedAt(long nanos) {
    arrivedAt = nanos;
  }

  /**
   * Read threads: the first row of the piece's run is in its array now; true only the
   * first time (a read that falls back to HDFS's reads may report it again).
   */
  synchronized boolean firstRowAt(long nanos) {
    if (firstRowAt != 0) {
      return false;
    }
    firstRowAt = nanos;
    return true;
  }

  /** When its read had its run's first row, 0 before (or if it was not reported: the arrival counts). */
  long firstRowAt() {
    return firstRowAt;
  }

  /** Its bytes are not wanted from {@code nanos} on (it was decoded; a read still running then is late). */
  void unwantedFrom(long nanos) {
    unwantedFrom = nanos;
  }

  /** Read threads: whether a read still running should stop. */
  boolean unwanted() {
    return System.nanoTime() >= unwantedFrom;
  }

  /** Under the {@link CallerBufferGuard}: whether the read copied the piece whole. */
  void copiedWhole(boolean whole) {
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

  /** Rebuilt from parity into {@code bytes}, which take the read's array's place. */
  void decodedInto(byte[] decoded) {
    array = decoded;
    state = State.DECODED;
  }

  /** Whether its bytes are in hand: arrived, decoded, or zeros. */
  boolean have() {
    return state == State.ARRIVED || state == State.DECODED || state == State.VIRTUAL_ZERO;
  }

  /** Whether it waits to be read only if parity cannot stand in for it. */
  boolean leftToParity() {
    return state == State.SKIPPED || state == State.HELD;
  }
}
