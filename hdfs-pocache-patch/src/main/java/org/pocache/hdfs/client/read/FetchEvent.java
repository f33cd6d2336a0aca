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
 * Something that happened to a fetch on another thread: a piece's read or the parity
 * GET ended, or a read of several rows reported progress. Each read and each GET ends in
 * exactly one ending event; progress events may come any number of times.
 */
public final class FetchEvent {
  /** What happened. */
  public enum Kind {
    /** Piece {@link #piece()}'s read brought its bytes; {@link Piece#finishedAt} was set first. */
    ARRIVED,
    /** Piece {@link #piece()}'s read failed ({@link #cause()}), or stopped. */
    FAILED,
    /** The parity GET ended with values (usable or not: {@link FetchIo#parityUsable} tells). */
    PARITY_IN,
    /** The parity GET failed ({@link #cause()}): Redis down, a value that does not check out. */
    PARITY_FAILED,
    /** A read of several rows has its first row in ({@link Piece#firstRowAt}): its pace is known. */
    FIRST_ROW,
    /** A read has another whole row in while the parity is in: rows can be decoded ahead. */
    ROWS_IN
  }

  /** A read of several rows has its first row; carries no piece (the engine looks at them all). */
  public static final FetchEvent FIRST_ROW = new FetchEvent(Kind.FIRST_ROW, -1, null);
  /** A read has another whole row in. */
  public static final FetchEvent ROWS_IN = new FetchEvent(Kind.ROWS_IN, -1, null);
  /** The parity GET ended with values. */
  public static final FetchEvent PARITY_IN = new FetchEvent(Kind.PARITY_IN, -1, null);

  private final Kind kind;
  private final int piece;
  private final Throwable cause;

  private FetchEvent(Kind kind, int piece, Throwable cause) {
    this.kind = kind;
    this.piece = piece;
    this.cause = cause;
  }

  public static FetchEvent arrived(int piece) {
    return new FetchEvent(Kind.ARRIVED, piece, null);
  }

  public static FetchEvent failed(int piece, Throwable cause) {
    return new FetchEvent(Kind.FAILED, piece, cause);
  }

  public static FetchEvent parityFailed(Throwable cause) {
    return new FetchEvent(Kind.PARITY_FAILED, -1, cause);
  }

  public Kind kind() {
    return kind;
  }

  /** The piece whose read ended; -1 for the others. */
  public int piece() {
    return piece;
  }

  /** Why a read or the GET failed; null otherwise. */
  public Throwable cause() {
    return cause;
  }

  @Override
  public String toString() {
    return piece >= 0 ? kind + "(d" + piece + ")" : kind.toString();
  }
}
