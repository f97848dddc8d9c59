package dev.tailor.sweep;

import dev.tailor.core.Scheduler;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.LogNormalProfile;
import dev.tailor.sim.model.ParametricProfile;
import java.util.List;

/**
 * The synthetic workloads the studies simulate, and the simulator's configuration of a counted
 * point: a number of requests, the first tenth of them warm-up.
 */
public final class Workloads {

  /** The synthetic workload a study runs by default: tail-control's (Li et al., PPoPP'16, §5). */
  public static final String DEFAULT_LOGNORMAL = "10ms,13ms";

  private Workloads() {}

  /**
   * {@code requests} seeded requests of tail-control's log-normal work, {@code MEAN,SD[,SERIAL]},
   * with speedup curves up to {@code maxCores} threads (at least 16).
   *
   * @throws IllegalArgumentException if the shape is bad
   */
  public static DemandProfile lognormal(String shape, int requests, int maxCores, long seed) {
    return LogNormalProfile.generate(
        LogNormalProfile.Shape.parse(shape), requests, Math.max(maxCores, 16), seed);
  }

  /**
   * {@code lognormal:MEAN,SD[,SERIAL]} as {@link #lognormal}, or {@code parametric}: the
   * Few-to-Many paper's Lucene shape, {@code requests} of them.
   *
   * @throws IllegalArgumentException naming the expected forms if {@code spec} is neither
   */
  public static DemandProfile synthetic(String spec, int requests, int maxCores, long seed) {
    String w = spec.trim();
    if (w.equals("parametric")) {
      return ParametricProfile.generate(requests, Math.max(maxCores, 16), seed);
    }
    if (w.startsWith("lognormal:")) {
      return lognormal(w.substring("lognormal:".length()), requests, maxCores, seed);
    }
    throw new IllegalArgumentException(
        "unknown workload '"
            + w
            + "'; expected lognormal:MEAN,SD[,SERIAL] (e.g. lognormal:10ms,13ms) or parametric");
  }

  /**
   * The simulator's configuration of points of {@code requests} requests, the first tenth warm-up.
   *
   * @param targets the latency targets whose miss ratios every point records
   * @param calibration what a served request costs beyond its profiled time, or null
   */
  public static Simulator.Config counted(
      int cores,
      long quantumNanos,
      int requests,
      List<Long> targets,
      Simulator.WorkModel model,
      Calibration calibration) {
    return new Simulator.Config(
        cores,
        quantumNanos,
        Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
        requests / SweepPlan.COUNTED_WARMUP_DIVISOR,
        Math.max(1_000, requests),
        targets,
        model,
        calibration);
  }

  /** {@link #counted} under the unit model, the default quantum and no latency target. */
  public static Simulator.Config countedUnits(int cores, int requests, Calibration calibration) {
    return counted(
        cores,
        Scheduler.DEFAULT_QUANTUM_NANOS,
        requests,
        List.of(),
        Simulator.WorkModel.UNITS,
        calibration);
  }
}
