package dev.tailor.load.fidelity;

import dev.tailor.core.Durations;
import dev.tailor.load.report.Metric;
import dev.tailor.load.report.Report;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Simulator;
import java.util.List;
import java.util.Locale;

/**
 * The fidelity comparison as a Markdown table: per measured point, each compared {@link Metric}
 * measured, then simulated under each work model with its relative error; given a latency target
 * the points recorded, also the share of requests that missed it, measured and simulated, with
 * their difference.
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
    return markdown(comparison, workload, report, 0);
  }

  /**
   * The table, as {@link #markdown(SimulatorFidelity.Comparison, ReportedWorkload, MeasuredReport)}
   * gives it, with the miss ratio at a latency target where the measured points recorded it ({@link
   * #recordsTarget}).
   *
   * @param workload the simulated profile: what the preamble calls it, and its spread
   * @param targetNanos the latency target, or 0 for none
   */
  public static String markdown(
      SimulatorFidelity.Comparison comparison,
      ReportedWorkload workload,
      MeasuredReport report,
      long targetNanos) {
    Metric miss = recordsTarget(comparison, targetNanos) ? missAt(targetNanos) : null;
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
    if (miss != null) {
      md.append("Misses: the share of requests slower than ")
          .append(Durations.format(targetNanos))
          .append(
              " or failed, in percent; its difference is simulated minus measured, in percentage points")
          .append(" (a relative error of a share near zero would say little).\n\n");
    }
    StringBuilder header = new StringBuilder("| policy | load (rps) |");
    StringBuilder rule = new StringBuilder("|---|---|");
    for (Metric metric : METRICS) {
      columns(
          header,
          rule,
          metric.name().toUpperCase(Locale.ROOT),
          metric.unit(),
          "error",
          comparison.models());
    }
    if (miss != null) {
      columns(
          header,
          rule,
          "misses at " + Durations.format(targetNanos),
          "%",
          "difference",
          comparison.models());
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
      if (miss != null) {
        md.append(' ').append(percent(real, miss)).append(" |");
        for (PointResult sim : r.simulated()) {
          md.append(' ').append(percent(sim, miss)).append(" | ");
          md.append(difference(real, sim, miss)).append(" |");
        }
      }
      md.append('\n');
    }
    return md.toString();
  }

  /**
   * Whether any measured point of the comparison recorded its miss ratio at the target (false for
   * no target): the points record the targets their replay was given, and no other.
   */
  public static boolean recordsTarget(SimulatorFidelity.Comparison comparison, long targetNanos) {
    if (targetNanos <= 0) {
      return false;
    }
    Metric miss = missAt(targetNanos);
    return comparison.rows().stream().anyMatch(r -> !Double.isNaN(miss.value(r.measured())));
  }

  /** The miss ratio at a target, under the label points record it by. */
  private static Metric missAt(long targetNanos) {
    return Metric.missRatio(Durations.format(targetNanos));
  }

  private static String percent(PointResult p, Metric miss) {
    double v = miss.value(p);
    return p.saturated()
        ? "sat."
        : Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", 100 * v);
  }

  private static String difference(PointResult real, PointResult sim, Metric miss) {
    double measured = miss.value(real);
    double simulated = miss.value(sim);
    if (real.saturated() || sim.saturated() || Double.isNaN(measured) || Double.isNaN(simulated)) {
      return "-";
    }
    return String.format(Locale.ROOT, "%+.2f pp", 100 * (simulated - measured));
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

  /**
   * The columns of one figure: measured, then each model's simulation beside its {@code comparison}
   * with the measured one.
   */
  private static void columns(
      StringBuilder header,
      StringBuilder rule,
      String name,
      String unit,
      String comparison,
      List<Simulator.WorkModel> models) {
    header.append(' ').append(name).append(" measured (").append(unit).append(") |");
    rule.append("---|");
    for (Simulator.WorkModel m : models) {
      header
          .append(' ')
          .append(name)
          .append(' ')
          .append(m.name().toLowerCase(Locale.ROOT))
          .append(" (")
          .append(unit)
          .append(") | ")
          .append(comparison)
          .append(" |");
      rule.append("---|---|");
    }
  }
}
