package dev.tailor.auto;

import java.util.SplittableRandom;

/**
 * Samples of a workload whose truth the test knows: Poisson arrivals, log-normal work, a share
 * probed at degree 1 (run = work) and at a second degree (run = work / speedup).
 */
final class CraftedSamples {

  private CraftedSamples() {}

  /**
   * @param n samples
   * @param rateRps arrival rate
   * @param medianNanos median work
   * @param probeDegree the second degree probed
   * @param speedup the true speedup at that degree
   * @param probes whether any request is probed
   */
  static Samples of(
      int n, double rateRps, long medianNanos, int probeDegree, double speedup, boolean probes) {
    SplittableRandom r = new SplittableRandom(42);
    long[] arrival = new long[n];
    long[] exit = new long[n];
    long[] run = new long[n];
    long[] work = new long[n];
    int[] probe = new int[n];
    long t = 0;
    for (int i = 0; i < n; i++) {
      t += Math.round(-Math.log(1 - r.nextDouble()) / rateRps * 1e9);
      double g =
          Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
      long w = Math.max(1, Math.round(medianNanos * Math.exp(0.8 * g)));
      int p = !probes ? 0 : i % 10 == 0 ? 1 : i % 10 == 5 ? probeDegree : 0;
      arrival[i] = t;
      work[i] = w;
      run[i] = p > 1 ? Math.max(1, Math.round(w / speedup)) : w;
      exit[i] = t + run[i];
      probe[i] = p;
    }
    return new Samples(arrival, exit, run, work, probe);
  }
}
