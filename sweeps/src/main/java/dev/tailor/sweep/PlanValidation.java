package dev.tailor.sweep;

import dev.tailor.load.fidelity.MeasuredReport;
import dev.tailor.load.report.Report;
import dev.tailor.measure.Estimate;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PooledLatency;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A plan's predictions set beside a real replay's report ({@code plan --validate}): at the report's
 * cores and loads, for every policy both ran, the predicted pooled P99 beside the measured pooled
 * P99, each with its interval; and per load whether the policy the plan predicts best is the one
 * measured best, or else lies within the measured best's interval (its measured P99 inside the
 * measured best's 95% interval, so that the run cannot tell them apart). A policy a run saturated
 * at, or the plan did, is left out at that load; a load with fewer than two policies left has
 * nothing to choose between, and says so.
 */
public final class PlanValidation {

  private static final Pattern CORES = Pattern.compile("\\((\\d+) cores\\)");

  /**
   * One load.
   *
   * @param rps the load
   * @param compared the policies both ran unsaturated at the load
   * @param measuredBest the policy with the lowest measured pooled P99, or null where none is
   *     common to both
   * @param measuredBestP99Ms its measured P99, milliseconds
   * @param predictedBest the policy with the lowest predicted P99 among the same, or null
   * @param predictedBestP99Ms its predicted P99
   * @param predictedBestMeasuredP99Ms its measured P99
   * @param agreement {@code same}, {@code within its interval}, {@code no}, or {@code n/a} (fewer
   *     than two policies compared)
   */
  public record Row(
      double rps,
      int compared,
      String measuredBest,
      Estimate measuredBestP99Ms,
      String predictedBest,
      Estimate predictedBestP99Ms,
      Estimate predictedBestMeasuredP99Ms,
      String agreement) {}

  private PlanValidation() {}

  /**
   * The cores a report's points were measured on: the worker count they ran at where the replay
   * swept worker counts ({@link MeasuredReport#workers}), else the machine's, from their
   * environment ({@code measured on this machine (N cores)}).
   *
   * @throws IllegalArgumentException naming the report if its points do not say
   */
  public static int cores(MeasuredReport report) {
    if (report.workers() > 0) {
      return report.workers(); // a sweep of worker counts: each report's own count
    }
    for (PointResult p : report.points()) {
      Matcher m = CORES.matcher(p.environment() == null ? "" : p.environment());
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
    }
    throw new IllegalArgumentException(
        report.dir() + ": no point says the cores it was measured on (environment)");
  }

  /** The loads of a report's points, ascending. */
  public static List<Double> loads(MeasuredReport report) {
    return List.copyOf(
        new TreeSet<>(report.points().stream().map(PointResult::offeredRps).toList()));
  }

  /**
   * The comparison at every load of the report.
   *
   * @throws IllegalArgumentException if the plan did not simulate the report's cores
   */
  public static List<Row> of(CapacityPlan.Result plan, MeasuredReport report) {
    int cores = cores(report);
    CapacityPlan.AtCores at = plan.atCores(cores);
    if (at == null) {
      throw new IllegalArgumentException(
          "the plan has no prediction for " + cores + " cores, which " + report.dir() + " ran on");
    }
    List<Row> rows = new ArrayList<>();
    for (double rps : loads(report)) {
      Map<String, PooledLatency> measured = measured(report, at, rps);
      String measuredBest = null;
      String predictedBest = null;
      for (Map.Entry<String, PooledLatency> e : measured.entrySet()) {
        String policy = e.getKey();
        if (measuredBest == null
            || e.getValue().percentile(99) < measured.get(measuredBest).percentile(99)) {
          measuredBest = policy;
        }
        double predicted = at.at(policy, rps).p99Ms().value();
        if (predictedBest == null || predicted < at.at(predictedBest, rps).p99Ms().value()) {
          predictedBest = policy;
        }
      }
      if (measuredBest == null) {
        rows.add(new Row(rps, 0, null, Estimate.NONE, null, Estimate.NONE, Estimate.NONE, "n/a"));
        continue;
      }
      Estimate best = measured.get(measuredBest).at(99).times(1e-6);
      Estimate predictedMeasured = measured.get(predictedBest).at(99).times(1e-6);
      String agreement =
          measured.size() < 2
              ? "n/a"
              : measuredBest.equals(predictedBest)
                  ? "same"
                  : best.holds(predictedMeasured.value()) ? "within its interval" : "no";
      rows.add(
          new Row(
              rps,
              measured.size(),
              measuredBest,
              best,
              predictedBest,
              at.at(predictedBest, rps).p99Ms(),
              predictedMeasured,
              agreement));
    }
    return rows;
  }

