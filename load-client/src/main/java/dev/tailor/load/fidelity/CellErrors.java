package dev.tailor.load.fidelity;

import dev.tailor.load.report.Metric;
import dev.tailor.load.report.Report;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Simulator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fidelity comparison by cell, a policy at a load: the median over its repetitions of the
 * measured P50 and P99 against the median of the simulated ones, under one work model, and whether
 * each error is within a goal. Where the row-by-row table says how each run fared, this is what a
 * goal such as "within 20% at every load up to 70% of capacity" is judged on.
 */
public final class CellErrors {

  /**
   * One cell.
   *
   * @param policy the measured policy
   * @param load the offered load, requests/s
   * @param runs the repetitions
   * @param measuredP50 median measured P50, milliseconds
   * @param simulatedP50 median simulated P50, milliseconds
   * @param measuredP99 median measured P99, milliseconds
   * @param simulatedP99 median simulated P99, milliseconds
   */
  public record Cell(
      String policy,
      double load,
      int runs,
      double measuredP50,
      double simulatedP50,
      double measuredP99,
      double simulatedP99) {

    /** (simulated - measured) / measured of the P50. */
    public double errorP50() {
      return (simulatedP50 - measuredP50) / measuredP50;
    }

    /** (simulated - measured) / measured of the P99. */
    public double errorP99() {
      return (simulatedP99 - measuredP99) / measuredP99;
    }

    /** Whether both errors are within {@code goal} (a fraction) either way. */
    public boolean within(double goal) {
      return Math.abs(errorP50()) <= goal && Math.abs(errorP99()) <= goal;
    }
  }

  private CellErrors() {}

  /**
   * The cells of a comparison under {@code model}, by load then policy; saturated runs are left
   * out, as they have no latency to compare.
   *
   * @throws IllegalArgumentException if the comparison did not simulate {@code model}
   */
  public static List<Cell> of(SimulatorFidelity.Comparison comparison, Simulator.WorkModel model) {
    int m = comparison.models().indexOf(model);
    if (m < 0) {
      throw new IllegalArgumentException("the comparison did not simulate the " + model + " model");
    }
    Map<String, List<SimulatorFidelity.Row>> byCell = new LinkedHashMap<>();
    for (SimulatorFidelity.Row row : comparison.rows()) {
      PointResult p = row.measured();
      if (!p.saturated() && !row.simulated().get(m).saturated()) {
        byCell.computeIfAbsent(p.offeredRps() + "|" + p.policy(), k -> new ArrayList<>()).add(row);
      }
    }
    List<Cell> cells = new ArrayList<>();
    for (List<SimulatorFidelity.Row> rows : byCell.values()) {
      PointResult first = rows.get(0).measured();
      cells.add(
          new Cell(
              first.policy(),
              first.offeredRps(),
              rows.size(),
              median(rows, r -> Metric.P50.value(r.measured())),
              median(rows, r -> Metric.P50.value(r.simulated().get(m))),
              median(rows, r -> Metric.P99.value(r.measured())),
              median(rows, r -> Metric.P99.value(r.simulated().get(m)))));
    }
    return cells;
  }

  private static double median(
      List<SimulatorFidelity.Row> rows,
      java.util.function.ToDoubleFunction<SimulatorFidelity.Row> value) {
    double[] v = rows.stream().mapToDouble(value).toArray();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /**
   * The cells as a Markdown table, every cell with both errors and whether they are within {@code
   * goal}, closed by a count of the cells within it.
   */
  public static String markdown(List<Cell> cells, Simulator.WorkModel model, double goal) {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "By cell (median over the repetitions), %s work model; goal: P50 and P99 within %.0f%%%n%n",
            model.name().toLowerCase(Locale.ROOT),
            100 * goal));
    md.append(
        "| policy | load (rps) | runs | P50 measured (ms) | P50 simulated (ms) | error |"
            + " P99 measured (ms) | P99 simulated (ms) | error | within |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    int within = 0;
    for (Cell c : cells) {
      within += c.within(goal) ? 1 : 0;
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.0f | %d | %.2f | %.2f | %+.0f%% | %.2f | %.2f | %+.0f%% | %s |%n",
              Report.displayName(c.policy()),
              c.load(),
              c.runs(),
              c.measuredP50(),
              c.simulatedP50(),
              100 * c.errorP50(),
              c.measuredP99(),
              c.simulatedP99(),
              100 * c.errorP99(),
              c.within(goal) ? "yes" : "no"));
    }
    md.append(
        String.format(
            Locale.ROOT,
            "%n%d of %d cells within %.0f%% at both P50 and P99.%n",
            within,
            cells.size(),
            100 * goal));
    return md.toString();
  }
}
