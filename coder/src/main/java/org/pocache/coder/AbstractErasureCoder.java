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
 * Argument checking, plans and the call protocol shared by the coders; the
 * subclasses only multiply matrices. Every public entry point validates all of
 * its arguments, then reduces them to (base, offset) operands: a byte[] with an
 * absolute offset, or a ByteBuffer with an absolute index.
 *
 * <p><b>Size.</b> Long because it holds the argument checks and buffer handling every
 * kernel shares, so that each kernel stays small.
 */
abstract class AbstractErasureCoder implements ErasureCoder {
  /** What to compute: {@code matrix} applied to the pieces {@code inputs} (one per column). */
  static final class Plan {
    final long key;
    final CodingMatrix matrix;
    final int[] inputs;
    /** Implementation-specific tables built from the matrix (null for the Java coder). */
    final Object tables;

    Plan(long key, CodingMatrix matrix, int[] inputs, Object tables) {
      this.key = key;
      this.matrix = matrix;
      this.inputs = inputs;
      this.tables = tables;
    }
  }

  /** Per-thread operand arrays, so a call allocates nothing. */
  static final class Operands {
    final Object[] inBase = new Object[CodeParameters.MAX_K + CodeParameters.MAX_M];
    final int[] inOff = new int[CodeParameters.MAX_K + CodeParameters.MAX_M];
    final Object[] outBase = new Object[CodeParameters.MAX_K + CodeParameters.MAX_M];
    final int[] outOff = new int[CodeParameters.MAX_K + CodeParameters.MAX_M];

    void clear() {
      java.util.Arrays.fill(inBase, null);
      java.util.Arrays.fill(outBase, null);
    }
  }

  private static final ThreadLocal<Operands> OPERANDS = ThreadLocal.withInitial(Operands::new);

  protected final CodeParameters params;
  protected final int k;
  protected final int m;
  protected final CodingMatrix parityMatrix;
  private final DecodePlans decodePlans = new DecodePlans();
  private volatile Plan encodePlan;
  /** Per data piece, the plan of its column of the parity matrix alone ({@link #start}); built when first used. */
  private final java.util.concurrent.atomic.AtomicReferenceArray<Plan> columnPlans;
  private volatile boolean closed;

  AbstractErasureCoder(CodeParameters params) {
    this.params = params;
    this.k = params.k();
    this.m = params.m();
    this.parityMatrix = CodingMatrix.cauchyParity(k, m);
    this.columnPlans = new java.util.concurrent.atomic.AtomicReferenceArray<>(k);
  }

  /** Builds this implementation's tables for a matrix. */
  abstract Object prepare(CodingMatrix matrix);

  /** out[r] = sum_c matrix[r][c] * in[c], for {@code len} bytes. */
  abstract void code(Plan plan, Operands ops, int len);

  /** out[r] ^= matrix[r][column] * in[0], for {@code len} bytes (the encode plan). */
  abstract void accumulate(Plan plan, int column, Operands ops, int len);

  /** Releases implementation resources once. */
  void release() {
  }

  @Override
  public CodeParameters parameters() {
    return params;
  }

  @Override
  public final void close() {
    if (!closed) {
      closed = true;
      encodePlan = null;
      for (int i = 0; i < k; i++) {
        columnPlans.set(i, null);
      }
      decodePlans.clear();
      release();
    }
  }

  final void checkOpen() {
    if (closed) {
      throw new IllegalStateException(implementation() + " coder for " + params + " is closed");
    }
  }

  private Plan encodePlan() {
    Plan p = encodePlan;
    if (p == null) {
      int[] inputs = new int[k];
      for (int i = 0; i < k; i++) {
        inputs[i] = i;
      }
      p = new Plan(-1, parityMatrix, inputs, prepare(parityMatrix));
      encodePlan = p;
    }
    return p;
  }

  // --- encode --------------------------------------------------------------------

