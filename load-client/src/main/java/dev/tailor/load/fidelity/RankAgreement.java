package dev.tailor.load.fidelity;

import dev.tailor.load.report.Metric;
import dev.tailor.load.report.Report;
import dev.tailor.sim.Simulator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether the simulator ranks the policies as the machine does: per load, the order of the policies
 * by simulated P99 against their order by measured P99, as Kendall's tau-b (Kendall, "The treatment
 * of ties in ranking problems", Biometrika 33, 1945), which allows ties in both orders. A pair is
 * tied in the measured order where the two policies' P99 ranges over their repetitions overlap (the
 * runs cannot tell them apart), and in the simulated order where the simulated medians are equal.
 * Saturated runs are left out, as they have no P99.
 */
public final class RankAgreement {

  /**
   * One load's agreement under one work model.
   *
   * @param load the offered load, requests/s
   * @param model the work model simulated
   * @param policies the policies compared
   * @param tauB Kendall's tau-b, or NaN where fewer than two pairs are untied in both orders
   * @param concordant pairs ordered alike
   * @param discordant pairs ordered oppositely
   * @param tiedMeasured pairs the measured ranges cannot order
   * @param tiedSimulated pairs with equal simulated P99
   * @param measuredOrder the policies by measured median P99, best first
   * @param simulatedOrder the policies by simulated median P99, best first
   */
  public record Row(
      double load,
      Simulator.WorkModel model,
      int policies,
      double tauB,
      int concordant,
      int discordant,
      int tiedMeasured,
      int tiedSimulated,
      List<String> measuredOrder,
      List<String> simulatedOrder) {}

  /** One policy at one load: its measured P99 range and median, and its simulated median. */
  record Ranked(String policy, double least, double greatest, double measured, double simulated) {}

  private RankAgreement() {}

  /** The agreement per load and work model, by load then model. */
  public static List<Row> of(SimulatorFidelity.Comparison comparison) {
    List<Row> rows = new ArrayList<>();
    for (int m = 0; m < comparison.models().size(); m++) {
      Map<Double, Map<String, List<SimulatorFidelity.Row>>> byLoad = new TreeMap<>();
      for (SimulatorFidelity.Row r : comparison.rows()) {
        if (r.measured().saturated() || r.simulated().get(m).saturated()) {
          continue;
        }
        byLoad
            .computeIfAbsent(r.measured().offeredRps(), k -> new LinkedHashMap<>())
            .computeIfAbsent(r.measured().policy(), k -> new ArrayList<>())
            .add(r);
      }
      for (Map.Entry<Double, Map<String, List<SimulatorFidelity.Row>>> e : byLoad.entrySet()) {
        List<Ranked> ranked = new ArrayList<>();
        for (Map.Entry<String, List<SimulatorFidelity.Row>> p : e.getValue().entrySet()) {
          int model = m;
          double[] measured =
              p.getValue().stream().mapToDouble(r -> Metric.P99.value(r.measured())).toArray();
          double[] simulated =
              p.getValue().stream()
                  .mapToDouble(r -> Metric.P99.value(r.simulated().get(model)))
                  .toArray();
          Arrays.sort(measured);
          ranked.add(
              new Ranked(
                  p.getKey(),
                  measured[0],
                  measured[measured.length - 1],
                  median(measured),
                  median(simulated)));
        }
        rows.add(row(e.getKey(), comparison.models().get(m), ranked));
      }
    }
    rows.sort(Comparator.comparingDouble(Row::load));
    return rows;
  }

  /** Tau-b of one load's policies. */
  static Row row(double load, Simulator.WorkModel model, List<Ranked> ranked) {
    int n = ranked.size();
    int concordant = 0;
    int discordant = 0;
    int tiedMeasured = 0;
    int tiedSimulated = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        Ranked a = ranked.get(i);
        Ranked b = ranked.get(j);
        boolean overlap = a.least() <= b.greatest() && b.least() <= a.greatest();
        int x = overlap ? 0 : Double.compare(a.measured(), b.measured());
        int y = Double.compare(a.simulated(), b.simulated());
        tiedMeasured += x == 0 ? 1 : 0;
        tiedSimulated += y == 0 ? 1 : 0;
        if (x != 0 && y != 0) {
          if (Integer.signum(x) == Integer.signum(y)) {
            concordant++;
          } else {
            discordant++;
          }
        }
      }
    }
    double pairs = n * (n - 1) / 2.0;
    double denominator = Math.sqrt((pairs - tiedMeasured) * (pairs - tiedSimulated));
    double tau =
        concordant + discordant < 2 || denominator == 0
            ? Double.NaN
            : (concordant - discordant) / denominator;
    return new Row(
        load,
        model,
        n,
        tau,
        concordant,
        discordant,
        tiedMeasured,
        tiedSimulated,
        order(ranked, Ranked::measured),
        order(ranked, Ranked::simulated));
  }

  private static List<String> order(
      List<Ranked> ranked, java.util.function.ToDoubleFunction<Ranked> by) {
    return ranked.stream()
        .sorted(Comparator.comparingDouble(by))
        .map(r -> Report.displayName(r.policy()))
        .toList();
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /**
   * The rows as a Markdown table, closed by the lowest tau-b per model and whether every load
   * reaches {@code goal}.
   */
  public static String markdown(List<Row> rows, double goal) {
    StringBuilder md = new StringBuilder();
    md.append(
        "Rank agreement per load: Kendall's tau-b of the policies ordered by simulated P99 against"
            + " measured P99 (a pair is tied where its measured ranges overlap)\n\n");
    md.append(
        "| load (rps) | model | policies | tau-b | concordant | discordant | tied measured |"
            + " tied simulated | measured order | simulated order |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %.0f | %s | %d | %s | %d | %d | %d | %d | %s | %s |%n",
              r.load(),
              r.model().name().toLowerCase(Locale.ROOT),
              r.policies(),
              Double.isNaN(r.tauB()) ? "n/a" : String.format(Locale.ROOT, "%.2f", r.tauB()),
              r.concordant(),
              r.discordant(),
              r.tiedMeasured(),
              r.tiedSimulated(),
              String.join(" < ", r.measuredOrder()),
              String.join(" < ", r.simulatedOrder())));
    }
    Map<Simulator.WorkModel, double[]> lowest = new LinkedHashMap<>();
    for (Row r : rows) {
      double[] l = lowest.computeIfAbsent(r.model(), k -> new double[] {Double.NaN, 0});
      if (!Double.isNaN(r.tauB()) && (Double.isNaN(l[0]) || r.tauB() < l[0])) {
        l[0] = r.tauB();
      }
      if (Double.isNaN(r.tauB()) || r.tauB() < goal) {
        l[1] = 1;
      }
    }
    md.append('\n');
    for (Map.Entry<Simulator.WorkModel, double[]> e : lowest.entrySet()) {
      md.append(
          String.format(
              Locale.ROOT,
              "%s: lowest tau-b %s; every load at least %.1f: %s%n",
              e.getKey().name().toLowerCase(Locale.ROOT),
              Double.isNaN(e.getValue()[0])
                  ? "n/a"
                  : String.format(Locale.ROOT, "%.2f", e.getValue()[0]),
              goal,
              e.getValue()[1] == 0 ? "yes" : "no"));
    }
    return md.toString();
  }
}
