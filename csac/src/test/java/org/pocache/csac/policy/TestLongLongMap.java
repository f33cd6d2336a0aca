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
package org.pocache.csac.policy;

import static org.junit.Assert.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.Test;

/** The primitive map against java.util.HashMap under random puts and removes (which exercise backward shifts). */
public class TestLongLongMap {
  @Test
  public void behavesLikeAHashMap() {
    Random r = new Random(12);
    LongLongMap m = new LongLongMap();
    Map<Long, Long> ref = new HashMap<>();
    for (int i = 0; i < 300_000; i++) {
      long k = r.nextInt(5000) * (r.nextBoolean() ? 1L : 4096L); // collide on purpose
      switch (r.nextInt(3)) {
        case 0: {
          long v = r.nextLong() & Long.MAX_VALUE;
          Long old = ref.put(k, v);
          assertEquals(old == null ? -7 : old, m.put(k, v, -7));
          break;
        }
        case 1: {
          Long old = ref.remove(k);
          assertEquals(old == null ? -7 : old, m.remove(k, -7));
          break;
        }
        default:
          assertEquals(ref.getOrDefault(k, -7L).longValue(), m.get(k, -7));
          break;
      }
      assertEquals(ref.size(), m.size());
    }
    long[] n = {0};
    m.forEach((k, v) -> {
      assertEquals(ref.get(k).longValue(), v);
      return n[0]++;
    });
    assertEquals(ref.size(), n[0]);
  }

  @Test(expected = IllegalArgumentException.class)
  public void negativeKeysAreRejected() {
    new LongLongMap().put(-1, 0, 0);
  }
}
