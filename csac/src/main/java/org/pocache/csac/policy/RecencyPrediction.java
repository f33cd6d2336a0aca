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

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The paper's prediction: the more recently a file was read, the sooner it is
 * read again. Remembers the last {@code historySize} distinct files.
 */
public final class RecencyPrediction implements PredictionPolicy {
  private final WeightedQueue recent = new WeightedQueue(); // front = most recent
  private final int historySize;

  /**
   * @param historySize how many distinct files to remember
   */
  public RecencyPrediction(int historySize) {
    if (historySize <= 0) {
      throw new IllegalArgumentException("prediction history size must be > 0, got " + historySize);
    }
    this.historySize = historySize;
  }

  @Override
  public String name() {
    return "recency";
  }

  @Override
  public void record(long fileId) {
    int h = recent.find(fileId);
    if (h >= 0) {
      recent.moveToFront(h);
      return;
    }
    recent.pushFront(fileId, 0, 0);
    if (recent.size() > historySize) {
      recent.popBack();
    }
  }

  @Override
  public void forget(long fileId) {
    recent.remove(fileId);
  }

  @Override
  public Iterator<Long> candidates() {
    // Newest first: walk from the back towards the front of a snapshot taken now.
    long[] ids = new long[recent.size()];
    int n = 0;
    for (int h = recent.back(); h >= 0; h = recent.newer(h)) {
      ids[n++] = recent.id(h);
    }
    return new Iterator<Long>() {
      int i = ids.length - 1;

      @Override
      public boolean hasNext() {
        return i >= 0;
      }

      @Override
      public Long next() {
        if (i < 0) {
          throw new NoSuchElementException();
        }
        return ids[i--];
      }
    };
  }
}
