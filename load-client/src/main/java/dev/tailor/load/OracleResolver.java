package dev.tailor.load;

import dev.tailor.core.Scheduler;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.HindsightOracle;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Resolves a bare {@value HindsightOracle#SPEC} in a sweep at each load to the budget {@link
 * HindsightOracle#tune} chooses for it, by simulating the replay's own point (arrivals, order,
 * warm-up) on the replay's workers, clairvoyant, under the runtime's work model where the profile
 * has unit times (else the fluid one).
 */
public final class OracleResolver {

  private OracleResolver() {}

  /**
   * The resolver of a sweep's tuned oracle; every other policy is left as it is.
   *
   * @param profile the replayed queries' requests, in the trace's order ({@link
   *     ProfiledTrace#inTraceOrder})
   * @param plan the sweep
   * @param workers the replay's parallelism budget
   * @param cap the sweep's degree cap, or 0 for none (then the workers are the oracle's N)
   * @param corpus the index's source label, for the simulated point
   * @param calibration what the simulation charges for this machine, or null for nothing
   * @param err where each tuning says what it tried
   */
  public static Sweep.Resolver of(
      DemandProfile profile,
      Sweep.Plan plan,
      int workers,
      int cap,
      String corpus,
      Calibration calibration,
      PrintWriter err) {
    Simulator.WorkModel model =
        profile.requests().stream().allMatch(DemandProfile.Request::hasUnitTimes)
            ? Simulator.WorkModel.UNITS
            : Simulator.WorkModel.FLUID;
    Simulator.Config config =
        new Simulator.Config(
            workers,
            Scheduler.DEFAULT_QUANTUM_NANOS,
            Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
            0,
            plan.maxBacklog(),
            plan.targetsNanos(),
            model,
            calibration);
    return (listed, rps) -> {
      if (!HindsightOracle.isTuned(listed)) {
        return listed;
      }
      PointPlan point = plan.points().point(rps, profile.requests().size());
      HindsightOracle.Tuned tuned =
          HindsightOracle.tune(profile, config, point, corpus, cap > 0 ? cap : workers);
      err.printf(
          "  oracle at %.1f rps, simulated (%s): runs %s; budgets tried: %s%n",
          rps, model.name().toLowerCase(Locale.ROOT), tuned.spec(), tuned.describe());
      err.flush();
      return tuned.spec();
    };
  }
}
