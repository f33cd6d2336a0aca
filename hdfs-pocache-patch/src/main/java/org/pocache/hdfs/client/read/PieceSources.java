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

/** What is known about the DataNode of each piece, and where the engine's verdicts go. */
public interface PieceSources {
  /** Whether any DataNode is suspect at all: if none, no piece is skipped and nothing is judged. */
  boolean judging();

  boolean backlogged(int piece);

  boolean listed(int piece);

  boolean lateByOwnReads(int piece);

  /** Whether the piece's DataNode should be left to parity, if the budget allows (may count a probe). */
  boolean skipAdvised(int piece);

  boolean suspect(int piece);

  /** The piece was read and used: on time. */
  void onTime(int piece);

  /** The piece was decoded while its read ran; the pieces that completed the fetch were in by {@code peersAt}. */
  void decoded(int piece, long peersAt);
}
