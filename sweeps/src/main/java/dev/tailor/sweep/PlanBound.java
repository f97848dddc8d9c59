package dev.tailor.sweep;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import java.util.Arrays;
import java.util.Locale;

/**
 * The floor under every capacity plan ({@link CapacityPlan.Bound}): the P99 a profile would have if
 * each request ran alone, never queued, at its best degree up to the cap, and the refusal of a
 * target below it.
 *
 * <p>Apart from the plan because it is computed from the profile alone, with no simulation, and
 * answers before the plan spends anything: a target no scheduling can meet is refused in
 * milliseconds rather than after every core count has been swept.
 */
final class PlanBound {

  private PlanBound() {}

  /** What {@link CapacityPlan#bound} returns. */
  static CapacityPlan.Bound of(DemandProfile profile, Calibration calibration, int maxDegree) {
    DemandProfile served = calibration == null ? profile : calibration.served(profile);
    int n = served.requests().size();
    double[] alone = new double[n];
    double[] best = new double[n];
    for (int i = 0; i < n; i++) {
      DemandProfile.Request r = served.requests().get(i);
      alone[i] = r.sequentialNanos();
      double fastest = alone[i];
      for (int d = 2; d <= maxDegree; d++) {
        fastest = Math.min(fastest, alone[i] / r.speedupCurve().at(d));
      }
      best[i] = fastest;
    }
    return new CapacityPlan.Bound(p99(alone) / 1e6, p99(best) / 1e6, maxDegree);
  }

  /** The nearest-rank 99th percentile. */
  private static double p99(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v[Math.max(0, (int) Math.ceil(0.99 * v.length) - 1)];
  }

  /** What {@link CapacityPlan#requireFeasible} does. */
  static void requireFeasible(CapacityPlan.Bound bound, long targetNanos) {
    double target = targetNanos / 1e6;
    if (target < bound.bestP99Ms()) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "no policy can meet a P99 of %s ms: the profile's own P99 is %.3f ms at degree 1"
                  + " (each request alone on one thread, never queued)%s, and no scheduling"
                  + " makes a request faster than that; raise the target above %.3f ms or make"
                  + " the requests faster",
              fmt(target),
              bound.sequentialP99Ms(),
              bound.maxDegree() > 1
                  ? String.format(
                      Locale.ROOT,
                      " and %.3f ms with every request at its best degree up to %d",
                      bound.bestP99Ms(),
                      bound.maxDegree())
                  : "",
              bound.bestP99Ms()));
    }
  }

  private static String fmt(double ms) {
    return String.format(Locale.ROOT, "%.3f", ms);
  }
}
