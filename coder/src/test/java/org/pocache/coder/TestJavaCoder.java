package org.pocache.coder;

/** The coder properties for the pure-Java coder. */
public class TestJavaCoder extends AbstractCoderPropertyTest {
  @Override
  ErasureCoder newCoder(CodeParameters p) {
    return new JavaCoder(p);
  }
}
