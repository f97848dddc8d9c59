package dev.tailor.measure;

import java.util.Arrays;

/**
 * The median of a sample: its middle value, or the mean of the middle two for an even count. The
 * summaries of repeated runs (a calibration's fits, the benchmarks' paired rounds, the studies'
 * cells) take it where one slow run must not move the figure.
 */
public final class Median {

  private Median() {}

  /**
   * The median of {@code values}, which are left as they are.
   *
   * @throws IllegalArgumentException if there are none
   */
  public static double of(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("the median of no values");
    }
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
