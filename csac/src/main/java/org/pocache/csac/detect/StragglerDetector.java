package org.pocache.csac.detect;

import java.util.Set;

/**
 * Turns per-DataNode service rates (bytes served / service time, one sample per
 * DataNode per interval) into CSAC's straggler list S.
 */
public interface StragglerDetector {
  /**
   * One interval of a DataNode: it served {@code bytes} in {@code serviceMillis}
   * of service time. An interval with no bytes or no time is not a sample.
   *
   * @throws IllegalArgumentException for a negative count or time
   */
  void report(String dataNode, long bytes, double serviceMillis, long nowMillis);

  /** The DataNodes considered stragglers now. */
  Set<String> stragglers(long nowMillis);

  String name();
}
