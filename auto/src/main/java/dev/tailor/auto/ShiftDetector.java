package dev.tailor.auto;

/**
 * Whether the query mix has shifted: the two-sample Kolmogorov-Smirnov test between the work of the
 * samples the live policy was built from and that of the most recent {@link #WINDOW} requests, at
 * the 0.1% level ({@code D > 1.95 sqrt((n + m) / nm)}). Work, not latency, because latency moves
 * with the load and with the policy itself, while work is what the requests ask for.
 */
final class ShiftDetector {

  /** Requests whose work is the reference, taken after each rebuild. */
  static final int REFERENCE = 1024;

  /** Recent requests compared with the reference, and kept when a shift is found. */
  static final int WINDOW = 256;

  /** The Kolmogorov-Smirnov coefficient at the 0.1% level. */
  private static final double C_ALPHA = 1.95;

  private ShiftDetector() {}

  /** The largest gap between the two samples' empirical distributions; both sorted ascending. */
  static double statistic(long[] a, long[] b) {
    int i = 0;
    int j = 0;
    double d = 0;
    while (i < a.length && j < b.length) {
      long x = Math.min(a[i], b[j]);
      while (i < a.length && a[i] == x) {
        i++;
      }
      while (j < b.length && b[j] == x) {
        j++;
      }
      d = Math.max(d, Math.abs(i / (double) a.length - j / (double) b.length));
    }
    return d;
  }

  /** Whether {@code recent} differs from {@code reference} at the 0.1% level; both sorted. */
  static boolean shifted(long[] reference, long[] recent) {
    if (reference.length == 0 || recent.length == 0) {
      return false;
    }
    double n = reference.length;
    double m = recent.length;
    return statistic(reference, recent) > C_ALPHA * Math.sqrt((n + m) / (n * m));
  }
}
