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

import org.pocache.cache.Crc32c;
import org.pocache.cache.ParityValue;
import org.pocache.hdfs.client.buffer.Leases;
import org.pocache.hdfs.client.read.Clock;
import org.pocache.hdfs.client.read.Piece;
import org.pocache.manager.protocol.ParityDescriptor;

/**
 * The decoding of one {@link RunFetch}: it holds the run's parity (values as the GET
 * brought them, and their payloads unpacked into one array per parity piece), rebuilds
 * rows that up to m pieces lack while the others' later rows are on their way, and
 * rebuilds the missing pieces at the end. Every result is checked against the data
 * CRC32Cs the parity carries before it reaches the caller. Called on the fetch's thread,
 * except {@link #unpack} and {@link #parityIn}, which the GET calls before its event.
 */
final class RunDecoder {
  /** Where rebuilt rows go: bytes {@code [lo, hi)} of piece i's array into the caller's buffer. */
  interface RowSink {
    void copy(int piece, byte[] from, int lo, int hi);
  }

  private final ParityDescriptor d;
  /** Parity pieces of each substripe asked for. */
  private final int m;
  private final int count;
  private final int pieceBytes;
  private final int[] len;
  private final int[][] stored;
  private final Piece[] pieces;
  private final Leases leases;
  private final CallerBufferGuard guard;
  private final ParityAccess access;
  private final RowSink sink;
  private final Clock clock;
  /**
   * Decoding ahead: the rows up to m pieces lack (left to parity, failed or lagging)
   * rebuilt while the other pieces' later rows are still on their way, so that once the
   * last piece arrives only its last row is left to decode. False once it cannot help
   * (other pieces came to lack a row, or a row did not check out).
   */
  boolean aheadOk = true;
  /** The pieces decoded ahead (null before the first row is), and their rebuilt rows. */
  int[] aheadErased;
  byte[][] aheadOut;
  /** Rows decoded ahead (from the run's first), and of those copied into the caller's buffer. */
  int aheadRows;
  int aheadCopiedRows;
  /** Whether the final decode took over the rows decoded ahead. */
  boolean aheadUsed;
  /** Bytes the final decode rebuilt (not those decoded ahead). */
  long finalDecodeBytes;
  /** Parity value r of substripe j0 + c at c * m + r. */
  volatile ParityValue[] parity;
  /** Whether the parity task already opened (if protected) and unpacked the values; set before {@link #parity}. */
  volatile boolean unpacked;
  /** Parity r of the whole run, substripe j0 + c at offset c * S; filled by the GET when every value is usable. */
  final byte[][] parityBytes;
  /** When decoding proper started (after any opening of the parity). */
  private long codingFrom;

  RunDecoder(ParityDescriptor d, int m, int count, int pieceBytes, int[] len, int[][] stored, Piece[] pieces,
      Leases leases, CallerBufferGuard guard, ParityAccess access, RowSink sink, Clock clock) {
    this.d = d;
    this.m = m;
    this.count = count;
    this.pieceBytes = pieceBytes;
    this.len = len;
    this.stored = stored;
    this.pieces = pieces;
    this.leases = leases;
    this.guard = guard;
    this.access = access;
    this.sink = sink;
    this.clock = clock;
    parityBytes = new byte[m][];
    for (int r = 0; r < m; r++) {
      parityBytes[r] = leases.scratch(count * pieceBytes);
    }
  }

  /** The GET's thread: the values arrived ({@code opened}: opened if protected, and unpacked). */
  void parityIn(ParityValue[] values, boolean opened) {
    unpacked = opened;
    parity = values;
  }

  /** Whether the parity values are in (usable or not). */
  boolean parityIn() {
    return parity != null;
  }

  /** The parity values as the GET brought them; null before. */
  ParityValue[] parity() {
    return parity;
  }

  int aheadRows() {
    return aheadRows;
  }

  int aheadCopiedRows() {
    return aheadCopiedRows;
  }

  boolean aheadUsed() {
    return aheadUsed;
  }

  long finalDecodeBytes() {
    return finalDecodeBytes;
  }

  long codingFrom() {
    return codingFrom;
  }

  /** Copies every value's payload into the parity arrays. */
  void unpack(ParityValue[] values) {
    for (int x = 0; x < values.length; x++) {
      int c = x / m;
      if (values[x] != null && values[x].payloadLength() == len[c]) {
        values[x].copyPayloadTo(parityBytes[x % m], c * pieceBytes);
      }
    }
  }

