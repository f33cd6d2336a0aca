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

/**
 * The pure-Java coder: byte-identical to the ISA-L one, used when libisal is
 * missing and as its cross-check in tests.
 */
public final class JavaCoder extends AbstractErasureCoder {
  public JavaCoder(CodeParameters params) {
    super(params);
  }

  @Override
  public String implementation() {
    return "java";
  }

  @Override
  Object prepare(CodingMatrix matrix) {
    return null; // the kernel reads GaloisField's shared multiplication tables directly
  }

  @Override
  void code(Plan plan, Operands ops, int len) {
    JavaKernel.code(plan.matrix, ops, len);
  }

  @Override
  void accumulate(Plan plan, int column, Operands ops, int len) {
    JavaKernel.accumulate(plan.matrix, column, ops, len);
  }
}
