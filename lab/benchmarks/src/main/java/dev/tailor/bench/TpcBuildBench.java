package dev.tailor.bench;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.model.ParametricProfile;
import dev.tailor.tables.TpcTableBuilder;
import java.io.PrintWriter;
import java.util.List;

/**
 * {@code bench tpc-build}: how long TPC's target-table search (Jeon et al., ASPLOS'16, Algorithm 1)
 * takes on this machine with the simulator as MeasureTail, for a paper-sized case: a 10,000-request
 * paper-shaped profile ({@link ParametricProfile}, seed 1) on 16 simulated cores, P = 6, five rates
 * across the load range, 4,000 requests per simulated point, the perfect predictor's table. The
 * baseline of the same run is one MeasureTail (the initial table simulated at every rate), so the
 * build is reported as a number of MeasureTails as well as in seconds.
 */
public final class TpcBuildBench {

  static final int REQUESTS = 10_000;
  static final double GOAL_SECONDS = 600;

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "tpc-build";

  private TpcBuildBench() {}

  /** Measures and prints the figures; {@code quick} builds on a tenth of the profile. */
  public static void run(boolean quick, PrintWriter out) {
    int threads = Runtime.getRuntime().availableProcessors();
    int requests = quick ? REQUESTS / 10 : REQUESTS;
    DemandProfile profile = ParametricProfile.generate(requests, 16, 1);
    TpcTableBuilder builder =
        new TpcTableBuilder(
            TpcTableBuilder.Options.builder()
                .cores(16)
                .maxDegree(6)
                .ratesRps(List.of(20.0, 30.0, 40.0, 50.0, 60.0))
                .loads(9)
                .requests(quick ? 1_000 : 4_000)
                .seed(1)
                .model(Simulator.WorkModel.FLUID)
                .quantumNanos(Scheduler.DEFAULT_QUANTUM_NANOS)
                .maxIterations(2_000)
                .stepDoublings(6)
                .threads(threads)
                .variant(TpcPolicy.Variant.TPC_ORACLE)
                .loadMetric(TargetTable.LoadMetric.LONG_THREADS)
                .build());
    out.printf(
        "%ntpc-build: measured on this machine (%d cores, %d measuring threads)%n",
        threads, threads);
    out.printf(
        "  profile: parametric (FM paper's Lucene shape), %d requests, seed 1; 16 cores, P = 6;"
            + " p99 at 20-60 rps, %d requests per point; rows LongT 0..8 and more%n",
        requests, quick ? 1_000 : 4_000);
    out.flush();
    TpcTableBuilder.Sources sources =
        new TpcTableBuilder.Sources("parametric", "sha256:" + "0".repeat(64), null, null);
    // One untimed MeasureTail warms the JIT; the next, timed, is the unit of the build's cost.
    TargetTable table = builder.build(profile, sources);
    builder.weightedTail(table, profile);
    long start = System.nanoTime();
    builder.weightedTail(table, profile);
    double measureSeconds = (System.nanoTime() - start) / 1e9;
    out.printf("  %-40s %10.3f s%n", "one MeasureTail (5 rates, one thread)", measureSeconds);
    out.printf(
        "  %-40s %10.1f s  (%d steps, %d tables)%n",
        "build", table.buildSeconds(), table.search().iterations(), table.search().measurements());
    out.printf(
        "  %-40s %10.0fx%n", "build / one MeasureTail", table.buildSeconds() / measureSeconds);
    out.printf(
        "  goal: a 10,000-request profile on 16 simulated cores builds in minutes (<= %.0f s)"
            + " -> %s%n",
        GOAL_SECONDS,
        quick ? "not judged (--quick)" : table.buildSeconds() <= GOAL_SECONDS ? "met" : "NOT met");
    out.flush();
  }
}
