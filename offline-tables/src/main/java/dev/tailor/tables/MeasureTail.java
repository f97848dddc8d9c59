package dev.tailor.tables;

import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.ProgressPolicy;
import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import java.util.List;

/**
 * MeasureTail of Jeon et al., ASPLOS'16, Algorithm 1: a TPC table's weighted tail latency, the sum
 * over the production rates of each rate's weight times its tail quantile, each rate simulated over
 * the options' seeds (mean) with the very policy that will read the table.
 *
 * <p>Apart from {@link TpcTableBuilder} because it is the search's objective, not its loop: {@link
 * TargetSearch} calls it once for every table it tries, and the builder's guard calls it again to
 * compare a new table and the current one, so it must measure both alike.
 */
final class MeasureTail {

  /** What a saturated point adds to the weighted tail, in nanoseconds: 1000 s. */
  static final double SATURATED_NANOS = 1e12;

  private final TpcTableBuilder.Options options;
  private final Calibration calibration;
  private final boolean forProgress;

  /**
   * @param calibration what a served request costs beyond its profiled time, or null for nothing
   * @param forProgress whether to simulate the progress-aware policy rather than TPC
   */
  MeasureTail(TpcTableBuilder.Options options, Calibration calibration, boolean forProgress) {
    this.options = options;
    this.calibration = calibration;
    this.forProgress = forProgress;
  }

  /** The same measurement of the progress-aware policy ({@link ProgressPolicy}) rather than TPC. */
  MeasureTail forProgress() {
    return new MeasureTail(options, calibration, true);
  }

  /**
   * The table's weighted tail on {@code profile}. A saturated point counts {@link #SATURATED_NANOS}
   * plus its tail, so that a table that saturates a rate loses to one that does not, yet two
   * saturating tables still compare.
   */
  double of(TargetTable table, DemandProfile profile) {
    double[] w = options.weightValues();
    double sum = 0;
    try (TableSource<TargetTable> source = TableSource.fixed(table)) {
      for (int i = 0; i < w.length; i++) {
        if (w[i] == 0) {
          continue; // a rate of weight 0 is not worth its simulation
        }
        double tail = 0;
        for (int s = 0; s < options.seeds(); s++) {
          PointResult r = simulate(source, profile, options.ratesRps().get(i), options.seed() + s);
          double q = r.latencyAt(options.quantile());
          tail += (r.saturated() ? SATURATED_NANOS : 0) + (Double.isNaN(q) ? 0 : q);
        }
        sum += w[i] * tail / options.seeds();
      }
    }
    return sum;
  }

  private PointResult simulate(
      TableSource<TargetTable> source, DemandProfile profile, double rps, long seed) {
    SweepPlan sweep = SweepPlan.counted("poisson", seed, options.requests());
    PointPlan point = sweep.point(rps, profile.requests().size());
    Simulator.Config config =
        new Simulator.Config(
            options.cores(),
            options.quantumNanos(),
            source.current().longThresholdNanos(),
            point.warmupRequests(),
            Math.max(1_000, options.requests()),
            List.of(),
            options.model(),
            calibration);
    try (Policy policy =
        forProgress ? ProgressPolicy.of(source, null) : TpcPolicy.of(options.variant(), source)) {
      return new Simulator(profile, policy, config).run(point, "tpc-build");
    }
  }
}
