package dev.tailor.sim.arrival;

import dev.tailor.core.Durations;

/**
 * How every point of a sweep draws its requests: the arrival process and seed, how long a point is,
 * and how much of it is warm-up. {@code replay}, {@code simulate} and {@code fidelity} all ask this
 * one plan for a point's arrivals, query order and warm-up, so that a simulated point and a
 * measured one at the same load send the same requests and count the same ones.
 *
 * <p>A point's length is given either in time ({@link #timed}, as a replay's is: the arrivals
 * within the duration, the warm-up those arriving before the warm-up time) or in requests ({@link
 * #counted}, as a simulation's is: the first N arrivals, the first tenth warm-up). Either way the
 * warm-up is a number of requests, as the simulator has always counted it: the first {@code W}
 * requests are left out and the measured window opens at request {@code W}'s arrival.
 */
public final class SweepPlan {

  /** The share of a counted point's requests that are warm-up: one in ten. */
  public static final int COUNTED_WARMUP_DIVISOR = 10;

  private final String arrivals;
  private final long seed;
  private final long durationNanos;
  private final long warmupNanos;
  private final int requests;

  private SweepPlan(
      String arrivals, long seed, long durationNanos, long warmupNanos, int requests) {
    this.arrivals = arrivals;
    this.seed = seed;
    this.durationNanos = durationNanos;
    this.warmupNanos = warmupNanos;
    this.requests = requests;
    // Fails early, naming the specification, rather than at the first point.
    ArrivalProcess.parse(arrivals, 1, seed);
  }

  /**
   * Points of a given length: the arrivals within {@code durationNanos}, those before {@code
   * warmupNanos} warm-up.
   *
   * @param arrivals {@code poisson} or {@code lognormal:CV}
   * @throws IllegalArgumentException if the arrivals are unknown, the warm-up is negative, or the
   *     duration is not longer than the warm-up
   */
  public static SweepPlan timed(String arrivals, long seed, long durationNanos, long warmupNanos) {
    if (warmupNanos < 0) {
      throw new IllegalArgumentException("the warm-up must be >= 0, got " + warmupNanos + " ns");
    }
    if (durationNanos <= warmupNanos) {
      throw new IllegalArgumentException(
          "the duration must be longer than the warm-up, or nothing is measured");
    }
    return new SweepPlan(arrivals, seed, durationNanos, warmupNanos, -1);
  }

  /**
   * Points of a given number of requests, the first tenth of them warm-up.
   *
   * @param arrivals {@code poisson} or {@code lognormal:CV}
   * @throws IllegalArgumentException if the arrivals are unknown or {@code requests < 1}
   */
  public static SweepPlan counted(String arrivals, long seed, int requests) {
    if (requests < 1) {
      throw new IllegalArgumentException("a point needs at least one request, got " + requests);
    }
    return new SweepPlan(arrivals, seed, -1, -1, requests);
  }

  /** The same plan with another seed (a report's points each record theirs). */
  public SweepPlan withSeed(long seed) {
    return new SweepPlan(arrivals, seed, durationNanos, warmupNanos, requests);
  }

  /** The arrival process's specification, e.g. {@code poisson}. */
  public String arrivals() {
    return arrivals;
  }

  /** The seed of arrivals and request order. */
  public long seed() {
    return seed;
  }

  /**
   * The point at {@code rps} requests per second.
   *
   * @param queries how many queries the trace (or profile) has; request {@code i} asks a seeded
   *     permutation's {@code i}-th, cycling
   * @throws IllegalArgumentException unless the rate is positive and there is a query
   */
  public PointPlan point(double rps, int queries) {
    ArrivalProcess process = ArrivalProcess.parse(arrivals, rps, seed);
    long[] offsets;
    int warmup;
    if (requests > 0) {
      offsets = process.first(requests);
      warmup = requests / COUNTED_WARMUP_DIVISOR;
    } else {
      offsets = process.schedule(durationNanos);
      warmup = 0;
      while (warmup < offsets.length && offsets[warmup] < warmupNanos) {
        warmup++;
      }
    }
    int[] order = RequestOrder.shuffled(offsets.length, queries, seed);
    return new PointPlan(rps, process.toString(), seed, offsets, order, warmup);
  }

  @Override
  public String toString() {
    return requests > 0
        ? arrivals + ", seed " + seed + ", " + requests + " requests per point"
        : arrivals
            + ", seed "
            + seed
            + ", "
            + Durations.format(durationNanos)
            + " per point ("
            + Durations.format(warmupNanos)
            + " warm-up)";
  }
}
