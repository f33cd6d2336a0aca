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

import java.util.HashSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/** Both: alternates between the recency and the frequency rankings, skipping repeats. */
public final class RecencyFrequencyPrediction implements PredictionPolicy {
  private final RecencyPrediction recency;
  private final FrequencyPrediction frequency;

  public RecencyFrequencyPrediction(int historySize) {
    recency = new RecencyPrediction(historySize);
    frequency = new FrequencyPrediction(historySize);
  }

  @Override
  public String name() {
    return "recency-frequency";
  }

  @Override
  public void record(long fileId) {
    recency.record(fileId);
    frequency.record(fileId);
  }

  @Override
  public void forget(long fileId) {
    recency.forget(fileId);
    frequency.forget(fileId);
  }

  @Override
  public Iterator<Long> candidates() {
    Iterator<Long> a = recency.candidates();
    Iterator<Long> b = frequency.candidates();
    Set<Long> seen = new HashSet<>();
    return new Iterator<Long>() {
      boolean turnA = true;
      Long next = advance();

      private Long advance() {
        for (int tries = 0; tries < 2; ) {
          Iterator<Long> it = turnA ? a : b;
          turnA = !turnA;
          while (it.hasNext()) {
            Long id = it.next();
            if (seen.add(id)) {
              return id;
            }
          }
          tries++;
        }
        return null;
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public Long next() {
        if (next == null) {
          throw new NoSuchElementException();
        }
        Long r = next;
        next = advance();
        return r;
      }
    };
  }
}
