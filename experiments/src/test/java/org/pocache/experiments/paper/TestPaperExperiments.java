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
package org.pocache.experiments.paper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import javax.imageio.ImageIO;
import org.junit.Test;
import org.pocache.testkit.TestDirs;

/**
 * Every experiment of {@code pocache experiment} at the tiny scale, so none of them rots:
 * it runs, verifies its bytes, writes JSON with its headline numbers and a readable PNG,
 * and the report has a section for it. (What the numbers are is for the small scale and
 * docs/results.md; nothing here asserts on time.)
 */
public class TestPaperExperiments {

  @Test
  public void everyExperimentRunsAtTheTinyScaleAndIsReported() throws Exception {
    File dir = TestDirs.fresh("paper-experiments");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(printed, true, "UTF-8");
    ObjectMapper json = new ObjectMapper();
    for (String id : PaperExperiments.BUILT.keySet()) {
      assertEquals(id, 0, PaperExperiments.run(new String[] {id, "--scale", "tiny", "--dir", dir.getPath()}, out));
      JsonNode r = json.readTree(new File(dir, id + ".json"));
      assertEquals(id, r.path("experiment").asText());
      assertEquals("tiny", r.path("scale").asText());
      assertTrue(id + " has no rows", r.path("rows").size() > 0);
      assertTrue(id + " has no headline", r.path("headline").size() > 0);
      for (JsonNode h : r.path("headline")) {
        assertTrue(id + ": " + h, h.path("ours").isNumber());
      }
      assertTrue(id + "'s figure is not a PNG", ImageIO.read(new File(dir, id + ".png")).getWidth() > 0);
    }
    File md = new File(dir, "results.md");
    Files.write(md.toPath(), Report.render(dir, dir, new File(dir, "none.json")).getBytes(StandardCharsets.UTF_8));
    String text = new String(Files.readAllBytes(md.toPath()), StandardCharsets.UTF_8);
    for (String id : PaperExperiments.BUILT.keySet()) {
      assertTrue(id + " missing from the report", text.contains("<a id=\"" + id + "\"></a>"));
      assertTrue(text.contains("(./" + id + ".png)") || text.contains("/" + id + ".png)"));
    }
    assertTrue(text, text.contains("| 14 | Latency of cache strategies | [below](#exp14) |"));
  }

  @Test
  public void anUnknownExperimentIsNamedInTheError() throws Exception {
    try {
      PaperExperiments.run(new String[] {"exp99"}, new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"));
      org.junit.Assert.fail("exp99 ran");
    } catch (org.pocache.experiments.UsageException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("exp99") && e.getMessage().contains("exp8"));
    }
  }
}
