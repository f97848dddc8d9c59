package dev.tailor.studies.cluster;

/** Nearest-rank quantiles and the empirical distribution of sorted latencies. */
final class Quantiles {

  private Quantiles() {}

  /**
   * The {@code q}-quantile of ascending {@code sorted} by nearest rank (the smallest value with at
   * least a share {@code q} of the values at or below it), as the simulator's class figures take
   * it; 0 if there is none.
   */
  static long at(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
  }

  /** The share of ascending {@code sorted} at or below {@code x}; 0 if there is none. */
  static double shareAtOrBelow(long[] sorted, long x) {
    if (sorted.length == 0) {
      return 0;
    }
    int lo = 0;
    int hi = sorted.length; // the first index whose value exceeds x is in [lo, hi]
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] <= x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return (double) lo / sorted.length;
  }
}
