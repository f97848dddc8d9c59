package dev.tailor.auto;

import java.util.Arrays;

/**
 * A copy of the reservoir's samples, oldest first, for a rebuild to read while serving goes on.
 *
 * @param arrivalNanos each request's arrival, on the scheduler's clock
 * @param exitNanos each request's completion, same clock
 * @param runNanos each request's admission to completion
 * @param workNanos each request's busy time summed over its threads: its windows' time, which is
 *     its sequential time plus what running in parallel added
 * @param probeDegree the degree each was probed at, or 0 if the live policy decided it
 */
record Samples(
    long[] arrivalNanos, long[] exitNanos, long[] runNanos, long[] workNanos, int[] probeDegree) {

  /** How many samples there are. */
  int size() {
    return arrivalNanos.length;
  }

  /**
   * The arrival rate over the samples' span, requests per second, or 0 with fewer than two samples
   * or no time between their arrivals.
   */
  double rateRps() {
    if (size() < 2) {
      return 0;
    }
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (long a : arrivalNanos) {
      first = Math.min(first, a);
      last = Math.max(last, a);
    }
    long span = last - first;
    return span <= 0 ? 0 : (size() - 1) * 1e9 / span;
  }

  /**
   * The nearest-rank P99 of the latencies (arrival to completion) of the samples the live policy
   * decided, probes aside; 0 if there are none.
   */
  double p99LatencyUnprobed() {
    long[] latencies = new long[size()];
    for (int i = 0; i < size(); i++) {
      latencies[i] = exitNanos[i] - arrivalNanos[i];
    }
    long[] decided = probedAt(latencies, 0);
    return decided.length == 0 ? 0 : SpeedupEstimate.quantile(decided, 0.99);
  }

  /** The run times of the requests probed at {@code degree}, sorted. */
  long[] runsProbedAt(int degree) {
    return probedAt(runNanos, degree);
  }

  /** The work of the requests probed at {@code degree}, sorted. */
  long[] worksProbedAt(int degree) {
    return probedAt(workNanos, degree);
  }

  /** The {@code values} of the samples probed at {@code degree} (0: not probed), sorted. */
  private long[] probedAt(long[] values, int degree) {
    long[] out = new long[size()];
    int n = 0;
    for (int i = 0; i < size(); i++) {
      if (probeDegree[i] == degree) {
        out[n++] = values[i];
      }
    }
    long[] sorted = Arrays.copyOf(out, n);
    Arrays.sort(sorted);
    return sorted;
  }

  /** The work of the last {@code n} samples (all if fewer), sorted. */
  long[] recentWorkSorted(int n) {
    int k = Math.min(n, size());
    long[] w = Arrays.copyOfRange(workNanos, size() - k, size());
    Arrays.sort(w);
    return w;
  }
}
