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
package org.pocache.coder;

import java.nio.ByteBuffer;

/**
 * A systematic Reed-Solomon (k, m) coder over GF(2^8) with a Cauchy generator:
 * parity is byte-identical to Hadoop's RSRawEncoder and ISA-L for the same (k, m).
 *
 * <p>Pieces are numbered 0..k-1 (data) and k..k+m-1 (parity). A ByteBuffer
 * argument means its bytes from position to limit; positions are never moved. A
 * byte[] argument comes with an offset and a length. All inputs of a call are of
 * one length; outputs must have room for it. Direct and heap buffers may be
 * mixed. Instances are thread-safe; the coding tables are built once per (k, m)
 * and per erasure pattern, and a call allocates nothing once its pattern is known.
 *
 * <p>Every argument is checked before any work: bad input gets an
 * IllegalArgumentException naming the argument, a closed coder an
 * IllegalStateException; a native coder never sees unchecked pointers.
 */
public interface ErasureCoder extends AutoCloseable {

  CodeParameters parameters();

  /** "isal" or "java". */
  String implementation();

  /** parity[r] = sum over j of C[r][j] * data[j]: k data buffers in, m parity buffers out. */
  void encode(ByteBuffer[] data, ByteBuffer[] parity);

  /** {@link #encode(ByteBuffer[], ByteBuffer[])} on arrays: length bytes at the given offsets. */
  void encode(byte[][] data, int dataOffset, byte[][] parity, int parityOffset, int length);

  /**
   * Folds data piece {@code dataIndex} into the m parity accumulators:
   * parity[r] ^= C[r][dataIndex] * data. Starting from zeroed accumulators and
   * folding each of the k pieces once, in any order, gives exactly
   * {@link #encode}'s parity. A piece that never comes counts as zeros.
   */
  void update(int dataIndex, ByteBuffer data, ByteBuffer[] parity);

  /** {@link #update(int, ByteBuffer, ByteBuffer[])} on arrays. */
  void update(int dataIndex, byte[] data, int dataOffset, byte[][] parity, int parityOffset, int length);

  /**
   * Starts the m parity accumulators from data piece {@code dataIndex}, whatever they
   * held: parity[r] = C[r][dataIndex] * data. Folding the other pieces with
   * {@link #update} afterwards gives {@link #encode}'s parity, and the accumulators need
   * no zeroing first (nor a read of them for this piece).
   */
  void start(int dataIndex, byte[] data, int dataOffset, byte[][] parity, int parityOffset, int length);

  /**
   * Rebuilds lost pieces. {@code pieces} has k + m entries, null where a piece is
   * not available; the first k available ones (in index order) are used.
   * {@code outputs[i]} receives piece {@code erased[i]}; an erased piece must be
   * null in {@code pieces}.
   */
  void decode(ByteBuffer[] pieces, int[] erased, ByteBuffer[] outputs);

  /** {@link #decode(ByteBuffer[], int[], ByteBuffer[])} on arrays. */
  void decode(byte[][] pieces, int offset, int[] erased, byte[][] outputs, int outputOffset, int length);

  /** Releases the coding tables; any later call throws IllegalStateException. Idempotent. */
  @Override
  void close();
}
