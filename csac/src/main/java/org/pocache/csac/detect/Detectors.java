package org.pocache.csac.detect;

import java.util.Locale;

/** Detectors by configuration name: three-sigma (the paper's) and median-mad. */
public final class Detectors {
  private Detectors() {
  }

  /**
   * @throws IllegalArgumentException naming the key and the known names
   */
  public static StragglerDetector create(String key, String name, int minSamples, long sampleTtlMillis,
      long reportTtlMillis, double minFractionBelowMedian) {
    switch (name == null ? "" : name.trim().toLowerCase(Locale.ROOT)) {
      case "three-sigma":
        return new ThreeSigma(minSamples, sampleTtlMillis, reportTtlMillis);
      case "median-mad":
        return new MedianMad(minSamples, sampleTtlMillis, reportTtlMillis, minFractionBelowMedian);
      default:
        throw new IllegalArgumentException(key + ": unknown straggler detector '" + name
            + "'; known: three-sigma, median-mad");
    }
  }
}
