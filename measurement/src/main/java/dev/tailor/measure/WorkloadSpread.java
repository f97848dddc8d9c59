package dev.tailor.measure;

import java.util.Arrays;
import java.util.Locale;

/**
 * How unequal a workload's requests are: the spread of their sequential times that decides whether
 * parallelism can matter. The papers' workloads are heavy-tailed (Few-to-Many, Haque et al.,
 * ASPLOS'15, Fig. 1: Lucene demand from a mode near 90 ms to about 1 s); a workload whose P99 is a
 * few times its median leaves a policy little to choose.
 *
 * @param requests the number of requests
 * @param medianNanos the median sequential time
 * @param p99Nanos the 99th percentile (nearest rank)
 * @param maxNanos the longest
 * @param meanNanos the mean
 * @param slowest5PercentShare the share of all sequential time spent in the slowest 5% of the
 *     requests (at least one request)
 */
public record WorkloadSpread(
    int requests,
    double medianNanos,
    double p99Nanos,
    double maxNanos,
    double meanNanos,
    double slowest5PercentShare) {

  /**
   * The spread of the given sequential times.
   *
   * @throws IllegalArgumentException if there are none
   */
  public static WorkloadSpread of(double[] sequentialNanos) {
    if (sequentialNanos.length == 0) {
      throw new IllegalArgumentException("a workload spread needs at least one request");
    }
    double[] sorted = sequentialNanos.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double total = 0;
    for (double t : sorted) {
      total += t;
    }
    int slowest = slowestCount(n);
    double slow = 0;
    for (int i = n - slowest; i < n; i++) {
      slow += sorted[i];
    }
    return new WorkloadSpread(
        n,
        n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
        nearestRank(sorted, 0.99),
        sorted[n - 1],
        total / n,
        total > 0 ? slow / total : 0);
  }

  /** The spread of a profile's sequential times. */
  public static WorkloadSpread of(DemandProfile profile) {
    return of(
        profile.requests().stream().mapToDouble(DemandProfile.Request::sequentialNanos).toArray());
  }

  /** How many requests are the slowest 5% of {@code n}: at least one. */
  public static int slowestCount(int n) {
    return Math.max(1, (int) Math.ceil(0.05 * n));
  }

  /** P99 over median. */
  public double p99OverMedian() {
    return p99Nanos / medianNanos;
  }

  /** Max over median. */
  public double maxOverMedian() {
    return maxNanos / medianNanos;
  }

  /**
   * One line for reports, e.g. {@code 1000 requests: median 0.21 ms, P99 5.3 ms (P99/median 25.2),
   * max 9.1 ms, slowest 5% hold 41% of the time}.
   */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "%d requests: median %.3f ms, P99 %.3f ms (P99/median %.1f), max %.3f ms (max/median"
            + " %.1f), mean %.3f ms; the slowest 5%% hold %.0f%% of the time",
        requests,
        medianNanos / 1e6,
        p99Nanos / 1e6,
        p99OverMedian(),
        maxNanos / 1e6,
        maxOverMedian(),
        meanNanos / 1e6,
        100 * slowest5PercentShare);
  }

  /** The {@code q}-quantile of sorted values by nearest rank: the value at rank ceil(q * n). */
  static double nearestRank(double[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
  }
}
