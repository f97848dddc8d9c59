package dev.tailor.profiler;

import dev.tailor.measure.RobustTime;
import java.util.Arrays;

/**
 * The timed samples of one query: per measured degree, one time per sample, and at degree 1 the
 * time of each unit in that sample. Grows as rounds add samples.
 */
final class QuerySamples {

  private final long[][] byDegree; // byDegree[d - 1][i]: the i-th sample at degree d
  private long[][] units; // units[i][u]: unit u's time in the i-th degree-1 sample
  private final int[] counts;
  private int batch = 1;

  QuerySamples(int degrees, int expectedSamples) {
    this.byDegree = new long[degrees][Math.max(1, expectedSamples)];
    this.units = new long[Math.max(1, expectedSamples)][];
    this.counts = new int[degrees];
  }

  /** How many times in a row one sample runs the query: more than once for a short query. */
  int batch() {
    return batch;
  }

  void batch(int batch) {
    this.batch = batch;
  }

  /** Adds a sample at {@code degree}; {@code unitNanos} (degree 1 only) may be null. */
  void add(int degree, long nanos, long[] unitNanos) {
    int d = degree - 1;
    int i = counts[d];
    if (i == byDegree[d].length) {
      byDegree[d] = Arrays.copyOf(byDegree[d], 2 * i);
    }
    byDegree[d][i] = nanos;
    counts[d]++;
    if (d == 0) {
      if (i == units.length) {
        units = Arrays.copyOf(units, 2 * i);
      }
      units[i] = unitNanos;
    }
  }

  /** The samples at {@code degree}, in the order they were taken. */
  long[] samples(int degree) {
    return Arrays.copyOf(byDegree[degree - 1], counts[degree - 1]);
  }

  /** The fewest samples any degree has. */
  int sampleCount() {
    return Arrays.stream(counts).min().orElse(0);
  }

  /** The {@linkplain RobustTime#estimate robust estimate} at {@code degree}. */
  double estimate(int degree) {
    return RobustTime.estimate(samples(degree));
  }

  /** The {@linkplain RobustTime#spread spread} at {@code degree}. */
  double spread(int degree) {
    return RobustTime.spread(samples(degree));
  }

  /** Each unit's robust estimate over the degree-1 samples. */
  long[] unitEstimates() {
    int n = counts[0];
    int unitCount = n == 0 || units[0] == null ? 0 : units[0].length;
    long[] out = new long[unitCount];
    long[] column = new long[n];
    for (int u = 0; u < unitCount; u++) {
      for (int i = 0; i < n; i++) {
        column[i] = units[i][u];
      }
      out[u] = Math.round(RobustTime.estimate(column));
    }
    return out;
  }
}
