package dev.tailor.load.report;

import dev.tailor.measure.PointResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The one paragraph a sweep's report ends with: at which loads a Tailor policy beats the best
 * static baseline (the better of {@code seq} and {@code fixed}) beyond noise, by how much, and how
 * much of the clairvoyant oracle's headroom it wins; and where nothing does, what the served time
 * of the best static baseline is made of, from the latency breakdown, so that a reader sees which
 * part leaves no room.
 *
 * <p>"Beyond noise" is the report's rule: the policy's range over the repetitions lies wholly below
 * the baseline's. A Tailor policy here is any policy that is neither a baseline nor clairvoyant, so
 * a win is one a deployment could have.
 */
final class Conclusion {

  private static final List<String> STATIC = List.of("seq", "fixed");
  private static final List<String> CLAIRVOYANT =
      List.of("oracle", "rc", "tpc-oracle", "tc-oracle");

  private final List<Cell> cells;
  private final List<Double> loads;
  private final Function<PointResult, String> breakdown;

  /**
   * @param breakdown what a run's served time is made of, as a phrase (e.g. "run 3.1 ms P99 of 4.0
   *     ms"), or null where the run has no breakdown
   */
  Conclusion(List<PointResult> points, Function<PointResult, String> breakdown) {
    this.cells = Cell.of(points);
    TreeSet<Double> l = new TreeSet<>();
    points.forEach(p -> l.add(p.offeredRps()));
    this.loads = List.copyOf(l);
    this.breakdown = breakdown;
  }

  /** One load's comparison. */
  record AtLoad(
      double load, Cell baseline, Cell oracle, Cell best, boolean oracleWins, boolean bestWins) {

    /** The oracle's headroom won by the best Tailor policy, or NaN where there is none. */
    double share() {
      if (oracle == null || best == null) {
        return Double.NaN;
      }
      return Summary.headroomShare(baseline.median(), oracle.median(), best.median());
    }
  }

  /** Each load's comparison, where the load has an unsaturated static baseline. */
  List<AtLoad> atLoads() {
    List<AtLoad> out = new ArrayList<>();
    for (double load : loads) {
      Cell baseline = best(load, STATIC::contains);
      if (baseline == null) {
        continue;
      }
      Cell oracle = best(load, "oracle"::equals);
      Cell tailor = best(load, n -> !Report.isBaseline(n) && !CLAIRVOYANT.contains(n));
      out.add(
          new AtLoad(
              load,
              baseline,
              oracle,
              tailor,
              oracle != null && oracle.against(baseline) == Cell.Verdict.BETTER,
              tailor != null && tailor.against(baseline) == Cell.Verdict.BETTER));
    }
    return out;
  }

  private Cell best(double load, java.util.function.Predicate<String> name) {
    Cell best = null;
    for (Cell c : cells) {
      if (c.load() == load
          && !c.saturated()
          && name.test(Report.baseName(c.policy()))
          && (best == null || c.median() < best.median())) {
        best = c;
      }
    }
    return best;
  }

  /** The paragraph, or a sentence saying why there is none. */
  String paragraph() {
    List<AtLoad> at = atLoads();
    if (at.isEmpty()) {
      return "No load has an unsaturated seq or fixed run to compare with.";
    }
    int runs = cells.stream().mapToInt(Cell::repetitions).max().orElse(0);
    if (runs < 2) {
      return "One run per point: no difference can be told from noise; repeat the points"
          + " (--repeat) for a verdict.";
    }
    StringBuilder s = new StringBuilder();
    List<String> oracleWins = new ArrayList<>();
    List<String> tailorWins = new ArrayList<>();
    List<AtLoad> none = new ArrayList<>();
    for (AtLoad a : at) {
      if (a.oracleWins()) {
        oracleWins.add(
            String.format(
                Locale.ROOT,
                "%s rps (%s against %s's %s, x%.2f)",
                load(a.load()),
                ms(a.oracle().median()),
                Report.displayName(a.baseline().policy()),
                ms(a.baseline().median()),
                a.oracle().median() / a.baseline().median()));
      }
      if (a.bestWins()) {
        double share = a.share();
        tailorWins.add(
            String.format(
                Locale.ROOT,
                "%s at %s rps (%s against %s's %s, x%.2f%s)",
                Report.displayName(a.best().policy()),
                load(a.load()),
                ms(a.best().median()),
                Report.displayName(a.baseline().policy()),
                ms(a.baseline().median()),
                a.best().median() / a.baseline().median(),
                Double.isNaN(share)
                    ? ""
                    : String.format(
                        Locale.ROOT, ", %.0f%% of the oracle's headroom", 100 * share)));
      } else {
        none.add(a);
      }
    }
    s.append(
        String.format(
            Locale.ROOT,
            "Verdict (median P99 of %d interleaved runs per point; better means beyond the runs'"
                + " ranges): ",
            runs));
    if (oracleWins.isEmpty()) {
      s.append(
          "the clairvoyant oracle beats the best static baseline (seq or fixed) at no load, so"
              + " on this machine and workload there is no headroom for scheduling to win. ");
    } else {
      s.append("the clairvoyant oracle beats the best static baseline (seq or fixed) at ")
          .append(String.join("; ", oracleWins))
          .append(". ");
    }
    if (tailorWins.isEmpty()) {
      s.append("No Tailor policy beats the best static baseline beyond noise at any load. ");
    } else {
      s.append("A Tailor policy beats it at ").append(String.join("; ", tailorWins)).append(". ");
    }
    if (!none.isEmpty()) {
      List<String> why = new ArrayList<>();
      for (AtLoad a : none) {
        String parts = breakdown == null ? null : breakdown.apply(a.baseline().medianRun());
        why.add(
            String.format(
                Locale.ROOT,
                "at %s rps%s",
                load(a.load()),
                parts == null
                    ? ""
                    : " "
                        + Report.displayName(a.baseline().policy())
                        + "'s served time is "
                        + parts));
      }
      s.append("Where no Tailor policy wins: ").append(String.join("; ", why)).append('.');
    }
    return s.toString().trim();
  }

  private static String load(double rps) {
    return String.format(Locale.ROOT, "%.0f", rps);
  }

  private static String ms(double nanos) {
    return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
  }
}
