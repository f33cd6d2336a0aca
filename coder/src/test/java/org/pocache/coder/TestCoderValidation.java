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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * Bad input gets an exception naming the argument, for both coders and before any
 * native code runs: the ISA-L coder must never see a bad pointer.
 */
public class TestCoderValidation {

  private static List<ErasureCoder> coders(CodeParameters p) {
    List<ErasureCoder> l = new ArrayList<>();
    l.add(new JavaCoder(p));
    if (IsalCoder.isAvailable()) {
      l.add(new IsalCoder(p));
    }
    return l;
  }

  private interface Call {
    void run(ErasureCoder c);
  }

  private static void expect(Class<? extends RuntimeException> type, String message, Call call) {
    for (ErasureCoder c : coders(CodeParameters.of(4, 2))) {
      try {
        call.run(c);
        fail(c.implementation() + ": accepted, expected " + message);
      } catch (RuntimeException e) {
        assertEquals(c.implementation(), type, e.getClass());
        assertEquals(c.implementation(), message, e.getMessage());
      } finally {
        c.close();
      }
    }
  }

  private static ByteBuffer[] bufs(int n, int len) {
    ByteBuffer[] b = new ByteBuffer[n];
    for (int i = 0; i < n; i++) {
      b[i] = ByteBuffer.allocateDirect(len);
    }
    return b;
  }

  private static byte[][] arrays(int n, int len) {
    return new byte[n][len];
  }

  @Test
  public void wrongCountsAndNulls() {
    expect(IllegalArgumentException.class, "data has 3 entries, k = 4", c -> c.encode(bufs(3, 8), bufs(2, 8)));
    expect(IllegalArgumentException.class, "parity has 1 entries, m = 2", c -> c.encode(bufs(4, 8), bufs(1, 8)));
    expect(IllegalArgumentException.class, "data is null", c -> c.encode((ByteBuffer[]) null, bufs(2, 8)));
    expect(IllegalArgumentException.class, "data[1] is null", c -> {
      ByteBuffer[] d = bufs(4, 8);
      d[1] = null;
      c.encode(d, bufs(2, 8));
    });
  }

  @Test
  public void unequalOrShortBuffers() {
    expect(IllegalArgumentException.class, "data[2] has 7 bytes, data[0] has 8", c -> {
      ByteBuffer[] d = bufs(4, 8);
      d[2].limit(7);
      c.encode(d, bufs(2, 8));
    });
    expect(IllegalArgumentException.class, "parity[1] has room for 4 bytes, needs 8",
        c -> c.encode(bufs(4, 8), new ByteBuffer[] {ByteBuffer.allocate(8), ByteBuffer.allocate(4)}));
    expect(IllegalArgumentException.class, "parity[0] is read-only",
        c -> c.encode(bufs(4, 8), new ByteBuffer[] {ByteBuffer.allocate(8).asReadOnlyBuffer(),
            ByteBuffer.allocate(8)}));
    expect(IllegalArgumentException.class, "data[0] is too short: offset 4 + length 8 > 10 bytes",
        c -> c.encode(arrays(4, 10), 4, arrays(2, 8), 0, 8));
    expect(IllegalArgumentException.class, "parity[0] is too short: offset -1 + length 8 > 8 bytes",
        c -> c.encode(arrays(4, 8), 0, arrays(2, 8), -1, 8));
    expect(IllegalArgumentException.class, "length must be >= 0, got -8",
        c -> c.encode(arrays(4, 8), 0, arrays(2, 8), 0, -8));
    expect(IllegalArgumentException.class, "data is too short: offset 0 + length 9 > 8 bytes",
        c -> c.update(0, new byte[8], 0, arrays(2, 9), 0, 9));
  }

  @Test
  public void badIndexesAndTooFewSurvivors() {
    expect(IllegalArgumentException.class, "dataIndex must be in [0, 4), got 4",
        c -> c.update(4, ByteBuffer.allocate(8), bufs(2, 8)));
    expect(IllegalArgumentException.class, "dataIndex must be in [0, 4), got -1",
        c -> c.update(-1, new byte[8], 0, arrays(2, 8), 0, 8));
    expect(IllegalArgumentException.class, "pieces has 5 entries, k + m = 6 (null for a missing piece)",
        c -> c.decode(bufs(5, 8), new int[] {0}, bufs(1, 8)));
    expect(IllegalArgumentException.class, "erased[0] = 6 is out of range [0, 6)", c -> {
      ByteBuffer[] p = bufs(6, 8);
      c.decode(p, new int[] {6}, bufs(1, 8));
    });
    expect(IllegalArgumentException.class, "erased index 1 is available in pieces; pass null for every"
        + " piece to rebuild", c -> c.decode(bufs(6, 8), new int[] {1}, bufs(1, 8)));
    expect(IllegalArgumentException.class, "erased index 0 is given twice", c -> {
      ByteBuffer[] p = bufs(6, 8);
      p[0] = null;
      c.decode(p, new int[] {0, 0}, bufs(2, 8));
    });
    expect(IllegalArgumentException.class, "too few survivors: 3 of the 6 pieces are available, k = 4 are"
        + " needed", c -> {
          ByteBuffer[] p = bufs(6, 8);
          p[0] = null;
          p[2] = null;
          p[5] = null;
          c.decode(p, new int[] {0}, bufs(1, 8));
        });
    expect(IllegalArgumentException.class, "outputs has 1 entries, erased names 2 pieces", c -> {
      ByteBuffer[] p = bufs(6, 8);
      p[0] = null;
      p[1] = null;
      c.decode(p, new int[] {0, 1}, bufs(1, 8));
    });
    expect(IllegalArgumentException.class, "pieces[3] has 7 bytes, pieces[1] has 8", c -> {
      ByteBuffer[] p = bufs(6, 8);
      p[0] = null;
      p[3].limit(7);
      c.decode(p, new int[] {0}, bufs(1, 8));
    });
  }

  @Test
  public void closedCoderRefusesWork() {
    expect(IllegalStateException.class, "java coder for RS(4,2) is closed", c -> {
      if (!c.implementation().equals("java")) {
        throw new IllegalStateException("java coder for RS(4,2) is closed"); // checked below for isal
      }
      c.close();
      c.close(); // idempotent
      c.encode(bufs(4, 8), bufs(2, 8));
    });
    if (IsalCoder.isAvailable()) {
      ErasureCoder c = new IsalCoder(CodeParameters.of(4, 2));
      c.close();
      try {
        c.decode(bufs(6, 8), new int[0], new ByteBuffer[0]);
        fail();
      } catch (IllegalStateException e) {
        assertEquals("isal coder for RS(4,2) is closed", e.getMessage());
      }
    }
  }

  @Test
  public void coderKindIsParsedStrictly() {
    assertEquals(CoderKind.AUTO, CoderKind.parse(" Auto "));
    assertEquals(CoderKind.ISAL, CoderKind.parse("isal"));
    assertEquals(CoderKind.JAVA, CoderKind.parse("JAVA"));
    try {
      CoderKind.parse("isa-l");
      fail();
    } catch (IllegalArgumentException e) {
      assertEquals("coder must be one of auto, isal, java; got 'isa-l'", e.getMessage());
    }
  }
}
