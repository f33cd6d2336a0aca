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
