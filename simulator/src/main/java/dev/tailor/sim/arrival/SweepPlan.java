package dev.tailor.sim.arrival;

import dev.tailor.core.Durations;

/**
 * How every point of a sweep draws its requests: the arrival process and seed, how long a point is,
 * and how much of it is warm-up. {@code replay}, {@code simulate} and {@code fidelity} all ask this
 * one plan for a point's arrivals, query order and warm-up, so that a simulated point and a
 * measured one at the same load send the same requests and count the same ones.
 *
 * <p>A point's length is given in time ({@link #timed}: the arrivals within the duration, the
 * warm-up those arriving before the warm-up time), in requests ({@link #counted}, as a simulation's
 * is: the first N arrivals, the first tenth warm-up), or in measured requests after a warm-up time
 * ({@link #sized}, as a replay's is by default: those arriving within the warm-up time, then N
 * more, so that a point's P99 rests on the same number of requests at every load). Either way the
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
  private final int measured;

  private SweepPlan(
      String arrivals, long seed, long durationNanos, long warmupNanos, int requests) {
    this(arrivals, seed, durationNanos, warmupNanos, requests, -1);
  }

  private SweepPlan(
      String arrivals,
      long seed,
      long durationNanos,
      long warmupNanos,
      int requests,
      int measured) {
    this.arrivals = arrivals;
    this.seed = seed;
    this.durationNanos = durationNanos;
    this.warmupNanos = warmupNanos;
    this.requests = requests;
    this.measured = measured;
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

  /**
   * Points of a given number of measured requests: those arriving within {@code warmupNanos} are
   * warm-up, and {@code measuredRequests} more follow, whatever the rate.
   *
   * @throws IllegalArgumentException if the arrivals are unknown, the warm-up is negative or {@code
   *     measuredRequests < 1}
   */
  public static SweepPlan sized(
      String arrivals, long seed, int measuredRequests, long warmupNanos) {
    if (measuredRequests < 1) {
      throw new IllegalArgumentException(
          "a point needs at least one measured request, got " + measuredRequests);
    }
    if (warmupNanos < 0) {
      throw new IllegalArgumentException("the warm-up must be >= 0, got " + warmupNanos + " ns");
    }
    return new SweepPlan(arrivals, seed, -1, warmupNanos, -1, measuredRequests);
  }

  /** The same plan with another seed (a report's points each record theirs). */
  public SweepPlan withSeed(long seed) {
    return new SweepPlan(arrivals, seed, durationNanos, warmupNanos, requests, measured);
  }

  /**
   * How long a point at {@code rps} lasts, warm-up included: the duration of a timed plan; the
   * warm-up plus the expected time of the measured requests of a sized one; of a counted plan, the
   * expected time of its requests.
   */
  public long expectedNanos(double rps) {
    if (measured > 0) {
      return warmupNanos + Math.round(measured / rps * 1e9);
    }
    if (requests > 0) {
      return Math.round(requests / rps * 1e9);
    }
    return durationNanos;
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
    } else if (measured > 0) {
      // The same process, drawn afresh: the arrivals within the warm-up, then the measured ones.
      int inWarmup = process.schedule(warmupNanos).length;
      offsets = ArrivalProcess.parse(arrivals, rps, seed).first(inWarmup + measured);
      warmup = 0;
      while (warmup < offsets.length && offsets[warmup] < warmupNanos) {
        warmup++;
      }
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
    if (measured > 0) {
      return arrivals
          + ", seed "
          + seed
          + ", "
          + measured
          + " measured requests per run after "
          + Durations.format(warmupNanos)
          + " warm-up";
    }
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
