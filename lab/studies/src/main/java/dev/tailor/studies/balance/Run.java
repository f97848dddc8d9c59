package dev.tailor.studies.balance;

import java.util.Arrays;

/**
 * What a {@link Balancer} did with a sequence of requests: for each request, when it arrived, when
 * a core started it, when it finished and on which core. Request {@code i} is the {@code i}-th
 * arrival. Immutable.
 */
public final class Run {

  private final long[] arrivalNanos;
  private final long[] startNanos;
  private final long[] finishNanos;
  private final int[] core;

  Run(long[] arrivalNanos, long[] startNanos, long[] finishNanos, int[] core) {
    this.arrivalNanos = arrivalNanos;
    this.startNanos = startNanos;
    this.finishNanos = finishNanos;
    this.core = core;
  }

  /** The number of requests. */
  public int size() {
    return arrivalNanos.length;
  }

  /** When request {@code i} arrived. */
  public long arrivalNanos(int i) {
    return arrivalNanos[i];
  }

  /** When a core started running request {@code i}, after any queueing and balancing. */
  public long startNanos(int i) {
    return startNanos[i];
  }

  /** When request {@code i} finished. */
  public long finishNanos(int i) {
    return finishNanos[i];
  }

  /** The core that ran request {@code i}. */
  public int core(int i) {
    return core[i];
  }

  /**
   * The latency percentile (nearest rank) of the requests after the first {@code warmup}.
   *
   * @param percentile in {@code (0, 100]}
   * @throws IllegalArgumentException if the percentile is out of range or no request is left
   */
  public long latencyPercentileNanos(double percentile, int warmup) {
    if (!(percentile > 0 && percentile <= 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100], got " + percentile);
    }
    if (warmup < 0 || warmup >= size()) {
      throw new IllegalArgumentException(
          "warm-up must leave at least one of the " + size() + " requests, got " + warmup);
    }
    long[] latency = new long[size() - warmup];
    for (int i = warmup; i < size(); i++) {
      latency[i - warmup] = finishNanos[i] - arrivalNanos[i];
    }
    Arrays.sort(latency);
    int rank = (int) Math.ceil(percentile / 100 * latency.length);
    return latency[Math.max(0, rank - 1)];
  }
}
