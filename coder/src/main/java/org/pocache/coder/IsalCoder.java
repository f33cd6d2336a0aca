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
 * The coder on ISA-L: ec_encode_data for encode and decode, ec_encode_data_update
 * for incremental encoding. Coding tables (ec_init_tables) are built once per plan
 * into direct buffers. Operands are direct ByteBuffers or arrays, passed without
 * copying; a read-only heap buffer (no array to pin) goes through the Java kernel.
 */
public final class IsalCoder extends AbstractErasureCoder {

  /**
   * @throws IllegalStateException saying why if ISA-L is not loaded
   */
  public IsalCoder(CodeParameters params) {
    super(params);
    if (!IsalNative.isAvailable()) {
      throw new IllegalStateException("ISA-L is not available: " + IsalNative.failure());
    }
  }

  /** Whether the ISA-L library is loaded in this JVM. */
  public static boolean isAvailable() {
    return IsalNative.isAvailable();
  }

  /** Where ISA-L was loaded from, or why it was not. */
  public static String status() {
    return IsalNative.isAvailable() ? IsalNative.loadedFrom() : IsalNative.failure();
  }

  @Override
  public String implementation() {
    return "isal";
  }

  @Override
  Object prepare(CodingMatrix matrix) {
    ByteBuffer tables = ByteBuffer.allocateDirect(32 * matrix.rows() * matrix.cols());
    IsalNative.initTables(matrix.cols(), matrix.rows(), matrix.toBytes(), tables);
    return tables;
  }

  @Override
  void code(Plan plan, Operands ops, int len) {
    int rows = plan.matrix.rows();
    int cols = plan.matrix.cols();
    if (pinnable(ops.inBase, cols) && pinnable(ops.outBase, rows)) {
      IsalNative.encode(len, cols, rows, (ByteBuffer) plan.tables, ops.inBase, ops.inOff, ops.outBase,
          ops.outOff);
    } else {
      JavaKernel.code(plan.matrix, ops, len);
    }
  }

  @Override
  void accumulate(Plan plan, int column, Operands ops, int len) {
    int rows = plan.matrix.rows();
    if (pinnable(ops.inBase, 1) && pinnable(ops.outBase, rows)) {
      IsalNative.update(len, plan.matrix.cols(), rows, column, (ByteBuffer) plan.tables, ops.inBase[0],
          ops.inOff[0], ops.outBase, ops.outOff);
    } else {
      JavaKernel.accumulate(plan.matrix, column, ops, len);
    }
  }

  /** True if each of the first n operands is a byte[] or a direct buffer. */
  private static boolean pinnable(Object[] bases, int n) {
    for (int i = 0; i < n; i++) {
      Object b = bases[i];
      if (!(b instanceof byte[]) && !((ByteBuffer) b).isDirect()) {
        return false;
      }
    }
    return true;
  }
}
