package dev.tailor.bench;

import dev.tailor.core.table.IntervalTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.model.ParametricProfile;
import dev.tailor.sim.model.ScheduleEvaluator;
import dev.tailor.sim.model.Workload;
import dev.tailor.tables.FmTableBuilder;
import java.io.PrintWriter;

/**
 * {@code bench fm-build}: how long the Few-to-Many interval-table search takes on this machine, for
 * the paper-sized case: a 10,000-request paper-shaped profile ({@link ParametricProfile}, seed 1),
 * n = 4, 10 ms steps across the longest request's life, loads 1..32, every request evaluated
 * (exact) and in demand bins. The paper reports 4-6 hours exact and "a few minutes" binned.
 */
public final class FmBuildBench {

  static final int REQUESTS = 10_000;
  static final int BINS = 100;
  static final double GOAL_SECONDS = 60;
  static final int LOADS = 32;

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "fm-build";

  private FmBuildBench() {}

  /**
   * Measures and prints the figures; {@code quick} measures less: a rough figure in a fraction of
   * the time.
   */
  public static void run(boolean quick, PrintWriter out) {
    int threads = Runtime.getRuntime().availableProcessors();
    int requests = quick ? REQUESTS / 10 : REQUESTS;
    DemandProfile profile = ParametricProfile.generate(requests, 16, 1);
    Workload workload = Workload.of(profile);
    out.printf(
        "%nfm-build: measured on this machine (%d cores, %d search threads)%n", threads, threads);
    out.printf(
        "  profile: parametric (FM paper's Lucene shape), %d requests, seed 1, longest %.0f ms%n",
        requests, workload.longestNanos() / 1e6);
    out.printf(
        "  search: n = 4, step 10ms, horizon = longest, loads 1..32, target_p 18 (16 cores)%n");
    out.flush();
    // One untimed binned build warms the JIT, so the first timed build is not charged for it.
    build(workload, BINS, threads);
    IntervalTable binned = build(workload, BINS, threads);
    IntervalTable exact = build(workload, 0, threads);
    out.printf("  %-34s %10.2f s%n", "exact (every request evaluated)", exact.buildSeconds());
    out.printf("  %-34s %10.2f s%n", "binned (" + BINS + " demand bins)", binned.buildSeconds());
    out.printf("  %-34s %10.1fx%n", "exact / binned", exact.buildSeconds() / binned.buildSeconds());
    // What binning costs: the binned rows' tails, evaluated on every request, against exact's.
    ScheduleEvaluator model = new ScheduleEvaluator(workload, 4, 0.99);
    int same = 0;
    double worst = 0;
    for (int q = 1; q <= LOADS; q++) {
      if (binned.schedule(q).equals(exact.schedule(q))) {
        same++;
      }
      double tail = model.evaluate(binned.schedule(q)).tailNanos();
      worst = Math.max(worst, tail / exact.rows().get(q - 1).tailNanos() - 1);
    }
    out.printf(
        "  binned rows equal to exact: %d of %d; worst P99 of a binned row, on every request:"
            + " %+.1f%% over exact's%n",
        same, LOADS, 100 * worst);
    out.printf(
        "  goal: exact build <= %.0f s on this machine -> %s%n",
        GOAL_SECONDS, exact.buildSeconds() <= GOAL_SECONDS ? "met" : "NOT met");
    out.flush();
  }

  private static IntervalTable build(Workload workload, int bins, int threads) {
    FmTableBuilder.Options o =
        new FmTableBuilder.Options(
            16, IntervalTable.Rule.paper(18), 4, null, 10_000_000L, 0, 0.99, LOADS, bins, threads);
    return new FmTableBuilder(o).build(workload, "parametric", "sha256:" + "0".repeat(64));
  }
}
