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