  /**
   * Rebuilds, row by row from the run's first, the rows that up to m pieces (left to
   * parity, failed, or lagging) do not have while every other piece has them, and
   * copies them into the caller's buffer: once the last of the others arrives, only
   * its last row is left to decode. Needs the parity in; opens it here if the GET did
   * not (only once a row is to be decoded); stops for good if the pieces missing a row
   * change, or a row does not check out against its data CRCs (the final decode then
   * decides).
   */
  void decodeAhead() {
    if (!aheadOk || parity == null) {
      return;
    }
    int k = d.getK();
    ParityValue[] p = parity;
    while (aheadRows < count) {
      int c = aheadRows;
      int n = 0;
      int[] erased = new int[m];
      for (Piece piece : pieces) {
        if (!piece.have() && !(piece.state() == Piece.State.READING && piece.rowsIn() > c)) {
          if (n == m) {
            return; // more pieces lack row c than parity can rebuild
          }
          erased[n++] = piece.index;
        }
      }
      if (n == 0) {
        return; // row c is in everywhere: nothing to decode ahead
      }
      if (!unpacked && !open(parity)) {
        aheadOk = false; // the final decode meets it again, and waits for the data
        return;
      }
      erased = java.util.Arrays.copyOf(erased, n);
      if (aheadErased == null) {
        aheadErased = erased;
        aheadOut = new byte[n][];
        for (int e = 0; e < n; e++) {
          aheadOut[e] = leases.scratch(count * pieceBytes);
        }
      } else if (!java.util.Arrays.equals(aheadErased, erased)) {
        aheadOk = false; // other pieces lag now: the final decode does it all
        return;
      }
      byte[][] in = new byte[k + d.getM()][]; // the rows not asked for stay null: not available
      for (Piece piece : pieces) {
        in[piece.index] = piece.array();
      }
      for (int e : erased) {
        in[e] = null;
      }
      for (int r = 0; r < m; r++) {
        in[k + r] = parityBytes[r];
      }
      int at = c * pieceBytes;
      try {
        access.coder().decode(in, at, erased, aheadOut, at, len[c]);
      } catch (RuntimeException | LinkageError e) {
        aheadOk = false;
        return;
      }
      for (int e = 0; e < n; e++) {
        if (Crc32c.of(aheadOut[e], at, stored[c][erased[e]]) != p[c * m].dataCrc(erased[e])) {
          aheadOk = false;
          return;
        }
      }
      aheadRows++;
      if (aheadCopiedRows == c && guard.beginCopy()) {
        try {
          for (int e = 0; e < n; e++) {
            sink.copy(erased[e], aheadOut[e], at, at + pieceBytes);
          }
          aheadCopiedRows = aheadRows;
        } finally {
          guard.endCopy();
        }
      }
    }
  }

  /**
   * Opens (if protected) and unpacks the parity values on the fetch's thread, when the
   * GET did not (it was asked for on a lag, and opened only once a row is to be decoded);
   * false if a value does not check out.
   */
  private boolean open(ParityValue[] values) {
    try {
      for (ParityValue v : values) {
        v.open();
      }
    } catch (org.pocache.cache.CorruptParityException e) {
      return false;
    }
    unpack(values);
    unpacked = true;
    return true;
  }

  boolean decodeMissing(ProactiveReader.Outcome outcome) {
    ParityValue[] p = parity;
    if (!unpacked && !open(p)) {
      outcome.parityCorrupt = true; // forged or damaged: wait for the data
      return false;
    }
    codingFrom = clock.nanoTime();
    int k = d.getK();
    byte[][] in = new byte[k + d.getM()][]; // the rows not asked for stay null: not available
    int missing = 0;
    for (Piece piece : pieces) {
      in[piece.index] = piece.have() ? piece.array() : null;
      missing += piece.have() ? 0 : 1;
    }
    for (int r = 0; r < m; r++) {
      in[k + r] = parityBytes[r];
    }
    int[] erased = new int[missing];
    for (int i = 0, e = 0; i < k; i++) {
      if (!pieces[i].have()) {
        erased[e++] = i;
      }
    }
    byte[][] out = new byte[missing][];
    int first = 0;
    if (aheadOk && aheadRows > 0 && java.util.Arrays.equals(aheadErased, erased)) {
      out = aheadOut; // rows decoded ahead are done, and checked
      first = aheadRows;
      aheadUsed = true;
    } else {
      for (int e = 0; e < missing; e++) {
        out[e] = leases.scratch(count * pieceBytes);
      }
    }
    for (int c = first; c < count; c++) {
      int at = c * pieceBytes;
      try {
        access.coder().decode(in, at, erased, out, at, len[c]);
      } catch (RuntimeException | LinkageError e) {
        outcome.parityCorrupt = true; // parity that cannot even be decoded: wait for the data
        return false;
      }
      for (int e = 0; e < missing; e++) {
        int i = erased[e];
        finalDecodeBytes += stored[c][i];
        if (Crc32c.of(out[e], at, stored[c][i]) != p[c * m].dataCrc(i)) {
          outcome.parityCorrupt = true;
          return false; // never return bytes HDFS would not have returned
        }
      }
    }
    for (int e = 0; e < missing; e++) {
      // A late read still owns its array; the decoded bytes take its place.
      Piece piece = pieces[erased[e]];
      piece.decodedInto(out[e]);
      for (int c = 0; c < count; c++) {
        outcome.decoded += stored[c][piece.index] > 0 ? 1 : 0;
        outcome.decodedAhead += c < first && stored[c][piece.index] > 0 ? 1 : 0;
      }
    }
    return true;
  }
}
