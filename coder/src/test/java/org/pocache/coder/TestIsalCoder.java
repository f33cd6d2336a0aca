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

import static org.junit.Assert.assertArrayEquals;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.Assume;
import org.junit.Before;
import org.junit.Test;

/**
 * The coder properties for the ISA-L coder, plus ISA-L == Java on the same input.
 * Skipped, with the reason, when ISA-L is not loaded (libisal-dev missing at build
 * time or libisal.so.2 missing at run time); `scripts/pocache test` installs it.
 */
public class TestIsalCoder extends AbstractCoderPropertyTest {
  @Before
  public void needsIsal() {
    Assume.assumeTrue("ISA-L not available: " + IsalCoder.status(), IsalCoder.isAvailable());
  }

  @Override
  ErasureCoder newCoder(CodeParameters p) {
    return new IsalCoder(p);
  }

  @Test
  public void isalEqualsJavaForEncodeUpdateAndDecode() {
    Random r = new Random(606);
    for (int trial = 0; trial < 40; trial++) {
      CodeParameters p = CodeParameters.of(2 + r.nextInt(31), 1 + r.nextInt(4));
      int len = 1 + r.nextInt(100_000);
      byte[][] data = CoderTesting.randomPieces(p.k(), len, r);
      try (ErasureCoder isal = new IsalCoder(p); ErasureCoder java = new JavaCoder(p)) {
        byte[][] a = new byte[p.m()][len];
        byte[][] b = new byte[p.m()][len];
        isal.encode(data, 0, a, 0, len);
        java.encode(data, 0, b, 0, len);
        for (int i = 0; i < p.m(); i++) {
          assertArrayEquals(a[i], b[i]);
        }
        int lost = r.nextInt(p.k());
        ByteBuffer[] pieces = new ByteBuffer[p.k() + p.m()];
        for (int i = 0; i < p.k(); i++) {
          pieces[i] = i == lost ? null : ByteBuffer.allocateDirect(len).put(data[i]);
          if (pieces[i] != null) {
            pieces[i].flip();
          }
        }
        pieces[p.k()] = ByteBuffer.wrap(a[0]);
        ByteBuffer outIsal = ByteBuffer.allocateDirect(len);
        ByteBuffer outJava = ByteBuffer.allocate(len);
        isal.decode(pieces, new int[] {lost}, new ByteBuffer[] {outIsal});
        java.decode(pieces, new int[] {lost}, new ByteBuffer[] {outJava});
        assertArrayEquals(data[lost], CoderTesting.contents(outIsal, len));
        assertArrayEquals(data[lost], CoderTesting.contents(outJava, len));
      }
    }
  }
}
