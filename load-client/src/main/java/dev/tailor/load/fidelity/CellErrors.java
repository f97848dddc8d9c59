package dev.tailor.load.fidelity;

import dev.tailor.load.report.Report;
import dev.tailor.measure.Estimate;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PooledLatency;
import dev.tailor.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The fidelity comparison by cell (a policy at a load), judged with the statistics a real run is
 * judged by: the cell's measured runs pooled ({@link PooledLatency}: their histograms merged, each
 * percentile with its 95% interval by bootstrap over whole runs), against the cell's simulations
 * over several arrival seeds, pooled the same way. A simulated percentile is within when it lies in
 * the measured interval widened by the goal at each end: from {@code (1 - goal) x low} to {@code (1
 * + goal) x high}; where the measured cell has one run, and so no interval, from {@code (1 - goal)
 * x value} to {@code (1 + goal) x value}, the plain relative error. A cell is within when its P50
 * and its P99 are.
 */
public final class CellErrors {

  /**
   * One cell.
   *
   * @param policy the measured policy
   * @param load the offered load, requests/s
   * @param runs the measured runs pooled
   * @param seeds the simulations pooled
   * @param measuredP50 the pooled measured P50 with its interval over the runs, milliseconds
   * @param simulatedP50 the pooled simulated P50 with its interval over the seeds, milliseconds
   * @param measuredP99 the pooled measured P99 with its interval, milliseconds
   * @param simulatedP99 the pooled simulated P99 with its interval over the seeds, milliseconds
   */
  public record Cell(
      String policy,
      double load,
      int runs,
      int seeds,
      Estimate measuredP50,
      Estimate simulatedP50,
      Estimate measuredP99,
      Estimate simulatedP99) {

    /** Whether the simulated P50 is within the measured interval widened by {@code goal}. */
    public boolean withinP50(double goal) {
      return CellErrors.within(measuredP50, simulatedP50, goal);
    }

    /** Whether the simulated P99 is within the measured interval widened by {@code goal}. */
    public boolean withinP99(double goal) {
      return CellErrors.within(measuredP99, simulatedP99, goal);
    }

    /** Whether both are. */
    public boolean within(double goal) {
      return withinP50(goal) && withinP99(goal);
    }
  }

  private CellErrors() {}

  /**
   * Whether {@code simulated}'s value lies in {@code measured}'s interval widened by {@code goal}
   * at each end ({@code (1 - goal) x low} to {@code (1 + goal) x high}), or, without an interval,
   * within {@code goal} of its value either way; false where either has no figure.
   */
  public static boolean within(Estimate measured, Estimate simulated, double goal) {
    if (!measured.known() || !simulated.known()) {
      return false;
    }
    double low = measured.hasInterval() ? measured.low() : measured.value();
    double high = measured.hasInterval() ? measured.high() : measured.value();
    double v = simulated.value();
    return v >= (1 - goal) * low && v <= (1 + goal) * high;
  }

  /**
   * The cells of a comparison under {@code model}, by load then policy; a cell with a saturated run
   * or a saturated simulation is left out, as it has no latency to compare.
   *
   * @throws IllegalArgumentException if the comparison did not simulate {@code model}
   */
  public static List<Cell> of(SimulatorFidelity.Comparison comparison, Simulator.WorkModel model) {
    int m = comparison.models().indexOf(model);
    if (m < 0) {
      throw new IllegalArgumentException("the comparison did not simulate the " + model + " model");
    }
    List<Cell> cells = new ArrayList<>();
    for (SimulatorFidelity.CellRuns c : comparison.cells()) {
      List<PointResult> simulated = c.simulated().get(m);
      if (c.measured().stream().anyMatch(PointResult::saturated)
          || simulated.stream().anyMatch(PointResult::saturated)) {
        continue;
      }
      PooledLatency measured = PooledLatency.ofPoints(c.measured());
      PooledLatency sims = PooledLatency.ofPoints(simulated);
      cells.add(
          new Cell(
              c.policy(),
              c.load(),
              measured.runs(),
              sims.runs(),
              measured.at(50).times(1e-6),
              sims.at(50).times(1e-6),
              measured.at(99).times(1e-6),
              sims.at(99).times(1e-6)));
    }
    return cells;
  }

  /**
   * The cells as a Markdown table, every cell's pooled figures with their intervals and whether the
   * simulated ones are within the measured interval widened by {@code goal}, closed by a count of
   * the cells within it.
   */
  public static String markdown(List<Cell> cells, Simulator.WorkModel model, double goal) {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "By cell, %s work model: measured runs pooled (95%% interval by bootstrap over runs)"
                + " against simulations over arrival seeds pooled (interval over seeds). Within:"
                + " the simulated figure lies from %.1f x the measured interval's low end to %.1f"
                + " x its high end (without an interval, within %.0f%% of the measured figure).%n%n",
            model.name().toLowerCase(Locale.ROOT),
            1 - goal,
            1 + goal,
            100 * goal));
    md.append(
        "| policy | load (rps) | runs | seeds | P50 measured (ms) | P50 simulated (ms) | within |"
            + " P99 measured (ms) | P99 simulated (ms) | within |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    int within = 0;
    for (Cell c : cells) {
      within += c.within(goal) ? 1 : 0;
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.0f | %d | %d | %s | %s | %s | %s | %s | %s |%n",
              Report.displayName(c.policy()),
              c.load(),
              c.runs(),
              c.seeds(),
              c.measuredP50().format("%.2f"),
              c.simulatedP50().format("%.2f"),
              c.withinP50(goal) ? "yes" : "no",
              c.measuredP99().format("%.2f"),
              c.simulatedP99().format("%.2f"),
              c.withinP99(goal) ? "yes" : "no"));
    }
    md.append(
        String.format(
            Locale.ROOT, "%n%d of %d cells within at both P50 and P99.%n", within, cells.size()));
    return md.toString();
  }
}
