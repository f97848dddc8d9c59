package dev.tailor.measure;

import java.util.Arrays;

/**
 * The time a request takes, estimated from repeated samples of it, and how far the samples spread.
 *
 * <p>Interference on a shared machine (another process on the same core, a garbage collection, a
 * timer interrupt, the JIT compiler recompiling) only ever lengthens a sample; nothing makes a
 * search faster than the search. So the estimate is the <em>lower-half mean</em>: the mean of the
 * fastest {@code ceil(n / 2)} samples. It ignores up to half the samples as outliers, like a
 * median, but averages the rest, so two estimates of the same query agree more closely than two
 * medians or two minimums of the same number of samples do.
 *
 * <p>The spread is the interquartile range over the estimate: 0 when the samples agree, 0.1 when
 * the middle half of them spans a tenth of the time.
 */
public final class RobustTime {

  private RobustTime() {}

  /**
   * The lower-half mean of the samples.
   *
   * @throws IllegalArgumentException if there are no samples
   */
  public static double estimate(long[] samples) {
    return lowerHalfMean(sorted(samples));
  }

  private static double lowerHalfMean(long[] sorted) {
    int half = (sorted.length + 1) / 2;
    double sum = 0;
    for (int i = 0; i < half; i++) {
      sum += sorted[i];
    }
    return sum / half;
  }

  /**
   * The interquartile range of the samples over their {@link #estimate}; 0 for fewer than two
   * samples.
   *
   * @throws IllegalArgumentException if there are no samples
   */
  public static double spread(long[] samples) {
    long[] sorted = sorted(samples);
    if (sorted.length < 2) {
      return 0;
    }
    double iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25);
    double estimate = lowerHalfMean(sorted);
    return estimate > 0 ? iqr / estimate : 0;
  }

  /** The {@code q}-quantile of sorted values, interpolated linearly between ranks. */
  static double quantile(long[] sorted, double q) {
    double rank = q * (sorted.length - 1);
    int low = (int) Math.floor(rank);
    int high = Math.min(sorted.length - 1, low + 1);
    return sorted[low] + (rank - low) * (sorted[high] - sorted[low]);
  }

  private static long[] sorted(long[] samples) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    long[] sorted = samples.clone();
    Arrays.sort(sorted);
    return sorted;
  }
}
