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
package org.pocache.experiments;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.Arrays;
import java.util.List;
import org.junit.Test;

/** Command-line parsing: good input is read right, bad input names what was wrong. */
public class TestOptions {
  private static final List<String> VALUED = Arrays.asList("k", "block-size", "json");
  private static final List<String> FLAGS = Arrays.asList("help");

  @Test
  public void readsBothSpellingsAndSizes() throws Exception {
    Options o = Options.parse(new String[] {"--k", "6", "--block-size=8m", "--help"}, VALUED, FLAGS);
    assertEquals(6, o.intValue("k", 4, 2, 32));
    assertEquals(8L << 20, o.bytes("block-size", 0, 1));
    assertTrue(o.has("help"));
    assertEquals(4, Options.parse(new String[0], VALUED, FLAGS).intValue("k", 4, 2, 32));
    assertEquals(512L << 10, Options.parseBytes("512k"));
    assertEquals(1L << 30, Options.parseBytes("1G"));
    assertEquals(4096, Options.parseBytes("4096"));
  }

  @Test
  public void unknownRepeatedOrMalformedOptionsAreNamed() {
    expectUsage("unknown option --frobnicate", "--frobnicate", "1");
    expectUsage("option --k given twice", "--k", "3", "--k", "4");
    expectUsage("option --json needs a value", "--json");
    expectUsage("option --help takes no value", "--help=yes");
    expectUsage("unexpected argument 'demo'", "demo");
  }

  @Test
  public void valuesOutOfRangeAreNamed() throws Exception {
    Options o = Options.parse(new String[] {"--k", "1", "--block-size", "4x"}, VALUED, FLAGS);
    try {
      o.intValue("k", 4, 2, 32);
      fail();
    } catch (UsageException e) {
      assertEquals("--k must be in [2, 32], got 1", e.getMessage());
    }
    try {
      o.bytes("block-size", 0, 1);
      fail();
    } catch (UsageException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("--block-size must be a size"));
    }
  }

  @Test
  public void demoRejectsAStripedPolicyThatDoesNotMatchK() throws Exception {
    BaselineDriver.Config c = BaselineDriver.Config.parse(new String[] {"--k", "4",
        "--striped-policy", "RS-6-3-1024k"});
    try {
      c.parityOfStripedPolicy();
      fail();
    } catch (UsageException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("RS-6-3-1024k"));
    }
    assertEquals(3, BaselineDriver.Config.parse(new String[] {"--k", "6"}).parityOfStripedPolicy());
    assertEquals(2, BaselineDriver.Config.parse(new String[] {"--k", "4"}).parityOfStripedPolicy());
  }

  private static void expectUsage(String message, String... args) {
    try {
      Options.parse(args, VALUED, FLAGS);
      fail("accepted " + Arrays.toString(args));
    } catch (UsageException e) {
      assertEquals(message, e.getMessage());
    }
  }
}
