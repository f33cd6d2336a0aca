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
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.Test;
import org.pocache.testkit.TestDirs;

/**
 * The baseline driver end to end on a small cluster: every mode, layout and
 * straggler state gets a row, every read is verified, and the JSON carries it all.
 * (Whether the straggler hurts is what `pocache demo` shows; no timing asserts here.)
 */
public class TestBaselineDriver {

  @Test
  public void producesEveryRowWithVerifiedBytes() throws Exception {
    File json = new File(TestDirs.fresh("baseline"), "baseline.json");
    BaselineDriver.Config c = BaselineDriver.Config.parse(new String[] {"--k", "3", "--files", "2",
        "--repeats", "1", "--write-repeats", "2", "--block-size", "1m", "--disk-bandwidth", "64m", "--write-size",
        "3m", "--json", json.getPath()});
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ResultTable t = BaselineDriver.run(c, new PrintStream(printed, true, "UTF-8"));

    assertTrue(t.bytesVerified());
    assertEquals(12, t.rows().size());
    for (boolean straggler : new boolean[] {false, true}) {
      for (String[] ml : new String[][] {{"vanilla", "contiguous"}, {"hr", "contiguous"},
          {"pr", "contiguous"}, {"vanilla", "striped"}, {"pocache", "contiguous"}, {"pocache", "striped"}}) {
        ResultTable.Row r = t.find(ml[0], ml[1], straggler);
        assertNotNull(ml[0] + "/" + ml[1] + "/" + straggler, r);
        assertEquals(2, r.stats.count());
        assertTrue(r.stats.mean() > 0);
        assertTrue(r.stats.percentile(50) <= r.stats.percentile(99));
      }
    }
    // Without-straggler rows come first.
    assertTrue(!t.rows().get(0).straggler && t.rows().get(11).straggler);

    String text = printed.toString("UTF-8");
    assertTrue(text, text.contains("mode      layout      straggler"));
    assertTrue(text, text.contains("bytes verified: yes"));
    String written = new String(Files.readAllBytes(json.toPath()), StandardCharsets.UTF_8);
    assertTrue(written, written.contains("\"bytes_verified\": true"));
    assertEquals(12, written.split("\"mode\":", -1).length - 1);
    // Every pocache read went through a proactive stream (the parity was cached first).
    assertTrue(written, written.matches("(?s).*\"pocache_proactive_opens\": [1-9][0-9]*.*"));
    assertTrue(written, written.contains("\"pocache_fallbacks\": 0"));
    // The write comparison: every POCache write (4 timed + 1 warm-up) cached its parity.
    assertTrue(written, written.matches("(?s).*\"write_overhead\": [0-9]+[.][0-9]+.*"));
    assertTrue(written, written.contains("\"write_files_cached\": 5"));
    assertTrue(written, written.contains("\"write_repeats\": 2"));
    // Each timed write's time per mode (2 files x 2 write repeats), whose sums make the ratio.
    String four = "\\[[0-9]+[.][0-9](, [0-9]+[.][0-9]){3}\\]";
    assertTrue(written, written.matches("(?s).*\"write_ms_vanilla\": " + four + ".*"));
    assertTrue(written, written.matches("(?s).*\"write_ms_pocache\": " + four + ".*"));
    // What the timed writes cost per file besides time: this JVM's CPU (positive), GC, redis-server's CPU.
    for (String mode : new String[] {"vanilla", "pocache"}) {
      assertTrue(written, written.matches("(?s).*\"write_jvm_cpu_ms_" + mode + "\": [1-9][0-9]*[.][0-9]+.*"));
      assertTrue(written, written.matches("(?s).*\"write_gc_ms_" + mode + "\": [0-9]+[.][0-9]+.*"));
      assertTrue(written, written.matches("(?s).*\"write_redis_cpu_ms_" + mode + "\": [0-9]+[.][0-9]+.*"));
    }
    assertTrue(written, written.contains("\"striped_policy\": \"RS-3-2-1024k\""));
    assertTrue(written, written.matches("(?s).*\"straggler_injected\": \"127\\.0\\.0\\.1:\\d+\".*"));
    assertTrue(written, written.matches("(?s).*\"stragglers_detected\": \\[[^]]*\\].*"));
    assertTrue(written, written.matches("(?s).*\"stragglers_injected_striped\": \\[\"127\\.0\\.0\\.1:\\d+\".*"));
    // Every row lists each read's latency, in order (2 files x 1 repeat here).
    assertTrue(written, written.matches("(?s).*\"latencies_ms\": \\[[0-9]+[.][0-9], [0-9]+[.][0-9]\\]\\}.*"));
  }
}
