package org.pocache.coder;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class TestCodeParameters {
  @Test
  public void acceptsTheSupportedRange() {
    for (int k = CodeParameters.MIN_K; k <= CodeParameters.MAX_K; k++) {
      for (int m = CodeParameters.MIN_M; m <= CodeParameters.MAX_M; m++) {
        CodeParameters p = CodeParameters.of(k, m);
        assertEquals(k + m, p.width());
        assertEquals((double) m / k, p.overhead(), 0);
      }
    }
    assertEquals(CodeParameters.of(4, 1), CodeParameters.of(4, 1));
    assertNotEquals(CodeParameters.of(4, 1), CodeParameters.of(4, 2));
    assertEquals("RS(6,3)", CodeParameters.of(6, 3).toString());
  }

  @Test
  public void rejectsEachBadValueByName() {
    expect(1, 1, "k (data pieces) must be in [2, 32], got 1");
    expect(33, 1, "k (data pieces) must be in [2, 32], got 33");
    expect(4, 0, "m (parity pieces) must be in [1, 4], got 0");
    expect(4, 5, "m (parity pieces) must be in [1, 4], got 5");
  }

  private static void expect(int k, int m, String message) {
    try {
      CodeParameters.of(k, m);
      fail("accepted k=" + k + " m=" + m);
    } catch (IllegalArgumentException e) {
      assertEquals(message, e.getMessage());
    }
  }
}
