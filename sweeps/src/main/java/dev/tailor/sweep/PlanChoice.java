package dev.tailor.sweep;

import dev.tailor.measure.Estimate;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PooledLatency;
import dev.tailor.sweep.CapacityPlan.AtCores;
import dev.tailor.sweep.CapacityPlan.Prediction;
import java.util.ArrayList;
import java.util.List;

/**
 * The capacity plan's reading of its simulated sweeps: the points pooled over their seeds into one
 * {@link Prediction} per policy and load, the policy that holds the target to the highest load at
 * each core count, and the fewest cores that hold it at the peak.
 *
 * <p>Apart from {@link CapacityPlan} because it is pure arithmetic on the points, with the plan's
 * rules of choice in one place ("holds", ties broken by the lower P99 then the order listed); the
 * plan itself runs the simulations that produce them.
 */
final class PlanChoice {

  /**
   * The best policy at one core count.
   *
   * @param spec the policy, or null if none holds the target at the lowest load
   * @param heldToRps the highest load it holds the target to, or NaN
   */
  record Best(String spec, double heldToRps) {}

  /**
   * The fewest cores for the peak.
   *
   * @param cores the fewest of the core counts at which a policy holds the target at the peak, or
   *     null (no peak, or none does)
   * @param policy the policy with the lowest P99 there among those that hold it, or null
   */
  record AtPeak(Integer cores, String policy) {}

  private PlanChoice() {}

  /**
   * Every policy at every load, its seeds pooled, under the name it was listed by: the sweep gives
   * its points by load, then seed, then policy ({@link SimulatedSweep#run}), each under the
   * policy's own specification (such as {@code wq-linear:4} for {@code wq-linear}).
   */
  static List<Prediction> predictions(
      List<PointResult> points, List<String> specs, List<Double> loads, int seeds) {
    if (points.size() != loads.size() * seeds * specs.size()) {
      throw new IllegalStateException(
          "expected " + loads.size() * seeds * specs.size() + " points, got " + points.size());
    }
    List<Prediction> out = new ArrayList<>();
    for (int j = 0; j < specs.size(); j++) {
      for (int i = 0; i < loads.size(); i++) {
        List<PointResult> overSeeds = new ArrayList<>();
        for (int k = 0; k < seeds; k++) {
          overSeeds.add(points.get((i * seeds + k) * specs.size() + j));
        }
        boolean saturated = overSeeds.stream().anyMatch(PointResult::saturated);
        PooledLatency pooled = PooledLatency.ofPoints(overSeeds);
        out.add(
            new Prediction(
                specs.get(j),
                loads.get(i),
                saturated,
                saturated ? Estimate.NONE : pooled.at(50).times(1e-6),
                saturated ? Estimate.NONE : pooled.at(99).times(1e-6)));
      }
    }
    return out;
  }

  /**
   * The policy of {@code specs} that holds {@code targetMs} to the highest of the plan's loads
   * {@code rps}; among equals the one with the lower P99 there, then the first listed.
   */
  static Best best(
      List<Prediction> predictions, List<String> specs, List<Double> rps, double targetMs) {
    String best = null;
    double heldTo = Double.NaN;
    double bestP99 = Double.NaN;
    for (String spec : specs) {
      double held = heldTo(predictions, spec, rps, targetMs);
      if (Double.isNaN(held)) {
        continue;
      }
      double p99 = find(predictions, spec, held).p99Ms().value();
      if (best == null || held > heldTo || (held == heldTo && p99 < bestP99)) {
        best = spec;
        heldTo = held;
        bestP99 = p99;
      }
    }
    return new Best(best, heldTo);
  }

  /**
   * The fewest of the core counts, ascending in {@code byCores}, at which a policy holds {@code
   * targetMs} at {@code peakRps}, and the one with the lowest P99 there; neither without a peak.
   */
  static AtPeak atPeak(List<AtCores> byCores, Double peakRps, double targetMs) {
    if (peakRps == null) {
      return new AtPeak(null, null);
    }
    for (AtCores a : byCores) {
      Prediction lowest = null;
      for (Prediction p : a.predictions()) {
        if (p.rps() == peakRps
            && p.holds(targetMs)
            && (lowest == null || p.p99Ms().value() < lowest.p99Ms().value())) {
          lowest = p;
        }
      }
      if (lowest != null) {
        return new AtPeak(a.cores(), lowest.policy());
      }
    }
    return new AtPeak(null, null);
  }

  /** The highest of {@code rps} to which {@code spec} holds the target at every load, or NaN. */
  static double heldTo(List<Prediction> predictions, String spec, List<Double> rps, double target) {
    double held = Double.NaN;
    for (double load : rps) {
      if (!find(predictions, spec, load).holds(target)) {
        break;
      }
      held = load;
    }
    return held;
  }

  private static Prediction find(List<Prediction> predictions, String spec, double rps) {
    return predictions.stream()
        .filter(p -> p.policy().equals(spec) && p.rps() == rps)
        .findFirst()
        .orElseThrow();
  }
}