  @Override
  public void encode(ByteBuffer[] data, ByteBuffer[] parity) {
    checkOpen();
    checkCount("data", data, k, "k");
    checkCount("parity", parity, m, "m");
    int len = inputLength("data", data, null);
    checkOutputs("parity", parity, len);
    Plan plan = encodePlan();
    Operands ops = OPERANDS.get();
    try {
      for (int c = 0; c < k; c++) {
        setIn(ops, c, data[c]);
      }
      for (int r = 0; r < m; r++) {
        setOut(ops, r, parity[r]);
      }
      if (len > 0) {
        code(plan, ops, len);
      }
    } finally {
      ops.clear();
    }
  }

  @Override
  public void encode(byte[][] data, int dataOffset, byte[][] parity, int parityOffset, int length) {
    checkOpen();
    checkCount("data", data, k, "k");
    checkCount("parity", parity, m, "m");
    checkLength(length);
    for (int c = 0; c < k; c++) {
      checkRange("data", c, data[c], dataOffset, length);
    }
    for (int r = 0; r < m; r++) {
      checkRange("parity", r, parity[r], parityOffset, length);
    }
    Plan plan = encodePlan();
    Operands ops = OPERANDS.get();
    try {
      for (int c = 0; c < k; c++) {
        ops.inBase[c] = data[c];
        ops.inOff[c] = dataOffset;
      }
      for (int r = 0; r < m; r++) {
        ops.outBase[r] = parity[r];
        ops.outOff[r] = parityOffset;
      }
      if (length > 0) {
        code(plan, ops, length);
      }
    } finally {
      ops.clear();
    }
  }

  // --- update --------------------------------------------------------------------

  @Override
  public void update(int dataIndex, ByteBuffer data, ByteBuffer[] parity) {
    checkOpen();
    checkDataIndex(dataIndex);
    if (data == null) {
      throw new IllegalArgumentException("data is null");
    }
    checkCount("parity", parity, m, "m");
    int len = data.remaining();
    checkOutputs("parity", parity, len);
    Plan plan = encodePlan();
    Operands ops = OPERANDS.get();
    try {
      setIn(ops, 0, data);
      for (int r = 0; r < m; r++) {
        setOut(ops, r, parity[r]);
      }
      if (len > 0) {
        accumulate(plan, dataIndex, ops, len);
      }
    } finally {
      ops.clear();
    }
  }

  @Override
  public void update(int dataIndex, byte[] data, int dataOffset, byte[][] parity, int parityOffset,
      int length) {
    foldArrays(false, dataIndex, data, dataOffset, parity, parityOffset, length);
  }

  @Override
  public void start(int dataIndex, byte[] data, int dataOffset, byte[][] parity, int parityOffset, int length) {
    foldArrays(true, dataIndex, data, dataOffset, parity, parityOffset, length);
  }

  /** {@link #update} on arrays, or with {@code set} {@link #start}: the checks, then the kernel. */
  private void foldArrays(boolean set, int dataIndex, byte[] data, int dataOffset, byte[][] parity,
      int parityOffset, int length) {
    checkOpen();
    checkDataIndex(dataIndex);
    checkLength(length);
    checkRange("data", -1, data, dataOffset, length);
    checkCount("parity", parity, m, "m");
    for (int r = 0; r < m; r++) {
      checkRange("parity", r, parity[r], parityOffset, length);
    }
    Plan plan = set ? columnPlan(dataIndex) : encodePlan();
    Operands ops = OPERANDS.get();
    try {
      ops.inBase[0] = data;
      ops.inOff[0] = dataOffset;
      for (int r = 0; r < m; r++) {
        ops.outBase[r] = parity[r];
        ops.outOff[r] = parityOffset;
      }
      if (length > 0) {
        if (set) {
          code(plan, ops, length);
        } else {
          accumulate(plan, dataIndex, ops, length);
        }
      }
    } finally {
      ops.clear();
    }
  }

  /** The plan of data piece {@code i}'s column of the parity matrix alone; built when first used. */
  private Plan columnPlan(int i) {
    Plan plan = columnPlans.get(i);
    if (plan == null) {
      CodingMatrix column = parityMatrix.column(i);
      plan = new Plan(-2 - i, column, new int[] {i}, prepare(column));
      columnPlans.set(i, plan); // two threads may both build it: either is right
    }
    return plan;
  }

