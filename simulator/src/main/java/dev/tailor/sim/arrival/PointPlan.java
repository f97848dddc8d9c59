package dev.tailor.sim.arrival;

/**
 * What one point of a sweep sends, real or simulated: when each request arrives, which query it
 * asks, and how many of the first ones are warm-up. Made by {@link SweepPlan#point}.
 *
 * <p>The warm-up is the first {@code warmupRequests} requests: sent but not counted. The measured
 * window opens at the first counted request's arrival, so a request counts exactly when it arrives
 * at or after {@link #measureFromNanos}.
 *
 * @param offeredRps the arrival rate asked for
 * @param arrivals the arrival process's description, e.g. {@code poisson(50.0/s)}
 * @param seed the seed of arrivals and request order
 * @param offsetsNanos arrival times from the start, ascending
 * @param order the query request {@code i} asks
 * @param warmupRequests how many of the first requests are warm-up
 */
public record PointPlan(
    double offeredRps,
    String arrivals,
    long seed,
    long[] offsetsNanos,
    int[] order,
    int warmupRequests) {

  /**
   * Checks the plan.
   *
   * @throws IllegalArgumentException if the order's length is not the arrivals', or the warm-up is
   *     negative
   */
  public PointPlan {
    if (order.length != offsetsNanos.length) {
      throw new IllegalArgumentException(
          "a point needs one query per arrival: "
              + offsetsNanos.length
              + " arrivals, "
              + order.length
              + " queries");
    }
    if (warmupRequests < 0) {
      throw new IllegalArgumentException("warm-up must be >= 0 requests, got " + warmupRequests);
    }
  }

  /** How many requests arrive, warm-up included. */
  public int requests() {
    return offsetsNanos.length;
  }

  /** How many requests are counted: those after the warm-up. */
  public int measuredRequests() {
    return Math.max(0, offsetsNanos.length - warmupRequests);
  }

  /**
   * When the measured window opens, from the start: the first counted request's arrival, or {@link
   * Long#MAX_VALUE} if the warm-up takes every request.
   */
  public long measureFromNanos() {
    return warmupRequests < offsetsNanos.length ? offsetsNanos[warmupRequests] : Long.MAX_VALUE;
  }
}
