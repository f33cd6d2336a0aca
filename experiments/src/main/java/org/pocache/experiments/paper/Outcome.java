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

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One experiment's result as JSON: what ran (scale and configuration), every row
 * measured (latencies included), and the headline numbers set beside the paper's,
 * which {@code pocache report} turns into docs/results.md.
 */
final class Outcome {
  private final Map<String, Object> root = new LinkedHashMap<>();
  private final Map<String, Object> config = new LinkedHashMap<>();
  private final List<Map<String, Object>> headline = new ArrayList<>();
  private final List<Map<String, Object>> rows = new ArrayList<>();

  Outcome(String id, String title, String paperSetup, String scaledAs) {
    root.put("experiment", id);
    root.put("title", title);
    root.put("paper_setup", paperSetup);
    root.put("scaled_as", scaledAs);
    root.put("config", config);
    root.put("headline", headline);
    root.put("rows", rows);
  }

  Outcome config(String key, Object value) {
    config.put(key, value);
    return this;
  }

  /**
   * A number to set beside the paper's: {@code paperLow}..{@code paperHigh} (equal for
   * one number; NaN where the paper gives none), ours, and the unit both are in.
   */
  Outcome headline(String metric, String paperText, double paperLow, double paperHigh, double ours, String unit) {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("metric", metric);
    h.put("paper", paperText);
    h.put("paper_low", Double.isNaN(paperLow) ? null : paperLow);
    h.put("paper_high", Double.isNaN(paperHigh) ? null : paperHigh);
    h.put("ours", Double.isFinite(ours) ? ours : null);
    h.put("unit", unit);
    headline.add(h);
    return this;
  }

  Map<String, Object> row() {
    Map<String, Object> r = new LinkedHashMap<>();
    rows.add(r);
    return r;
  }

  void put(String key, Object value) {
    root.put(key, value);
  }

  void write(File json) throws IOException {
    File parent = json.getAbsoluteFile().getParentFile();
    if (parent != null) {
      Files.createDirectories(parent.toPath());
    }
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json, root);
  }
}
