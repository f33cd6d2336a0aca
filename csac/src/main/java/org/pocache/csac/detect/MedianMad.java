package org.pocache.csac.detect;

import java.util.Arrays;

/**
 * A robust rule, like Hadoop's own slow-node OutlierDetector: a DataNode is a
 * straggler if its rate is below median - 3 x 1.4826 x MAD (1.4826 makes the
 * median absolute deviation a consistent estimate of sigma for normal data) and
 * also at least {@code minFractionBelowMedian} below the median, so tiny spreads
 * (MAD near zero) do not flag normal jitter. One far-out straggler does not drag
 * the median the way it drags the mean, so it is found among few DataNodes too.
 */
public final class MedianMad extends AbstractDetector {
  private final double minFractionBelowMedian;

  /**
   * @throws IllegalArgumentException if the fraction is outside (0, 1)
   */
  public MedianMad(int minSamples, long sampleTtlMillis, long reportTtlMillis, double minFractionBelowMedian) {
    super(minSamples, sampleTtlMillis, reportTtlMillis);
    if (!(minFractionBelowMedian > 0 && minFractionBelowMedian < 1)) {
      throw new IllegalArgumentException("minimum fraction below the median must be in (0, 1), got "
          + minFractionBelowMedian);
    }
    this.minFractionBelowMedian = minFractionBelowMedian;
  }

  @Override
  public String name() {
    return "median-mad";
  }

  @Override
  boolean[] flag(double[] rates) {
    double median = median(rates.clone());
    double[] dev = new double[rates.length];
    for (int i = 0; i < rates.length; i++) {
      dev[i] = Math.abs(rates[i] - median);
    }
    double mad = median(dev);
    double threshold = Math.min(median - 3 * 1.4826 * mad, (1 - minFractionBelowMedian) * median);
    boolean[] out = new boolean[rates.length];
    for (int i = 0; i < rates.length; i++) {
      out[i] = rates[i] < threshold;
    }
    return out;
  }

  static double median(double[] a) {
    Arrays.sort(a);
    int n = a.length;
    return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
  }
}
