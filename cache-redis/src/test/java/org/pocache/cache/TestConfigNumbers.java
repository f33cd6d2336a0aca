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
package org.pocache.cache;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.junit.Test;

/** Units in numbers, as Hadoop's getLongBytes and getTimeDuration take them, and errors that name the key. */
public class TestConfigNumbers {
  @Test
  public void bytesTakeBinarySuffixes() {
    assertEquals(4096, ConfigNumbers.parse("x.bytes", "4096", 0, Long.MAX_VALUE));
    assertEquals(64 << 10, ConfigNumbers.parse("x.bytes", "64k", 0, Long.MAX_VALUE));
    assertEquals(1 << 20, ConfigNumbers.parse("x.bytes", "1M", 0, Long.MAX_VALUE));
    assertEquals(3L << 30, ConfigNumbers.parse("x.bytes", "3g", 0, Long.MAX_VALUE));
    assertEquals(2L << 40, ConfigNumbers.parse("x.bytes", "2tb", 0, Long.MAX_VALUE));
    bad("x.bytes", "1.5g", "x.bytes must be a number of bytes, optionally with a binary suffix");
    bad("x.bytes", "16e", "x.bytes = '16e' is more bytes than a long holds");
  }

  @Test
  public void millisecondsTakeTimeUnits() {
    assertEquals(500, ConfigNumbers.parse("x.ms", "500", 0, Long.MAX_VALUE));
    assertEquals(500, ConfigNumbers.parse("x.ms", "500ms", 0, Long.MAX_VALUE));
    assertEquals(10_000, ConfigNumbers.parse("x.ms", "10s", 0, Long.MAX_VALUE));
    assertEquals(300_000, ConfigNumbers.parse("x.ms", "5m", 0, Long.MAX_VALUE));
    assertEquals(86_400_000, ConfigNumbers.parse("x.ms", "1d", 0, Long.MAX_VALUE));
    assertEquals(2, ConfigNumbers.parse("x.ms", "2500us", 0, Long.MAX_VALUE));
    bad("x.ms", "soon", "x.ms must be a number of milliseconds, optionally with a unit");
  }

  @Test
  public void otherNumbersArePlainAndRangesNameTheValueGiven() {
    assertEquals(16, ConfigNumbers.parse("x.threads", "16", 1, 64));
    bad("x.threads", "16k", "x.threads must be an integer, got '16k'");
    bad("x.bytes", "1k", 4096, 8192, "x.bytes must be in [4096, 8192], got 1024 ('1k')");
    bad("x.threads", "0", 1, 64, "x.threads must be in [1, 64], got 0");
  }

  private static void bad(String key, String value, String says) {
    bad(key, value, 0, Long.MAX_VALUE, says);
  }

  private static void bad(String key, String value, long min, long max, String says) {
    try {
      ConfigNumbers.parse(key, value, min, max);
      fail(key + " = " + value + " accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(says));
    }
  }
}
