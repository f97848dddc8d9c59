package dev.tailor.bench;

import dev.tailor.auto.AutoPolicy;
import dev.tailor.auto.AutoSettings;
import dev.tailor.auto.AutoStatus;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.ParametricProfile;
import java.io.PrintWriter;
import java.util.Arrays;

/**
 * {@code bench auto-rebuild}: what {@code auto} costs beside the requests it serves. Its reservoir
 * is filled by simulating a paper-shaped workload ({@link ParametricProfile}, 2,000 requests, seed
 * 1) on 16 cores at half their capacity, with the default settings but no rebuild on the way; then
 * the rebuild (profile, target-table search, the guard's simulations) runs on this thread, once to
 * warm up and then timed, and its CPU time is set against the default period: the share of one core
 * the rebuilds take averaged. The reservoir's memory is its arrays', full.
 */
public final class AutoRebuildBench {

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "auto-rebuild";

  /** The share of one core the rebuilds may take averaged at the default period. */
  static final double GOAL_SHARE = 0.02;

  private AutoRebuildBench() {}

  /** Measures and prints the figures; {@code quick} times one rebuild instead of three. */
  public static void run(boolean quick, PrintWriter out) {
    int timed = quick ? 1 : 3;
    DemandProfile profile = ParametricProfile.generate(2000, 8, 1);
    AutoSettings defaults = AutoSettings.DEFAULTS;
    // The defaults, but rebuilt by hand only, and on the simulator's thread.
    AutoSettings settings = AutoSettings.parse("period=100000m,max-degree=8");
    try (AutoPolicy auto = AutoPolicy.forSimulation(settings)) {
      double rate = 0.5 * 16 * 1e9 / profile.meanSequentialNanos();
      int requests = 3 * defaults.samples();
      new Simulator(profile, auto, Simulator.Config.of(16, requests))
          .run(SweepPlan.counted("poisson", 1, requests).point(rate, 2000), "bench");
      AutoStatus filled = auto.status();
      out.printf(
          "%nauto-rebuild: measured on this machine (%d cores); default settings: %d samples,"
              + " period %.0f s, at least %d requests, %d requests a simulated point, %d seeds,"
              + " %d search steps%n",
          Runtime.getRuntime().availableProcessors(),
          defaults.samples(),
          defaults.periodNanos() / 1e9,
          defaults.requests(),
          defaults.requestsPerPoint(),
          defaults.seeds(),
          defaults.iterations());
      out.printf(
          "  workload: parametric, 2000 requests, seed 1; 16 simulated cores, degree cap 8, %.1f"
              + " rps (half the capacity); %d samples held, %d probed%n",
          rate, filled.samplesHeld(), filled.probes());
      auto.rebuildNow(); // warm-up, untimed
      double[] cpu = new double[timed];
      double[] wall = new double[timed];
      AutoStatus.Verdict v = null;
      for (int i = 0; i < timed; i++) {
        v = auto.rebuildNow();
        if (v == null) {
          out.printf("  the rebuild failed: %s%n", auto.status().lastFailure());
          return;
        }
        cpu[i] = v.cpuNanos() / 1e9;
        wall[i] = v.wallNanos() / 1e9;
      }
      Arrays.sort(cpu);
      Arrays.sort(wall);
      double cpuMedian = cpu[timed / 2];
      double share = cpuMedian / (defaults.periodNanos() / 1e9);
      out.printf(
          "  %-44s %10.2f s  (of %d timed: %.2f-%.2f)%n",
          "CPU per rebuild, median", cpuMedian, timed, cpu[0], cpu[timed - 1]);
      out.printf("  %-44s %10.2f s%n", "wall time per rebuild, median", wall[timed / 2]);
      out.printf(
          "  %-44s %10.3f%%  (CPU per rebuild / %.0f s)%n",
          "share of one core at the default period", 100 * share, defaults.periodNanos() / 1e9);
      out.printf(
          "  %-44s %10.0f s  (CPU per rebuild / %.0f%%)%n",
          "least wait the CPU cap imposes",
          cpuMedian / defaults.cpuShare(),
          100 * defaults.cpuShare());
      long bytes = auto.status().reservoirBytes();
      out.printf(
          "  %-44s %10d KiB (%d samples and %d probes, 34 bytes each)%n",
          "reservoir memory", bytes / 1024, defaults.samples(), bytes / 34 - defaults.samples());
      out.printf("  last verdict: %s%n", v.reason());
      out.printf(
          "  goal: at most %.0f%% of one core averaged at the default period -> %s%n",
          100 * GOAL_SHARE, share <= GOAL_SHARE ? "met" : "NOT met");
      out.flush();
    }
  }
}
