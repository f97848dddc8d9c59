package dev.tailor.load.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The cells' CSV of a report: one row per policy and load, with every comparison the {@link
 * Summary} makes and the failures over its runs.
 */
final class SummaryCsv {

  private SummaryCsv() {}

  /**
   * The cells' CSV: one row per policy and load, with every comparison the summary makes and the
   * failures over its runs.
   */
  static String of(Summary summary) {
    String adaptive = summary.adaptive();
    String oracle = summary.oracle();
    Misses misses = summary.misses();
    StringBuilder out = new StringBuilder();
    String m = Report.SUMMARY_METRIC.name();
    String u = Report.SUMMARY_METRIC.unit();
    out.append(
            String.join(
                ",",
                "policy",
                "offered_rps",
                "repetitions",
                "saturated_runs",
                m + "_median_" + u,
                m + "_min_" + u,
                m + "_max_" + u,
                "best_baseline",
                "ratio_to_best_baseline",
                "vs_best_baseline",
                "ratio_to_adaptive",
                "vs_adaptive",
                "headroom_share",
                "miss_median",
                "miss_min",
                "miss_max",
                "failed_runs",
                "failed",
                "failed_ratio"))
        .append(System.lineSeparator());
    for (Cell c : summary.cells()) {
      Cell best = summary.bestBaseline(c.load());
      Cell ad = adaptive == null ? null : summary.cell(adaptive, c.load());
      boolean baseline = Report.isBaseline(c.policy());
      boolean ceiling = c.policy().equals(oracle);
      List<String> row = new ArrayList<>();
      row.add(ResultsCsv.quote(c.policy()));
      row.add(Metric.load(c.load()));
      row.add(Integer.toString(c.repetitions()));
      row.add(Integer.toString(c.saturatedRuns()));
      row.add(fixed(c.median()));
      row.add(fixed(c.min()));
      row.add(fixed(c.max()));
      row.add(best == null ? "" : ResultsCsv.quote(best.policy()));
      row.add(best == null || c.saturated() ? "" : fixed(c.median() / best.median()));
      row.add(best == null || baseline ? "" : word(c.against(best)));
      row.add(ad == null || ad.saturated() || c.saturated() ? "" : fixed(c.median() / ad.median()));
      row.add(ad == null || c == ad ? "" : word(c.against(ad)));
      double share = baseline || ceiling ? Double.NaN : summary.headroomShare(c);
      row.add(Double.isNaN(share) ? "" : fixed(share));
      // The miss ratio at the target, a fraction as results.csv gives it; empty without a target.
      boolean missed = misses != null && misses.has(c);
      Metric miss = missed ? misses.metric() : null;
      row.add(missed ? ratio(c.median(miss)) : "");
      row.add(missed ? ratio(c.min(miss)) : "");
      row.add(missed ? ratio(c.max(miss)) : "");
      // The failures over the runs, and their share of the requests sent over the runs.
      row.add(Integer.toString(c.failedRuns()));
      row.add(Long.toString(c.failed()));
      row.add(c.sent() == 0 ? "" : ratio((double) c.failed() / c.sent()));
      out.append(String.join(",", row)).append(System.lineSeparator());
    }
    return out.toString();
  }

  private static String ratio(double v) {
    return String.format(Locale.ROOT, "%.5f", v);
  }

  private static String fixed(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
  }

  private static String word(Cell.Verdict v) {
    return switch (v) {
      case BETTER -> "better";
      case WORSE -> "worse";
      case WITHIN_NOISE -> "within noise";
      case NONE -> "";
    };
  }
}
