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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The more often a file was read, the sooner it is read again. Counts are halved
 * every {@code historySize} reads (aging) and files whose count falls to zero are
 * forgotten, which bounds the memory. Sorting happens only when candidates are
 * asked for (a prefetch), not on reads.
 */
public final class FrequencyPrediction implements PredictionPolicy {
  private final Map<Long, Integer> counts = new HashMap<>();
  private final int historySize;
  private long reads;

  public FrequencyPrediction(int historySize) {
    if (historySize <= 0) {
      throw new IllegalArgumentException("prediction history size must be > 0, got " + historySize);
    }
    this.historySize = historySize;
  }

  @Override
  public String name() {
    return "frequency";
  }

  @Override
  public void record(long fileId) {
    counts.merge(fileId, 1, Integer::sum);
    if (++reads >= historySize || counts.size() > historySize) {
      reads = 0;
      counts.replaceAll((id, c) -> c / 2);
      counts.values().removeIf(c -> c == 0);
    }
  }

  @Override
  public void forget(long fileId) {
    counts.remove(fileId);
  }

  @Override
  public Iterator<Long> candidates() {
    List<Map.Entry<Long, Integer>> e = new ArrayList<>(counts.entrySet());
    e.sort((a, b) -> Integer.compare(b.getValue(), a.getValue()));
    List<Long> ids = new ArrayList<>(e.size());
    for (Map.Entry<Long, Integer> x : e) {
      ids.add(x.getKey());
    }
    return ids.iterator();
  }
}
