package dev.tailor.sweep;

import dev.tailor.core.json.JsonFile;
import dev.tailor.load.report.LoadPlot;
import dev.tailor.load.report.Report;
import dev.tailor.measure.Estimate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A capacity plan ({@link CapacityPlan.Result}) as the command line gives it: a Markdown answer per
 * core count with every policy's predictions beneath, a plot of the best policy's predicted P99
 * against load per core count with the target across, and the plan as JSON.
 */
public final class PlanReport {

  private PlanReport() {}

  /** The plan as Markdown. */
  public static String markdown(CapacityPlan.Result r) {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(Locale.ROOT, "# Capacity plan: P99 at most %s ms%n%n", ms(r.targetMs())));
    md.append(
        String.format(
            Locale.ROOT,
            "Simulated: %s; %s; every policy capped at degree %d; %d arrival seed(s) a point of %d"
                + " requests (a tenth warm-up), each figure pooled over the seeds with its 95%%"
                + " interval by bootstrap over them.%n%n",
            r.workload(),
            r.calibration() == null ? "no calibration" : "with the " + r.calibration(),
            r.maxDegree(),
            r.seeds(),
            r.requests()));
    CapacityPlan.Bound b = r.bound();
    md.append(
        String.format(
            Locale.ROOT,
            "The profile's P99 is %s ms at degree 1 and %s ms with every request at its best degree"
                + " up to %d, alone: no policy's P99 goes below that.%n%n",
            ms(b.sequentialP99Ms()),
            ms(b.bestP99Ms()),
            b.maxDegree()));
    md.append(
        "| cores | holds the target to the highest load | up to (rps) | P50 there (ms) | P99"
            + " there (ms) |\n");
    md.append("|---|---|---|---|---|\n");
    for (CapacityPlan.AtCores a : r.byCores()) {
      if (a.best() == null) {
        md.append(
            String.format(
                Locale.ROOT,
                "| %d | none, at %s rps already | - | - | - |%n",
                a.cores(),
                rps(r.rps().get(0))));
        continue;
      }
      CapacityPlan.Prediction p = a.at(a.best(), a.heldToRps());
      md.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %s | %s | %s |%n",
              a.cores(),
              Report.displayName(a.best()),
              rps(a.heldToRps()),
              p.p50Ms().format("%.2f"),
              p.p99Ms().format("%.2f")));
    }
    md.append('\n');
    if (r.peakRps() != null) {
      if (r.coresForPeak() == null) {
        md.append(
            String.format(
                Locale.ROOT,
                "At the peak of %s rps no core count given holds the target.%n%n",
                rps(r.peakRps())));
      } else {
        CapacityPlan.Prediction p = r.atCores(r.coresForPeak()).at(r.policyAtPeak(), r.peakRps());
        md.append(
            String.format(
                Locale.ROOT,
                "At the peak of %s rps, %d cores are the fewest of those given that hold the"
                    + " target: %s, P99 %s ms.%n%n",
                rps(r.peakRps()),
                r.coresForPeak(),
                Report.displayName(r.policyAtPeak()),
                p.p99Ms().format("%.2f")));
      }
    }
    for (CapacityPlan.AtCores a : r.byCores()) {
      md.append(details(r, a));
    }
    return md.toString();
  }

  /** One core count's predictions: a row per policy, a column per load, P99 with its interval. */
  private static String details(CapacityPlan.Result r, CapacityPlan.AtCores a) {
    List<Double> loads =
        a.predictions().stream().map(CapacityPlan.Prediction::rps).distinct().sorted().toList();
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "## %d cores%n%nPooled P99 (ms) with its interval over the seeds; \"ok\" where it"
                + " holds the target, \"sat.\" where a seed saturated.%s%n%n| policy |",
            a.cores(),
            a.fmTable() == null ? "" : " The tuned Few-to-Many table: " + a.fmTable() + "."));
    StringBuilder rule = new StringBuilder("|---|");
    for (double load : loads) {
      md.append(' ').append(rps(load)).append(" rps |");
      rule.append("---|");
    }
    md.append('\n').append(rule).append('\n');
    List<String> policies =
        a.predictions().stream().map(CapacityPlan.Prediction::policy).distinct().toList();
    for (String policy : policies) {
      md.append("| ").append(Report.displayName(policy)).append(" |");
      for (double load : loads) {
        CapacityPlan.Prediction p = a.at(policy, load);
        md.append(' ')
            .append(
                p.saturated()
                    ? "sat."
                    : p.p99Ms().format("%.2f") + (p.holds(r.targetMs()) ? " ok" : ""))
            .append(" |");
      }
      md.append('\n');
    }
    return md.append('\n').toString();
  }

  /**
   * Draws the best policy's predicted P99 against load at each core count (its unsaturated loads),
   * with the target across, as a PNG.
   */
  public static void plot(CapacityPlan.Result r, Path file) throws IOException {
    List<LoadPlot.Line> lines = new ArrayList<>();
    for (CapacityPlan.AtCores a : r.byCores()) {
      if (a.best() == null) {
        continue;
      }
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (CapacityPlan.Prediction p : a.predictions()) {
        if (p.policy().equals(a.best()) && !p.saturated() && p.p99Ms().known()) {
          x.add(p.rps());
          y.add(p.p99Ms().value());
        }
      }
      lines.add(new LoadPlot.Line(a.cores() + " cores: " + Report.displayName(a.best()), x, y));
    }
    LoadPlot.write(
        "Predicted P99 of each core count's best policy (simulated)",
        "P99 latency (ms, log scale)",
        lines,
        "target " + ms(r.targetMs()) + " ms",
        r.targetMs(),
        file);
  }

  /** Writes the plan as JSON, atomically. */
  public static void writeJson(CapacityPlan.Result r, Path file) throws IOException {
    JsonFile.writeAtomically(file, r);
  }

  static String ms(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  static String rps(double v) {
    return v == Math.rint(v)
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.1f", v);
  }

  /** An estimate in milliseconds as a table gives it. */
  static String estimate(Estimate e) {
    return e.format("%.2f");
  }
}
