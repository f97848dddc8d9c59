package dev.tailor.load.report;

import dev.tailor.measure.Estimate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One configuration judged across every load: at each load, each policy's pooled P99 over the best
 * non-clairvoyant policy's there (the lowest pooled P99 among the unsaturated cells, chosen with
 * hindsight), with the ratio's interval, and each policy's worst ratio across the loads. An
 * operator picks one configuration for all their loads, so the one to recommend is the one whose
 * worst ratio is lowest; a policy that saturated at a load where another did not has no bound on
 * its regret there. Loads at which every non-clairvoyant policy saturated are left out: nothing
 * served them.
 */
final class Regret {

  /**
   * A policy's row.
   *
   * @param policy its specification
   * @param ratios by load, its ratio to the best there; {@link Estimate#NONE} where it saturated,
   *     no entry where it did not run or the load has no best
   * @param saturatedAt the loads (with a best) at which it saturated
   * @param worst its worst ratio over the loads, or {@link Estimate#NONE} where it saturated at one
   *     or has no ratio at all
   * @param worstLoad where its worst ratio was, or NaN
   */
  record Row(
      String policy,
      Map<Double, Estimate> ratios,
      List<Double> saturatedAt,
      Estimate worst,
      double worstLoad) {

    /** Whether its worst is bounded: it never saturated where another policy did not. */
    boolean bounded() {
      return saturatedAt.isEmpty() && worst.known();
    }

    /** Its worst ratio for ranking: infinite where unbounded. */
    double worstValue() {
      return bounded() ? worst.value() : Double.POSITIVE_INFINITY;
    }
  }

  private final List<Double> loads;
  private final Map<Double, Cell> best = new LinkedHashMap<>();
  private final List<Row> rows = new ArrayList<>();

  /**
   * The regret of every policy of {@code cells}.
   *
   * @param loads the loads, ascending
   * @param policies the policies, in the report's order
   */
  Regret(List<Cell> cells, List<Double> loads, List<String> policies) {
    this.loads = List.copyOf(loads);
    for (double load : loads) {
      Cell b = Cell.best(cells, load, c -> !Report.isClairvoyant(c.policy()), Cell::figure);
      if (b != null) {
        best.put(load, b);
      }
    }
    for (String policy : policies) {
      Map<Double, Estimate> ratios = new LinkedHashMap<>();
      List<Double> saturatedAt = new ArrayList<>();
      Estimate worst = Estimate.NONE;
      double worstLoad = Double.NaN;
      for (Map.Entry<Double, Cell> e : best.entrySet()) {
        Cell c = Cell.find(cells, policy, e.getKey());
        if (c == null) {
          continue;
        }
        if (c.saturated()) {
          saturatedAt.add(e.getKey());
          ratios.put(e.getKey(), Estimate.NONE);
          continue;
        }
        Estimate r = c == e.getValue() ? new Estimate(1, 1, 1) : c.ratioTo(e.getValue());
        ratios.put(e.getKey(), r);
        if (r.known() && (!worst.known() || r.value() > worst.value())) {
          worst = r;
          worstLoad = e.getKey();
        }
      }
      rows.add(new Row(policy, ratios, saturatedAt, worst, worstLoad));
    }
  }

  /** The best non-clairvoyant cell at a load, or null where every one saturated. */
  Cell best(double load) {
    return best.get(load);
  }

  /** Every policy's row, in the report's order. */
  List<Row> rows() {
    return rows;
  }

  /** A policy's row, or null. */
  Row row(String policy) {
    return rows.stream().filter(r -> r.policy().equals(policy)).findFirst().orElse(null);
  }

  /**
   * Among the policies {@code eligible} accepts, the one with the lowest worst ratio (bounded rows
   * first), or null where none has a ratio.
   */
  Row lowestWorst(Predicate<String> eligible) {
    return rows.stream()
        .filter(r -> eligible.test(r.policy()) && (r.worst().known() || !r.saturatedAt().isEmpty()))
        .min(Comparator.comparingDouble(Row::worstValue))
        .orElse(null);
  }

