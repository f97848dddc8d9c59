package dev.tailor.load.fidelity;

import dev.tailor.load.report.Report;
import dev.tailor.measure.Estimate;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PooledLatency;
import dev.tailor.sim.Simulator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether the simulator ranks the policies as the machine does, on the pairs the machine resolves:
 * per load and work model, the pairs of policies whose measured P99s differ by the real run's own
 * rule (the ratio of their pooled P99s, paired by round, has a 95% interval that excludes 1; {@link
 * PooledLatency#ratioTo}), and over them Kendall's tau-b (Kendall, "The treatment of ties in
 * ranking problems", Biometrika 33, 1945) of the order by pooled simulated P99 against the measured
 * order: {@code (C - D) / sqrt(n (n - T))}, with {@code n} the resolved pairs, {@code C} and {@code
 * D} the pairs the simulation orders alike and oppositely, and {@code T} those it ties (the
 * measured order has no tie among resolved pairs). With fewer than two resolved pairs tau-b is
 * undefined, and said to be. Cells with a saturated run or simulation are left out, as they have no
 * P99.
 */
public final class RankAgreement {

  /**
   * One load's agreement under one work model.
   *
   * @param load the offered load, requests/s
   * @param model the work model simulated
   * @param policies the policies compared
   * @param pairs the pairs of them
   * @param resolved the pairs the measured runs resolve
   * @param tauB Kendall's tau-b over the resolved pairs, or NaN where fewer than two are resolved
   *     (or the simulation ties every one)
   * @param concordant resolved pairs the simulation orders as measured
   * @param discordant resolved pairs it orders oppositely
   * @param tiedSimulated resolved pairs with equal simulated P99
   * @param measuredOrder the policies by pooled measured P99, best first
   * @param simulatedOrder the policies by pooled simulated P99, best first
   */
  public record Row(
      double load,
      Simulator.WorkModel model,
      int policies,
      int pairs,
      int resolved,
      double tauB,
      int concordant,
      int discordant,
      int tiedSimulated,
      List<String> measuredOrder,
      List<String> simulatedOrder) {}

  /**
   * One policy at one load: its measured runs pooled, and its pooled simulated P99.
   *
   * @param policy the policy
   * @param measured its measured runs pooled
   * @param simulated its simulations' pooled P99
   */
  record Ranked(String policy, PooledLatency measured, double simulated) {}

  private RankAgreement() {}

  /** The agreement per load and work model, by load then model. */
  public static List<Row> of(SimulatorFidelity.Comparison comparison) {
    List<Row> rows = new ArrayList<>();
    for (int m = 0; m < comparison.models().size(); m++) {
      Map<Double, List<Ranked>> byLoad = new TreeMap<>();
      for (SimulatorFidelity.CellRuns c : comparison.cells()) {
        List<PointResult> simulated = c.simulated().get(m);
        if (c.measured().stream().anyMatch(PointResult::saturated)
            || simulated.stream().anyMatch(PointResult::saturated)) {
          continue;
        }
        byLoad
            .computeIfAbsent(c.load(), k -> new ArrayList<>())
            .add(
                new Ranked(
                    c.policy(),
                    PooledLatency.ofPoints(c.measured()),
                    PooledLatency.ofPoints(simulated).percentile(99)));
      }
      for (Map.Entry<Double, List<Ranked>> e : byLoad.entrySet()) {
        rows.add(row(e.getKey(), comparison.models().get(m), e.getValue()));
      }
    }
    rows.sort(Comparator.comparingDouble(Row::load));
    return rows;
  }

  /** Tau-b over one load's resolved pairs. */
  static Row row(double load, Simulator.WorkModel model, List<Ranked> ranked) {
    int n = ranked.size();
    int resolved = 0;
    int concordant = 0;
    int discordant = 0;
    int tiedSimulated = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        Ranked a = ranked.get(i);
        Ranked b = ranked.get(j);
        Estimate.Verdict v = a.measured().ratioTo(b.measured(), 99).verdict();
        if (v != Estimate.Verdict.BETTER && v != Estimate.Verdict.WORSE) {
          continue; // the runs cannot tell the two apart
        }
        resolved++;
        int x = v == Estimate.Verdict.BETTER ? -1 : 1;
        int y = Double.compare(a.simulated(), b.simulated());
        if (y == 0) {
          tiedSimulated++;
        } else if (Integer.signum(y) == x) {
          concordant++;
        } else {
          discordant++;
        }
      }
    }
    double denominator = Math.sqrt((double) resolved * (resolved - tiedSimulated));
    double tau =
        resolved < 2 || denominator == 0 ? Double.NaN : (concordant - discordant) / denominator;
    return new Row(
        load,
        model,
        n,
        n * (n - 1) / 2,
        resolved,
        tau,
        concordant,
        discordant,
        tiedSimulated,
        order(ranked, r -> r.measured().percentile(99)),
        order(ranked, Ranked::simulated));
  }

  private static List<String> order(
      List<Ranked> ranked, java.util.function.ToDoubleFunction<Ranked> by) {
    return ranked.stream()
        .sorted(Comparator.comparingDouble(by))
        .map(r -> Report.displayName(r.policy()))
        .toList();
  }

  /** Tau-b as a table shows it: two decimals, or why there is none. */
  static String tau(Row r) {
    if (!Double.isNaN(r.tauB())) {
      return String.format(Locale.ROOT, "%.2f", r.tauB());
    }
    return r.resolved() < 2
        ? "undefined (" + r.resolved() + " resolved pair" + (r.resolved() == 1 ? "" : "s") + ")"
        : "undefined (every resolved pair tied in the simulation)";
  }

  /**
   * The rows as a Markdown table, closed per model by the lowest defined tau-b, whether every load
   * with one reaches {@code goal}, and how many loads have none.
   */
  public static String markdown(List<Row> rows, double goal) {
    StringBuilder md = new StringBuilder();
    md.append(
        "Rank agreement per load: Kendall's tau-b of the order by pooled simulated P99 against the"
            + " measured order, over the pairs of policies the measured runs resolve (the paired"
            + " ratio of their pooled P99s has a 95% interval that excludes 1); undefined below 2"
            + " resolved pairs\n\n");
    md.append(
        "| load (rps) | model | policies | pairs resolved | tau-b | concordant | discordant |"
            + " tied simulated | measured order | simulated order |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %.0f | %s | %d | %d of %d | %s | %d | %d | %d | %s | %s |%n",
              r.load(),
              r.model().name().toLowerCase(Locale.ROOT),
              r.policies(),
              r.resolved(),
              r.pairs(),
              tau(r),
              r.concordant(),
              r.discordant(),
              r.tiedSimulated(),
              String.join(" < ", r.measuredOrder()),
              String.join(" < ", r.simulatedOrder())));
    }
    // Per model: the lowest defined tau, whether any defined one is below the goal, undefined
    // loads.
    Map<Simulator.WorkModel, double[]> summary = new LinkedHashMap<>();
    for (Row r : rows) {
      double[] s = summary.computeIfAbsent(r.model(), k -> new double[] {Double.NaN, 0, 0});
      if (Double.isNaN(r.tauB())) {
        s[2]++;
        continue;
      }
      if (Double.isNaN(s[0]) || r.tauB() < s[0]) {
        s[0] = r.tauB();
      }
      if (r.tauB() < goal) {
        s[1] = 1;
      }
    }
    md.append('\n');
    for (Map.Entry<Simulator.WorkModel, double[]> e : summary.entrySet()) {
      double[] s = e.getValue();
      md.append(
          String.format(
              Locale.ROOT,
              "%s: lowest tau-b %s; every load with one at least %.1f: %s; %d load(s) undefined%n",
              e.getKey().name().toLowerCase(Locale.ROOT),
              Double.isNaN(s[0]) ? "undefined" : String.format(Locale.ROOT, "%.2f", s[0]),
              goal,
              Double.isNaN(s[0]) ? "n/a" : s[1] == 0 ? "yes" : "no",
              (int) s[2]));
    }
    return md.toString();
  }
}