  /**
   * The report's policies at a load that the plan predicted unsaturated there, each with its runs
   * pooled; a policy with a saturated run is left out.
   */
  private static Map<String, PooledLatency> measured(
      MeasuredReport report, CapacityPlan.AtCores at, double rps) {
    Map<String, List<PointResult>> runs = new LinkedHashMap<>();
    for (PointResult p : report.points()) {
      if (p.offeredRps() == rps) {
        runs.computeIfAbsent(p.policy(), k -> new ArrayList<>()).add(p);
      }
    }
    Map<String, PooledLatency> out = new LinkedHashMap<>();
    for (Map.Entry<String, List<PointResult>> e : runs.entrySet()) {
      CapacityPlan.Prediction predicted = at.at(e.getKey(), rps);
      if (predicted == null
          || predicted.saturated()
          || e.getValue().stream().anyMatch(PointResult::saturated)) {
        continue;
      }
      out.put(e.getKey(), PooledLatency.ofPoints(e.getValue()));
    }
    return out;
  }

  /** The comparison as Markdown: every common policy's two P99s, then the verdict per load. */
  public static String markdown(CapacityPlan.Result plan, MeasuredReport report, List<Row> rows) {
    int cores = cores(report);
    CapacityPlan.AtCores at = plan.atCores(cores);
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "## The plan beside %s (%d cores)%n%nP99 (ms) predicted (interval over seeds) and"
                + " measured (pooled runs, interval by bootstrap over runs), for the policies both"
                + " ran unsaturated.%n%n| load (rps) | policy | predicted P99 | measured P99 |%n"
                + "|---|---|---|---|%n",
            report.dir(),
            cores));
    for (Row r : rows) {
      for (Map.Entry<String, PooledLatency> e : measured(report, at, r.rps()).entrySet()) {
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s |%n",
                PlanReport.rps(r.rps()),
                Report.displayName(e.getKey()),
                PlanReport.estimate(at.at(e.getKey(), r.rps()).p99Ms()),
                PlanReport.estimate(e.getValue().at(99).times(1e-6))));
      }
    }
    md.append(
        "\n| load (rps) | policies | measured best (P99) | predicted best (predicted P99; measured"
            + " P99) | predicted best is |\n|---|---|---|---|---|\n");
    int agree = 0;
    int judged = 0;
    for (Row r : rows) {
      if (r.measuredBest() == null) {
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | 0 | - | - | n/a: no policy both ran unsaturated |%n",
                PlanReport.rps(r.rps())));
        continue;
      }
      if (!r.agreement().equals("n/a")) {
        judged++;
        agree += r.agreement().equals("no") ? 0 : 1;
      }
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s (%s) | %s (%s; %s) | %s |%n",
              PlanReport.rps(r.rps()),
              r.compared(),
              Report.displayName(r.measuredBest()),
              PlanReport.estimate(r.measuredBestP99Ms()),
              Report.displayName(r.predictedBest()),
              PlanReport.estimate(r.predictedBestP99Ms()),
              PlanReport.estimate(r.predictedBestMeasuredP99Ms()),
              switch (r.agreement()) {
                case "same" -> "the measured best";
                case "no" -> "outside the measured best's interval";
                case "n/a" -> "n/a: one policy, nothing to choose";
                default -> r.agreement();
              }));
    }
    md.append(
        String.format(
            Locale.ROOT,
            "%nAt %d of %d load(s) with two policies or more the predicted best is the measured"
                + " best or within its interval.%n",
            agree,
            judged));
    return md.toString();
  }
}