  // --- decode --------------------------------------------------------------------

  @Override
  public void decode(ByteBuffer[] pieces, int[] erased, ByteBuffer[] outputs) {
    checkOpen();
    checkPieces(pieces == null ? -1 : pieces.length, pieces);
    Plan plan = decodePlan(pieces, erased, outputs == null ? -1 : outputs.length);
    int len = -1;
    for (int c = 0; c < k; c++) {
      ByteBuffer b = pieces[plan.inputs[c]];
      if (len < 0) {
        len = b.remaining();
      } else if (b.remaining() != len) {
        throw new IllegalArgumentException("pieces[" + plan.inputs[c] + "] has " + b.remaining()
            + " bytes, pieces[" + plan.inputs[0] + "] has " + len);
      }
    }
    checkOutputs("outputs", outputs, len);
    Operands ops = OPERANDS.get();
    try {
      for (int c = 0; c < k; c++) {
        setIn(ops, c, pieces[plan.inputs[c]]);
      }
      for (int r = 0; r < erased.length; r++) {
        setOut(ops, r, outputs[r]);
      }
      if (len > 0 && erased.length > 0) {
        code(plan, ops, len);
      }
    } finally {
      ops.clear();
    }
  }

  @Override
  public void decode(byte[][] pieces, int offset, int[] erased, byte[][] outputs, int outputOffset,
      int length) {
    checkOpen();
    checkLength(length);
    checkPieces(pieces == null ? -1 : pieces.length, pieces);
    Plan plan = decodePlan(pieces, erased, outputs == null ? -1 : outputs.length);
    for (int c = 0; c < k; c++) {
      checkRange("pieces", plan.inputs[c], pieces[plan.inputs[c]], offset, length);
    }
    for (int r = 0; r < erased.length; r++) {
      checkRange("outputs", r, outputs[r], outputOffset, length);
    }
    Operands ops = OPERANDS.get();
    try {
      for (int c = 0; c < k; c++) {
        ops.inBase[c] = pieces[plan.inputs[c]];
        ops.inOff[c] = offset;
      }
      for (int r = 0; r < erased.length; r++) {
        ops.outBase[r] = outputs[r];
        ops.outOff[r] = outputOffset;
      }
      if (length > 0 && erased.length > 0) {
        code(plan, ops, length);
      }
    } finally {
      ops.clear();
    }
  }

  private void checkPieces(int n, Object[] pieces) {
    if (pieces == null) {
      throw new IllegalArgumentException("pieces is null");
    }
    if (n != k + m) {
      throw new IllegalArgumentException("pieces has " + n + " entries, k + m = " + (k + m)
          + " (null for a missing piece)");
    }
  }

  /** Validates the erasure pattern and returns its (cached) plan. */
  private Plan decodePlan(Object[] pieces, int[] erased, int outputs) {
    if (erased == null) {
      throw new IllegalArgumentException("erased is null");
    }
    if (outputs != erased.length) {
      throw new IllegalArgumentException("outputs has " + (outputs < 0 ? "null" : outputs + " entries")
          + ", erased names " + erased.length + " pieces");
    }
    long erasedMask = 0;
    for (int i = 0; i < erased.length; i++) {
      int e = erased[i];
      if (e < 0 || e >= k + m) {
        throw new IllegalArgumentException("erased[" + i + "] = " + e + " is out of range [0, " + (k + m) + ")");
      }
      if ((erasedMask & (1L << e)) != 0) {
        throw new IllegalArgumentException("erased index " + e + " is given twice");
      }
      if (pieces[e] != null) {
        throw new IllegalArgumentException("erased index " + e + " is available in pieces;"
            + " pass null for every piece to rebuild");
      }
      erasedMask |= 1L << e;
    }
    long survivors = 0;
    int found = 0;
    for (int i = 0; i < k + m && found < k; i++) {
      if (pieces[i] != null) {
        survivors |= 1L << i;
        found++;
      }
    }
    if (found < k) {
      throw new IllegalArgumentException("too few survivors: " + found + " of the " + (k + m)
          + " pieces are available, k = " + k + " are needed");
    }
    long key = DecodePlans.key(survivors, erased);
    Plan plan = decodePlans.get(key);
    if (plan == null) {
      int[] inputs = new int[k];
      int n = 0;
      for (int i = 0; i < k + m; i++) {
        if ((survivors & (1L << i)) != 0) {
          inputs[n++] = i;
        }
      }
      CodingMatrix dm = CodingMatrix.decoding(parityMatrix, inputs, erased.clone());
      plan = new Plan(key, dm, inputs, prepare(dm));
      decodePlans.put(plan);
    }
    return plan;
  }

