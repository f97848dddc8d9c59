package dev.tailor.studies.balance;

import java.util.Arrays;

/**
 * Where a balancer records each request's start, finish and core; it refuses to start a request
 * twice and to hand back a run in which one never started, so a balancer that loses or duplicates a
 * request fails loudly instead of reporting a latency.
 */
final class Ledger {

  private final long[] arrivalNanos;
  private final long[] serviceNanos;
  private final long[] startNanos;
  private final long[] finishNanos;
  private final int[] core;

  Ledger(long[] arrivalNanos, long[] serviceNanos) {
    this.arrivalNanos = arrivalNanos.clone();
    this.serviceNanos = serviceNanos;
    int n = arrivalNanos.length;
    startNanos = new long[n];
    finishNanos = new long[n];
    core = new int[n];
    Arrays.fill(startNanos, -1);
  }

  /** Starts request {@code i} on {@code c} at {@code t}; returns when it finishes. */
  long start(int i, int c, long t) {
    if (startNanos[i] >= 0) {
      throw new IllegalStateException(
          "request " + i + " started twice (cores " + core[i] + ", " + c + ")");
    }
    startNanos[i] = t;
    finishNanos[i] = t + serviceNanos[i];
    core[i] = c;
    return finishNanos[i];
  }

  /** The run, once every request has started. */
  Run run() {
    for (int i = 0; i < startNanos.length; i++) {
      if (startNanos[i] < 0) {
        throw new IllegalStateException("request " + i + " never started");
      }
    }
    return new Run(arrivalNanos, startNanos, finishNanos, core);
  }
}
