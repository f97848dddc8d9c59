package dev.tailor.load;

import dev.tailor.core.metrics.PointResult;
import dev.tailor.sim.arrival.ArrivalProcess;
import dev.tailor.sim.arrival.RequestOrder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A sweep: every policy at every offered load, each point an open-loop replay. Every (policy, load)
 * pair gets the same arrival sequence for its load and the same query order, so that policies
 * differ only in their decisions.
 */
public final class Sweep {

  /**
   * What to sweep.
   *
   * @param policies policy specifications
   * @param rps offered loads, requests per second
   * @param arrivals the arrival process ({@code poisson} or {@code lognormal:CV})
   * @param seed the seed of arrivals and query order
   * @param durationNanos each point's length, warm-up included
   * @param settings the replay settings (warm-up, backlog limit, targets)
   */
  public record Plan(
      List<String> policies,
      List<Double> rps,
      String arrivals,
      long seed,
      long durationNanos,
      OpenLoopReplayer.Settings settings) {

    /**
     * Checks the plan.
     *
     * @throws IllegalArgumentException if there is nothing to run or the duration is not longer
     *     than the warm-up
     */
    public Plan {
      if (policies.isEmpty() || rps.isEmpty()) {
        throw new IllegalArgumentException("a sweep needs at least one policy and one load");
      }
      if (durationNanos <= settings.warmupNanos()) {
        throw new IllegalArgumentException(
            "the duration must be longer than the warm-up, or nothing is measured");
      }
      for (double r : rps) {
        if (!(r > 0)) {
          throw new IllegalArgumentException("loads must be positive, got " + r);
        }
      }
    }
  }

  /** Opens a fresh target running a policy. */
  @FunctionalInterface
  public interface Targets {
    Target open(String policy) throws IOException;
  }

  private Sweep() {}

  /**
   * Runs every point, reporting each as it finishes.
   *
   * @param queries how many queries the trace has; request {@code i} sends a seeded permutation's
   *     {@code i}-th, cycling
   */
  public static List<PointResult> run(
      Plan plan,
      Targets targets,
      int queries,
      String environment,
      String corpus,
      Consumer<PointResult> onPoint)
      throws IOException, InterruptedException {
    List<PointResult> results = new ArrayList<>();
    for (double rps : plan.rps()) {
      ArrivalProcess process = ArrivalProcess.parse(plan.arrivals(), rps, plan.seed());
      long[] offsets = process.schedule(plan.durationNanos());
      int[] order = RequestOrder.shuffled(offsets.length, queries, plan.seed());
      for (String policy : plan.policies()) {
        try (Target target = targets.open(policy)) {
          PointResult r =
              OpenLoopReplayer.run(
                  target,
                  offsets,
                  order,
                  plan.settings(),
                  new OpenLoopReplayer.Labels(
                      rps, process.toString(), plan.seed(), environment, corpus));
          results.add(r);
          onPoint.accept(r);
        }
      }
    }
    return results;
  }
}