  // --- checks --------------------------------------------------------------------

  private void checkDataIndex(int dataIndex) {
    if (dataIndex < 0 || dataIndex >= k) {
      throw new IllegalArgumentException("dataIndex must be in [0, " + k + "), got " + dataIndex);
    }
  }

  private static void checkCount(String name, Object[] a, int want, String what) {
    if (a == null) {
      throw new IllegalArgumentException(name + " is null");
    }
    if (a.length != want) {
      throw new IllegalArgumentException(name + " has " + a.length + " entries, " + what + " = " + want);
    }
    for (int i = 0; i < a.length; i++) {
      if (a[i] == null) {
        throw new IllegalArgumentException(name + "[" + i + "] is null");
      }
    }
  }

  private static void checkLength(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("length must be >= 0, got " + length);
    }
  }

  /** {@code name[index]} (or just {@code name} when index < 0) must hold [offset, offset + length). */
  private static void checkRange(String name, int index, byte[] a, int offset, int length) {
    // The message is built only on failure: a valid call allocates nothing.
    if (a == null) {
      throw new IllegalArgumentException(label(name, index) + " is null");
    }
    if (offset < 0 || offset > a.length || a.length - offset < length) {
      throw new IllegalArgumentException(label(name, index) + " is too short: offset " + offset + " + length "
          + length + " > " + a.length + " bytes");
    }
  }

  private static String label(String name, int index) {
    return index < 0 ? name : name + "[" + index + "]";
  }

  /** All inputs must have the same remaining() bytes; returns it. */
  private static int inputLength(String name, ByteBuffer[] in, int[] which) {
    int len = in[0].remaining();
    for (int i = 1; i < in.length; i++) {
      if (in[i].remaining() != len) {
        throw new IllegalArgumentException(name + "[" + i + "] has " + in[i].remaining() + " bytes, "
            + name + "[0] has " + len);
      }
    }
    return len;
  }

  private static void checkOutputs(String name, ByteBuffer[] out, int len) {
    if (out == null) {
      throw new IllegalArgumentException(name + " is null");
    }
    for (int i = 0; i < out.length; i++) {
      if (out[i] == null) {
        throw new IllegalArgumentException(name + "[" + i + "] is null");
      }
      if (out[i].isReadOnly()) {
        throw new IllegalArgumentException(name + "[" + i + "] is read-only");
      }
      if (out[i].remaining() < len) {
        throw new IllegalArgumentException(name + "[" + i + "] has room for " + out[i].remaining()
            + " bytes, needs " + len);
      }
    }
  }

  private static void setIn(Operands ops, int i, ByteBuffer b) {
    if (b.hasArray()) {
      ops.inBase[i] = b.array();
      ops.inOff[i] = b.arrayOffset() + b.position();
    } else {
      ops.inBase[i] = b;
      ops.inOff[i] = b.position();
    }
  }

  private static void setOut(Operands ops, int i, ByteBuffer b) {
    if (b.hasArray()) {
      ops.outBase[i] = b.array();
      ops.outOff[i] = b.arrayOffset() + b.position();
    } else {
      ops.outBase[i] = b;
      ops.outOff[i] = b.position();
    }
  }

  @Override
  public String toString() {
    return implementation() + " " + params;
  }
}
