package dev.tailor.tables;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A work distribution as tail-control's threshold calculation takes it (Li et al., PPoPP'16, §4.1):
 * non-overlapping bins, each with the probability {@code p_i} of a request falling into it and the
 * largest work {@code w_i} of the requests in it, ascending; the probabilities sum to one.
 *
 * <p>Cut from measured works: when there are at most {@code maxBins} distinct works, every distinct
 * work is a bin of its own ({@code exact}); otherwise the bins are equally wide on a log scale
 * between the least and the greatest work ({@code log}), since a search workload's works span two
 * or three orders of magnitude and equal widths would spend the bins on the tail or blur the head.
 * Empty bins are left out.
 *
 * @param probabilities {@code p_i}, summing to one
 * @param maxWorkNanos {@code w_i}, strictly ascending
 * @param requests the works the distribution was cut from
 * @param binning {@code exact} or {@code log}
 */
public record WorkDistribution(
    double[] probabilities, long[] maxWorkNanos, int requests, String binning) {

  /**
   * Checks the bins.
   *
   * @throws IllegalArgumentException unless there is at least one bin, the works are positive and
   *     strictly ascending, and the probabilities are positive and sum to one
   */
  public WorkDistribution {
    if (probabilities.length == 0 || probabilities.length != maxWorkNanos.length) {
      throw new IllegalArgumentException("need one probability per bin and at least one bin");
    }
    double sum = 0;
    for (int i = 0; i < probabilities.length; i++) {
      if (!(probabilities[i] > 0) || maxWorkNanos[i] <= 0) {
        throw new IllegalArgumentException("bin " + i + ": need p > 0 and w > 0");
      }
      if (i > 0 && maxWorkNanos[i] <= maxWorkNanos[i - 1]) {
        throw new IllegalArgumentException("bin works must ascend, bin " + i + " does not");
      }
      sum += probabilities[i];
    }
    if (Math.abs(sum - 1) > 1e-9) {
      throw new IllegalArgumentException("bin probabilities sum to " + sum + ", not 1");
    }
    probabilities = probabilities.clone();
    maxWorkNanos = maxWorkNanos.clone();
  }

  /**
   * The distribution of {@code works}, in at most {@code maxBins} bins.
   *
   * @throws IllegalArgumentException if there is no work, a work is not positive, or {@code maxBins
   *     < 1}
   */
  public static WorkDistribution of(long[] works, int maxBins) {
    if (works.length == 0 || maxBins < 1) {
      throw new IllegalArgumentException("need at least one work and one bin");
    }
    long[] sorted = works.clone();
    Arrays.sort(sorted);
    if (sorted[0] <= 0) {
      throw new IllegalArgumentException("works must be positive, got " + sorted[0]);
    }
    int distinct = 1;
    for (int i = 1; i < sorted.length; i++) {
      if (sorted[i] != sorted[i - 1]) {
        distinct++;
      }
    }
    boolean exact = distinct <= maxBins;
    double lo = Math.log(sorted[0]);
    double width = (Math.log(sorted[sorted.length - 1]) - lo) / maxBins;
    List<long[]> bins = new ArrayList<>(); // {count, max}
    int current = -1;
    for (long w : sorted) {
      int bin =
          exact ? (int) w : Math.min(maxBins - 1, (int) Math.floor((Math.log(w) - lo) / width));
      boolean same =
          !bins.isEmpty() && (exact ? bins.get(bins.size() - 1)[1] == w : bin == current);
      if (!same) {
        bins.add(new long[] {0, w});
        current = bin;
      }
      long[] b = bins.get(bins.size() - 1);
      b[0]++;
      b[1] = w;
    }
    double[] p = new double[bins.size()];
    long[] max = new long[bins.size()];
    for (int i = 0; i < p.length; i++) {
      p[i] = (double) bins.get(i)[0] / sorted.length;
      max[i] = bins.get(i)[1];
    }
    // Rounding can leave the sum a hair off one; the last bin takes the difference.
    double sum = 0;
    for (int i = 0; i < p.length - 1; i++) {
      sum += p[i];
    }
    p[p.length - 1] = 1 - sum;
    return new WorkDistribution(p, max, sorted.length, exact ? "exact" : "log");
  }

  /** {@code p_i}, a copy. */
  @Override
  public double[] probabilities() {
    return probabilities.clone();
  }

  /** {@code w_i}, a copy. */
  @Override
  public long[] maxWorkNanos() {
    return maxWorkNanos.clone();
  }

  /** The number of bins, {@code n}. */
  public int bins() {
    return probabilities.length;
  }

  /** The mean work {@code w̄ = Σ p_i w_i}, in nanoseconds. */
  public double meanNanos() {
    double mean = 0;
    for (int i = 0; i < probabilities.length; i++) {
      mean += probabilities[i] * maxWorkNanos[i];
    }
    return mean;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%d %s bins from %d requests, %.3f-%.3f ms",
        bins(),
        binning,
        requests,
        maxWorkNanos[0] / 1e6,
        maxWorkNanos[bins() - 1] / 1e6);
  }
}
