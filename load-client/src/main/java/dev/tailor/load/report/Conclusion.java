package dev.tailor.load.report;

import dev.tailor.measure.Estimate;
import dev.tailor.measure.PointResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The paragraph a sweep's report ends with, answering the question an operator has: against what I
 * run today (plain Lucene: {@code lucene}, {@code lucene-executor:N}, {@code elasticsearch:N}; see
 * {@link Report#isPlainLucene}), with one configuration for all my loads, is Tailor better, and is
 * it ever worse?
 *
 * <p>The configuration it speaks for is the Tailor configuration (neither plain Lucene nor
 * clairvoyant) with the lowest worst-case ratio in the {@link Regret} table; where plain Lucene's
 * own worst is lower still, it says so. Against each plain-Lucene column it states, load by load,
 * where the configuration is better (the pooled P99 ratio's 95% interval lies below 1), worse
 * (above 1), not distinguishable ({@code ~}), or not comparable (a side saturated or has too few
 * requests). A sweep without plain Lucene is judged against {@code seq}, Tailor's own sequential
 * policy, which runs every query alone as plain Lucene does.
 */
final class Conclusion {

  private final List<Cell> cells;
  private final List<Double> loads;
  private final List<String> policies;
  private final Regret regret;

  /** The verdict on the points' cells. */
  Conclusion(List<PointResult> points) {
    this(Cell.of(points), loads(points), Report.policies(points));
  }

  /**
   * The verdict on cells already made (a summary's, so that their pooled figures are computed
   * once).
   *
   * @param loads the loads, ascending
   * @param policies the policies, in the report's order
   */
  Conclusion(List<Cell> cells, List<Double> loads, List<String> policies) {
    this.cells = List.copyOf(cells);
    this.loads = List.copyOf(loads);
    this.policies = List.copyOf(policies);
    this.regret = new Regret(this.cells, this.loads, this.policies);
  }

  private static List<Double> loads(List<PointResult> points) {
    TreeSet<Double> l = new TreeSet<>();
    points.forEach(p -> l.add(p.offeredRps()));
    return List.copyOf(l);
  }

  /** Whether a specification is a configuration Tailor can recommend. */
  static boolean isTailorConfiguration(String spec) {
    return !Report.isClairvoyant(spec) && !Report.isPlainLucene(spec);
  }

  /** The Tailor configuration with the lowest worst-case ratio, or null. */
  Regret.Row recommended() {
    return regret.lowestWorst(Conclusion::isTailorConfiguration);
  }

  /** What the recommended configuration is judged against: plain Lucene's columns, else seq. */
  List<String> references() {
    List<String> out = policies.stream().filter(Report::isPlainLucene).toList();
    if (out.isEmpty() && policies.contains("seq")) {
      return List.of("seq");
    }
    return out;
  }

  /** The paragraph, or a sentence saying why there is none. */
  String paragraph() {
    Regret.Row chosen = recommended();
    if (chosen == null) {
      return "No Tailor configuration has a figure at any load that a policy served unsaturated.";
    }
    int runs = cells.stream().mapToInt(Cell::repetitions).max().orElse(0);
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "Verdict (pooled P99 over %d run%s per point; 95%% intervals by bootstrap over whole"
                + " runs; \"better\" or \"worse\" only where the ratio's interval excludes 1): ",
            runs,
            runs == 1 ? "" : "s"));
    if (runs < 2) {
      s.append("with one run per point there are no intervals, so nothing below is a verdict;")
          .append(" repeat the points (--repeat) for one. ");
    }
    s.append("one configuration for every load: ")
        .append(Report.displayName(chosen.policy()))
        .append(", whose worst ratio to the best policy at each load is ")
        .append(Regret.worstText(chosen))
        .append('.');
    Regret.Row overall = regret.lowestWorst(p -> !Report.isClairvoyant(p));
    if (overall != null
        && !overall.policy().equals(chosen.policy())
        && overall.worstValue() < chosen.worstValue()) {
      s.append(" Plain Lucene's ")
          .append(Report.displayName(overall.policy()))
          .append(" has a lower worst ratio still (")
          .append(Regret.worstText(overall))
          .append(").");
    }
    List<String> refs = references();
    if (refs.isEmpty()) {
      s.append(" The sweep has neither plain Lucene nor seq to judge it against.");
    }
    for (String ref : refs) {
      s.append(' ').append(against(chosen.policy(), ref));
    }
    return s.toString().trim();
  }

  /** One sentence: where {@code policy} is better, worse, the same, or not comparable with ref. */
  String against(String policy, String ref) {
    List<String> better = new ArrayList<>();
    List<String> worse = new ArrayList<>();
    List<String> same = new ArrayList<>();
    List<String> none = new ArrayList<>();
    for (double load : loads) {
      Cell c = Cell.find(cells, policy, load);
      Cell r = Cell.find(cells, ref, load);
      if (c == null || r == null) {
        continue;
      }
      String at = Metric.load(load) + " rps";
      if (c.saturated() || r.saturated()) {
        none.add(
            at
                + " ("
                + (c.saturated() && r.saturated()
                    ? "both saturated"
                    : (c.saturated() ? Report.displayName(policy) : Report.displayName(ref))
                        + " saturated")
                + ")");
        continue;
      }
      Estimate ratio = c.ratioTo(r);
      String figure = at + " (" + ratio.format("%.2f") + ")";
      switch (ratio.verdict()) {
        case BETTER -> better.add(figure);
        case WORSE -> worse.add(figure);
        case SAME -> same.add(figure);
        case NONE ->
            none.add(ratio.known() ? figure + ", no interval" : at + " (too few requests)");
      }
    }
    StringBuilder s =
        new StringBuilder("Against ")
            .append(Report.displayName(ref))
            .append(", ")
            .append(Report.displayName(policy))
            .append(" (ratio of pooled P99s) is ");
    if (better.isEmpty() && worse.isEmpty() && same.isEmpty() && none.isEmpty()) {
      return s.append("never run at the same load.").toString();
    }
    List<String> parts = new ArrayList<>();
    parts.add(better.isEmpty() ? "better at no load" : "better at " + String.join(", ", better));
    parts.add(worse.isEmpty() ? "worse at none" : "worse at " + String.join(", ", worse));
    if (!same.isEmpty()) {
      parts.add("not distinguishable (~) at " + String.join(", ", same));
    }
    if (!none.isEmpty()) {
      parts.add("not comparable at " + String.join(", ", none));
    }
    return s.append(String.join("; ", parts)).append('.').toString();
  }

  /** The regret table the verdict rests on. */
  Regret regret() {
    return regret;
  }
}
