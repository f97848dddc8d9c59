package dev.tailor.studies.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * The highest load at which a cluster keeps the aggregator's P99 within a target, found by
 * bisection over the utilization: halving the interval between the highest utilization known to
 * meet the target (0 at first) and the lowest known to miss it (the capacity, 1, at first), until
 * it is no wider than the tolerance. The capacity itself is never simulated: at utilization 1 a
 * queue grows without bound however a finite run ends, so the search stays below it. A saturated
 * point misses; so does a point whose P99 over its first shards is already past the target, and the
 * search simulates no more of its shards (the slowest of more shards is never faster).
 * Deterministic, as the cluster's points are.
 *
 * <p>Bisection assumes that a point meets the target below some utilization and misses above it.
 * Every point of a search is the same queries, work and noise at arrivals compressed in time, so
 * for a work-conserving FIFO server its latencies only grow with the rate; a policy that changes
 * its degrees with the load need not be monotone, and then the result is one crossing, not
 * necessarily the highest. A finite run from an empty system is optimistic near the capacity: a
 * longer one can only build longer queues there. The steps are kept, so that a report can show
 * them.
 */
public final class SustainedLoad {

  private SustainedLoad() {}

  /**
   * One point the search simulated.
   *
   * @param utilization the offered rate over the cluster's capacity
   * @param rps the offered rate, queries per second
   * @param saturated whether a shard's queue outgrew the point
   * @param aggregatorP99Nanos the aggregator's P99, or 0 if saturated
   * @param partial whether the search stopped the point before its last shard, the P99 over the
   *     shards simulated being already past the target (then that P99 is a lower bound)
   * @param meets whether the point is unsaturated with its P99 within the target
   */
  public record Step(
      double utilization,
      double rps,
      boolean saturated,
      long aggregatorP99Nanos,
      boolean partial,
      boolean meets) {}

  /**
   * What the search found.
   *
   * @param targetNanos the aggregator P99 asked for
   * @param tolerance the width, in utilization, to which the crossing was narrowed
   * @param sustained the highest step that met the target, or null if none did
   * @param missesAtUtilization the lowest utilization at which a step missed it, or NaN if even the
   *     capacity met it
   * @param steps every point simulated, in order
   */
  public record Result(
      long targetNanos,
      double tolerance,
      Step sustained,
      double missesAtUtilization,
      List<Step> steps) {

    /** Copies the steps. */
    public Result {
      steps = List.copyOf(steps);
    }

    /** The sustained utilization: that of {@link #sustained}, or 0 if no step met the target. */
    public double utilization() {
      return sustained == null ? 0 : sustained.utilization();
    }

    /** The sustained rate, queries per second, or 0 if no step met the target. */
    public double rps() {
      return sustained == null ? 0 : sustained.rps();
    }
  }

  /**
   * Searches a cluster.
   *
   * @param targetNanos the aggregator P99 to keep
   * @param tolerance the width in utilization to stop at, in (0, 1), e.g. 0.01
   * @throws IllegalArgumentException if the target is not positive or the tolerance is outside (0,
   *     1)
   */
  public static Result find(SimulatedCluster cluster, long targetNanos, double tolerance) {
    return search(
        u -> {
          ClusterPoint p = cluster.atUtilization(u, targetNanos);
          long p99 = p.saturated() ? 0 : p.aggregatorQuantileNanos(Observation.AGGREGATOR_QUANTILE);
          return new Step(
              u,
              p.offeredRps(),
              p.saturated(),
              p99,
              !p.saturated() && !p.complete(),
              p.complete() && p99 <= targetNanos);
        },
        targetNanos,
        tolerance);
  }

  /** The bisection over {@code at}, which simulates the point at a utilization. */
  static Result search(DoubleFunction<Step> at, long targetNanos, double tolerance) {
    if (targetNanos <= 0) {
      throw new IllegalArgumentException("the target P99 must be > 0, got " + targetNanos + " ns");
    }
    if (!(tolerance > 0 && tolerance < 1)) {
      throw new IllegalArgumentException(
          "the tolerance must be a utilization in (0, 1) such as 0.01, got " + tolerance);
    }
    List<Step> steps = new ArrayList<>();
    double lo = 0;
    double hi = 1;
    Step best = null;
    while (hi - lo > tolerance) {
      double mid = (lo + hi) / 2;
      Step s = at.apply(mid);
      steps.add(s);
      if (s.meets()) {
        lo = mid;
        best = s;
      } else {
        hi = mid;
      }
    }
    return new Result(targetNanos, tolerance, best, hi, steps);
  }
}
