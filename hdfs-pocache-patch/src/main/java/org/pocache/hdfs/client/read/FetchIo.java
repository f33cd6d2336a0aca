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

/** What the engine's decisions are carried out by. Called on the engine's thread only. */
public interface FetchIo {
  /** Starts piece p's read elsewhere; it ends in exactly one ARRIVED or FAILED event for p. */
  void startRead(Piece p);

  /**
   * Starts the GET of the parity; it ends in exactly one PARITY_IN or PARITY_FAILED
   * event. {@code openNow}: open protected values in the background too (a decode is likely).
   */
  void requestParity(boolean openNow);

  /** After PARITY_IN: whether every value is there and fits (if not, says why in the read's outcome). */
  boolean parityUsable();

  /** After PARITY_FAILED: notes why in the read's outcome. */
  void parityFailed(Throwable cause);

  /** Decodes the rows the missing pieces lack while the others' later rows are on their way, if it can. */
  void decodeAhead();

  /** Rebuilds the missing pieces ({@link Piece#decodedInto}); false if the parity does not check out. */
  boolean decode();

  /** How long decoding this many bytes is expected to take here. */
  long expectedDecodeNanos(long bytes);
}
