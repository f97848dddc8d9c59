package dev.tailor.sweep;

import dev.tailor.core.table.IntervalTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.tables.FmRuleCandidates;
import dev.tailor.tables.FmTableBuilder;
import dev.tailor.tables.FmTableTuner;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The capacity plan's {@value CapacityPlan#TUNED_FM} candidate: Few-to-Many's work-conserving
 * policy on an interval table tuned for one core count as {@code tables tune fm} tunes one, by the
 * throughput rule against {@link CapacityPlan#FM_BASELINES}, on {@code tables build fm}'s grid.
 *
 * <p>Apart from the plan because it is the one candidate that must be built before it can be
 * simulated: a table search of its own, with its own grid and log, per core count.
 */
final class TunedFm {

  /** The tuned table's grid step, {@code tables build fm}'s default. */
  static final long FM_STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  /** The tuned table's rows (loads 1..32) and quantile, {@code tables build fm}'s defaults. */
  static final int FM_LOADS = 32;

  static final double FM_PHI = 0.99;

  private TunedFm() {}

  /** Tunes the Few-to-Many table for {@code cores} as {@code tables tune fm} does. */
  static FmTableTuner.Tuned tune(
      DemandProfile profile,
      String profileName,
      String profileDigest,
      CapacityPlan.Settings s,
      int cores,
      Simulator.Config config,
      PrintWriter log) {
    List<IntervalTable.Rule> candidates =
        FmRuleCandidates.throughput(s.fmUtilizations(), s.fmQueueFactors());
    FmTableBuilder.Options grid =
        new FmTableBuilder.Options(
            cores,
            candidates.get(0),
            s.maxDegree(),
            null,
            FM_STEP_NANOS,
            0,
            FM_PHI,
            FM_LOADS,
            0,
            Runtime.getRuntime().availableProcessors());
    FmTableTuner.Plan plan =
        new FmTableTuner.Plan(
            grid,
            candidates,
            "fm-wc",
            CapacityPlan.FM_BASELINES,
            s.rps(),
            config,
            s.requests(),
            s.seed());
    log.printf("%d cores: tuning fm-wc's table on %d candidates%n", cores, candidates.size());
    log.flush();
    FmTableTuner.Tuned tuned =
        new FmTableTuner(plan)
            .tune(profile, profileName, profileDigest, t -> log.println("  " + t.describe()));
    log.println("  chosen: " + tuned.chosen().describe());
    log.flush();
    return tuned;
  }
}