  /** The regret section of the Markdown summary. */
  void appendMarkdown(StringBuilder md) {
    md.append("\n## One configuration across every load (regret)\n\n")
        .append("Each cell: the policy's pooled P99 over the best non-clairvoyant policy's at that")
        .append(" load (chosen with hindsight, so 1.00 is the best any one choice could do there),")
        .append(" with its 95% interval. The last column is the policy's worst ratio across the")
        .append(" loads, the figure for an operator who runs one configuration at every load;")
        .append(" \"sat.\" where the policy saturated at a load another served, which no ratio")
        .append(" bounds. Clairvoyant policies are shown but never the best.\n\n");
    md.append("| policy |");
    for (double load : best.keySet()) {
      md.append(' ').append(Metric.load(load)).append(" rps |");
    }
    md.append(" worst |\n|---|").append("---|".repeat(best.size() + 1)).append('\n');
    List<Row> ranked = new ArrayList<>(rows);
    // The configurations an operator could pick, best first; the clairvoyant ceilings last.
    ranked.sort(
        Comparator.comparing((Row r) -> Report.isClairvoyant(r.policy()))
            .thenComparingDouble(Row::worstValue));
    for (Row r : ranked) {
      md.append("| ").append(Report.displayName(r.policy())).append(" |");
      for (double load : best.keySet()) {
        md.append(' ').append(cellText(r, load)).append(" |");
      }
      md.append(' ').append(worstText(r)).append(" |\n");
    }
    md.append("| best at the load |");
    for (Cell c : best.values()) {
      md.append(' ')
          .append(Report.displayName(c.policy()))
          .append(' ')
          .append(SummaryMarkdown.value(c.figure() / 1e6))
          .append(" ms |");
    }
    md.append(" |\n");
  }

  /** The regret CSV: one row per policy and load with a best, then its worst. */
  String csv() {
    StringBuilder out = new StringBuilder("policy,offered_rps,best,ratio,ratio_low,ratio_high\n");
    for (Row r : rows) {
      for (double load : best.keySet()) {
        if (!r.ratios().containsKey(load)) {
          continue;
        }
        Estimate e = r.ratios().get(load);
        out.append(
            String.join(
                ",",
                ResultsCsv.quote(r.policy()),
                Metric.load(load),
                ResultsCsv.quote(best.get(load).policy()),
                r.saturatedAt().contains(load) ? "saturated" : number(e.value()),
                number(e.low()),
                number(e.high())));
        out.append('\n');
      }
      out.append(
          String.join(
              ",",
              ResultsCsv.quote(r.policy()),
              "worst",
              "",
              r.bounded()
                  ? number(r.worst().value())
                  : r.saturatedAt().isEmpty() ? "" : "saturated",
              r.bounded() ? number(r.worst().low()) : "",
              r.bounded() ? number(r.worst().high()) : ""));
      out.append('\n');
    }
    return out.toString();
  }

  private static String cellText(Row r, double load) {
    if (r.saturatedAt().contains(load)) {
      return "sat.";
    }
    Estimate e = r.ratios().get(load);
    return e == null ? "-" : e.format("%.2f");
  }

  /** A row's worst: the ratio and where, or where it saturated. */
  static String worstText(Row r) {
    if (!r.saturatedAt().isEmpty()) {
      return "sat. at "
          + String.join(", ", r.saturatedAt().stream().map(Metric::load).toList())
          + " rps";
    }
    if (!r.worst().known()) {
      return "-";
    }
    return r.worst().format("%.2f") + " at " + Metric.load(r.worstLoad()) + " rps";
  }

  private static String number(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
  }

  /** The loads, ascending. */
  List<Double> loads() {
    return loads;
  }
}
