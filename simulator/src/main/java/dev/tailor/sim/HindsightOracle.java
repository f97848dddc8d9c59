package dev.tailor.sim;

import dev.tailor.core.policy.DegreeCap;
import dev.tailor.core.policy.Policies;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicySpec;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.arrival.PointPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The ceiling of a comparison: the clairvoyant {@code oracle:BUDGET,N} policy with its budget tuned
 * per load with hindsight. At each load it simulates the oracle at every candidate budget on the
 * point's own arrivals and keeps the one with the lowest P99, which no online policy could choose.
 * A sweep lists it as the bare {@value #SPEC}; its points are reported under that name.
 *
 * <p>The candidates are the profile's sequential times at fixed quantiles, from 0 (every request at
 * its fastest degree) to the longest (every request sequential), tried from the longest down, so
 * that a tie keeps the budget that gives fewer threads.
 */
public final class HindsightOracle {

  /** How a sweep names the tuned oracle. */
  public static final String SPEC = "oracle";

  /** The quantiles of the sequential times tried as budgets, descending. */
  static final double[] QUANTILES = {1.0, 0.99, 0.98, 0.95, 0.9, 0.8, 0.7, 0.5, 0.0};

  private HindsightOracle() {}

  /** Whether a sweep's specification names the tuned oracle. */
  public static boolean isTuned(String spec) {
    return SPEC.equalsIgnoreCase(spec.trim());
  }

  /**
   * One budget tried.
   *
   * @param spec the oracle's specification at that budget
   * @param result the simulated point
   */
  public record Trial(String spec, PointResult result) {}

  /**
   * The outcome of a tuning.
   *
   * @param spec the chosen specification
   * @param result its point, reported as {@value #SPEC}
   * @param trials every budget tried, in order
   */
  public record Tuned(String spec, PointResult result, List<Trial> trials) {
    /** The trials in one line: each budget and its P99, the chosen one marked. */
    public String describe() {
      StringBuilder out = new StringBuilder();
      for (Trial t : trials) {
        out.append(out.isEmpty() ? "" : ", ")
            .append(t.spec().equals(spec) ? "*" : "")
            .append(PolicySpec.parse(t.spec()).argumentText())
            .append(" p99 ")
            .append(
                t.result().saturated()
                    ? "sat."
                    : String.format(Locale.ROOT, "%.2f ms", t.result().latencyAt("p99") / 1e6));
      }
      return out.toString();
    }
  }

  /** The budgets tried on a profile: its sequential times at {@link #QUANTILES}, distinct. */
  public static long[] budgets(DemandProfile profile) {
    long[] seq =
        profile.requests().stream().mapToLong(DemandProfile.Request::sequentialNanos).toArray();
    Arrays.sort(seq);
    return Arrays.stream(QUANTILES)
        .mapToLong(q -> q == 0 ? 0 : seq[Math.max(0, (int) Math.ceil(q * seq.length) - 1)])
        .distinct()
        .toArray();
  }

  /**
   * Simulates the oracle at every budget on one point and keeps the best.
   *
   * @param config the simulation
   * @param maxDegree the comparison's degree cap, N
   */
  public static Tuned tune(
      DemandProfile profile,
      Simulator.Config config,
      PointPlan point,
      String corpus,
      int maxDegree) {
    List<Trial> trials = new ArrayList<>();
    Trial best = null;
    for (long budget : budgets(profile)) {
      Policy oracle = Policies.oracle(Duration.ofNanos(budget), maxDegree);
      String spec = oracle.spec();
      PointResult r;
      try (Policy capped = DegreeCap.of(oracle, maxDegree)) {
        r = new Simulator(profile, capped, config).run(point, corpus);
      }
      Trial t = new Trial(spec, r);
      trials.add(t);
      if (best == null || better(r, best.result())) {
        best = t;
      }
    }
    return new Tuned(best.spec(), best.result().withPolicy(SPEC), List.copyOf(trials));
  }

  /** Unsaturated beats saturated, then the lower P99; a tie keeps the earlier. */
  static boolean better(PointResult a, PointResult b) {
    if (a.saturated() != b.saturated()) {
      return !a.saturated();
    }
    return a.latencyAt("p99") < b.latencyAt("p99");
  }
}
