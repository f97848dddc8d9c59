package dev.tailor.load.fidelity;

import dev.tailor.core.metrics.PointResult;
import dev.tailor.load.report.Metric;
import dev.tailor.load.report.Report;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.sim.Simulator;
import java.util.List;
import java.util.Locale;

/**
 * The fidelity comparison as a Markdown table: per measured point, each compared {@link Metric}
 * measured, then simulated under each work model with its relative error.
 */
public final class FidelityTable {

  /** The figures compared, in column order. */
  public static final List<Metric> METRICS = List.of(Metric.P50, Metric.P99);

  private FidelityTable() {}

  /**
   * The table, with a preamble naming what was compared and the simulated workload's spread.
   *
   * @param workload the simulated profile: what the preamble calls it, and its spread
   */
  public static String markdown(
      SimulatorFidelity.Comparison comparison, ReportedWorkload workload, MeasuredReport report) {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "Simulator fidelity: %s simulated on %d cores against the measured points"
                + " of %s.%nError = (simulated - measured) / measured. Work models: fluid is"
                + " Few-to-Many's (the tables' model), units the runtime's.%n%n%s%n%n",
            workload.source(),
            comparison.workers(),
            report.dir(),
            workload.summaryLine()));
    StringBuilder header = new StringBuilder("| policy | load (rps) |");
    StringBuilder rule = new StringBuilder("|---|---|");
    for (Metric metric : METRICS) {
      String name = metric.name().toUpperCase(Locale.ROOT);
      header.append(' ').append(name).append(" measured (").append(metric.unit()).append(") |");
      rule.append("---|");
      for (Simulator.WorkModel m : comparison.models()) {
        header
            .append(' ')
            .append(name)
            .append(' ')
            .append(m.name().toLowerCase(Locale.ROOT))
            .append(" (")
            .append(metric.unit())
            .append(") | error |");
        rule.append("---|---|");
      }
    }
    md.append(header).append('\n').append(rule).append('\n');
    for (SimulatorFidelity.Row r : comparison.rows()) {
      PointResult real = r.measured();
      md.append(
          String.format(
              Locale.ROOT,
              "| %s%s | %.0f |",
              Report.displayName(real.policy()),
              real.repetition() > 1 ? " (run " + real.repetition() + ")" : "",
              real.offeredRps()));
      for (Metric metric : METRICS) {
        md.append(' ').append(value(real, metric)).append(" |");
        for (PointResult sim : r.simulated()) {
          md.append(' ').append(value(sim, metric)).append(" | ");
          md.append(error(real, sim, metric)).append(" |");
        }
      }
      md.append('\n');
    }
    return md.toString();
  }

  private static String value(PointResult p, Metric metric) {
    return p.saturated() ? "sat." : String.format(Locale.ROOT, "%.2f", metric.value(p));
  }

  private static String error(PointResult real, PointResult sim, Metric metric) {
    if (real.saturated() || sim.saturated()) {
      return "-";
    }
    double measured = metric.value(real);
    return String.format(Locale.ROOT, "%+.0f%%", 100 * (metric.value(sim) - measured) / measured);
  }
}
