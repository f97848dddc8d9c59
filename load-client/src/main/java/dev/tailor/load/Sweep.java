package dev.tailor.load;

import dev.tailor.core.metrics.PointResult;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A sweep: every policy at every offered load, each point an open-loop replay. Every (policy, load)
 * pair gets the same arrival sequence for its load and the same query order, so that policies
 * differ only in their decisions; both come from a {@link SweepPlan}, as a simulation's do.
 */
public final class Sweep {

  /**
   * What to sweep.
   *
   * @param policies policy specifications
   * @param rps offered loads, requests per second
   * @param points each point's arrivals, query order and warm-up
   * @param maxBacklog the most requests in flight before a point counts as saturated
   * @param drainNanos how long to wait for the last answers after the last send
   * @param targetsNanos latency targets for the miss ratios
   */
  public record Plan(
      List<String> policies,
      List<Double> rps,
      SweepPlan points,
      int maxBacklog,
      long drainNanos,
      List<Long> targetsNanos) {

    /**
     * Checks the plan.
     *
     * @throws IllegalArgumentException if there is nothing to run or a load is not positive
     */
    public Plan {
      policies = List.copyOf(policies);
      rps = List.copyOf(rps);
      targetsNanos = List.copyOf(targetsNanos);
      if (policies.isEmpty() || rps.isEmpty()) {
        throw new IllegalArgumentException("a sweep needs at least one policy and one load");
      }
      for (double r : rps) {
        if (!(r > 0)) {
          throw new IllegalArgumentException("loads must be positive, got " + r);
        }
      }
    }

    /** The same plan for other policies (e.g. the one a remote server runs). */
    public Plan withPolicies(List<String> others) {
      return new Plan(others, rps, points, maxBacklog, drainNanos, targetsNanos);
    }

    /** How many points the sweep runs. */
    public int size() {
      return policies.size() * rps.size();
    }
  }

  /** Opens a fresh target running a policy. */
  @FunctionalInterface
  public interface Targets {
    /** A target running {@code policy}, closed once its point is done. */
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
      PointPlan point = plan.points().point(rps, queries);
      OpenLoopReplayer.Settings settings =
          new OpenLoopReplayer.Settings(
              warmupNanos(point), plan.maxBacklog(), plan.drainNanos(), plan.targetsNanos());
      OpenLoopReplayer.Labels labels =
          new OpenLoopReplayer.Labels(rps, point.arrivals(), point.seed(), environment, corpus);
      for (String policy : plan.policies()) {
        try (Target target = targets.open(policy)) {
          PointResult r =
              OpenLoopReplayer.run(target, point.offsetsNanos(), point.order(), settings, labels);
          results.add(r);
          onPoint.accept(r);
        }
      }
    }
    return results;
  }

  /**
   * The replayer's warm-up: up to the first counted request's intended send, so that it counts the
   * requests the simulator counts. With every request warm-up, past the last one.
   */
  static long warmupNanos(PointPlan point) {
    if (point.measuredRequests() > 0) {
      return point.measureFromNanos();
    }
    long[] offsets = point.offsetsNanos();
    return offsets.length == 0 ? 1 : offsets[offsets.length - 1] + 1;
  }
}
