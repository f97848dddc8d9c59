package dev.tailor.load.report;

import dev.tailor.measure.Estimate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The cells' CSV of a report: one row per policy and load, with its pooled percentiles and their
 * intervals (milliseconds), its ratio to the reference (plain Lucene, else seq) and to the best
 * non-clairvoyant policy at its load with their intervals, and the failures over its runs.
 */
final class SummaryCsv {

  private SummaryCsv() {}

  /**
   * The cells' CSV: one row per policy and load, with every comparison the summary makes and the
   * failures over its runs.
   */
  static String of(Summary summary) {
    String oracle = summary.oracle();
    Misses misses = summary.misses();
    Regret regret = summary.regret();
    StringBuilder out = new StringBuilder();
    List<String> header =
        new ArrayList<>(
            List.of("policy", "offered_rps", "repetitions", "saturated_runs", "requests"));
    for (String p : PERCENTILES) {
      header.addAll(List.of(p + "_ms", p + "_low_ms", p + "_high_ms"));
    }
    header.addAll(
        List.of(
            "reference",
            "ratio_to_reference",
            "ratio_low",
            "ratio_high",
            "vs_reference",
            "best_at_load",
            "ratio_to_best",
            "ratio_to_best_low",
            "ratio_to_best_high",
            "headroom_share",
            "miss_median",
            "miss_min",
            "miss_max",
            "failed_runs",
            "failed",
            "failed_ratio"));
    out.append(String.join(",", header)).append(System.lineSeparator());
    for (Cell c : summary.cells()) {
      Cell ref = summary.referenceCell(c.load());
      Cell best = regret.best(c.load());
      boolean ceiling = c.policy().equals(oracle);
      List<String> row = new ArrayList<>();
      row.add(ResultsCsv.quote(c.policy()));
      row.add(Metric.load(c.load()));
      row.add(Integer.toString(c.repetitions()));
      row.add(Integer.toString(c.saturatedRuns()));
      row.add(Long.toString(c.requests()));
      for (String p : PERCENTILES) {
        Estimate e = c.latency(Double.parseDouble(p.substring(1))).times(1e-6);
        row.add(fixed(e.value()));
        row.add(fixed(e.low()));
        row.add(fixed(e.high()));
      }
      Estimate toRef = ref == null || ref == c ? Estimate.NONE : c.ratioTo(ref);
      row.add(ref == null ? "" : ResultsCsv.quote(ref.policy()));
      row.add(fixed(toRef.value()));
      row.add(fixed(toRef.low()));
      row.add(fixed(toRef.high()));
      row.add(word(toRef.verdict()));
      Estimate toBest =
          best == null ? Estimate.NONE : best == c ? new Estimate(1, 1, 1) : c.ratioTo(best);
      row.add(best == null ? "" : ResultsCsv.quote(best.policy()));
      row.add(fixed(toBest.value()));
      row.add(fixed(toBest.low()));
      row.add(fixed(toBest.high()));
      double share = ceiling || c == ref ? Double.NaN : summary.headroomShare(c);
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

  /** The pooled percentiles the CSV gives, as column prefixes. */
  private static final List<String> PERCENTILES = List.of("p50", "p99", "p99.9");

  private static String ratio(double v) {
    return String.format(Locale.ROOT, "%.5f", v);
  }

  private static String fixed(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
  }

  private static String word(Estimate.Verdict v) {
    return switch (v) {
      case BETTER -> "better";
      case WORSE -> "worse";
      case SAME -> "not distinguishable";
      case NONE -> "";
    };
  }
}
