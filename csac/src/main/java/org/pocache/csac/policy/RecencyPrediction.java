package org.pocache.csac.policy;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** The paper's prediction: the more recently a file was read, the sooner it is read again. */
public final class RecencyPrediction implements PredictionPolicy {
  private final LinkedHashMap<Long, Boolean> recent;

  /**
   * @param historySize how many distinct files to remember
   */
  public RecencyPrediction(int historySize) {
    if (historySize <= 0) {
      throw new IllegalArgumentException("prediction history size must be > 0, got " + historySize);
    }
    recent = new LinkedHashMap<Long, Boolean>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
        return size() > historySize;
      }
    };
  }

  @Override
  public String name() {
    return "recency";
  }

  @Override
  public void record(long fileId) {
    recent.put(fileId, Boolean.TRUE);
  }

  @Override
  public void forget(long fileId) {
    recent.remove(fileId);
  }

  @Override
  public Iterator<Long> candidates() {
    // LinkedHashMap iterates oldest first; hand out newest first.
    Long[] ids = recent.keySet().toArray(new Long[0]);
    return new Iterator<Long>() {
      int i = ids.length - 1;

      @Override
      public boolean hasNext() {
        return i >= 0;
      }

      @Override
      public Long next() {
        return ids[i--];
      }
    };
  }
}
