package dev.tailor.load.report;

import dev.tailor.measure.PointResult;
import dev.tailor.sim.HindsightOracle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The comparisons a report makes of its cells ({@link Cell}: a policy at a load over its
 * repetitions), and the Markdown summary and the cells' CSV that state them.
 *
 * <ul>
 *   <li>Every cell against the best baseline at its load (the unsaturated baseline with the lowest
 *       median): the ratio of medians, and whether the ranges over the repetitions overlap.
 *   <li>Where the sweep has an oracle (the clairvoyant ceiling), each policy's share of the
 *       headroom between the best baseline and the oracle.
 *   <li>Where it has {@code adaptive}, every policy against it alone, as the Few-to-Many paper
 *       compares.
 *   <li>Where the report has a latency target, every cell's share of requests that missed it and
 *       each policy's sustained load ({@link Misses}), tail-control's objective.
 *   <li>Where the points have a latency breakdown, each part's P50 and P99 per cell ({@link
 *       BreakdownTable}).
 *   <li>The verdict ({@link Conclusion}): where a Tailor policy beats the best static baseline
 *       beyond noise, and where nothing does, what the served time is made of.
 * </ul>
 */
final class Summary {

  /**
   * The least headroom, as a fraction of the best baseline's median, for which a share of it is
   * given: below it the oracle is not measurably better than the best baseline and any share would
   * be noise divided by noise.
   */
  static final double MIN_HEADROOM = 0.01;

  /** What marks a cell, in every table, where a run had failures. */
  static final String FLAG = "!";

  private final List<PointResult> points;
  private final List<Cell> cells;
  private final List<String> policies;
  private final List<Double> loads;
  private final String oracle;
  private final String adaptive;
  private final Misses misses;

  /** The comparisons of the points, with no latency target. */
  Summary(List<PointResult> points) {
    this(points, 0);
  }

  /**
   * The comparisons of the points, and their misses at a latency target.
   *
   * @param targetNanos the latency target, or 0 for none
   */
  Summary(List<PointResult> points, long targetNanos) {
    this.points = List.copyOf(points);
    this.cells = Cell.of(points);
    this.policies = Report.policies(points);
    TreeSet<Double> l = new TreeSet<>();
    points.forEach(p -> l.add(p.offeredRps()));
    this.loads = List.copyOf(l);
    this.oracle = first(policies, "oracle");
    this.adaptive = first(policies, "adaptive");
    this.misses = targetNanos > 0 ? new Misses(cells, targetNanos) : null;
  }

  /** The misses at the latency target, or null without one. */
  Misses misses() {
    return misses;
  }

  /** The sweep's oracle column (the bare, tuned one first), or null. */
  String oracle() {
    return oracle;
  }

  /** The sweep's adaptive column, or null. */
  String adaptive() {
    return adaptive;
  }

  /** The most repetitions any cell has. */
  int repetitions() {
    return cells.stream().mapToInt(Cell::repetitions).max().orElse(0);
  }

  /** The cell of a policy at a load, or null. */
  Cell cell(String policy, double load) {
    return Cell.find(cells, policy, load);
  }

  /** The best baseline at a load: the unsaturated baseline cell with the lowest median, or null. */
  Cell bestBaseline(double load) {
    Cell best = null;
    for (Cell c : cells) {
      if (c.load() == load
          && !c.saturated()
          && Report.isBaseline(c.policy())
          && (best == null || c.median() < best.median())) {
        best = c;
      }
    }
    return best;
  }

  /**
   * A policy's share of the headroom between the best baseline and the oracle: {@code (best -
   * policy) / (best - oracle)}, 1 where it matches the oracle, 0 where it is no better than the
   * best baseline, negative where it is worse; NaN where the headroom is not positive or smaller
   * than {@link #MIN_HEADROOM} of the best baseline.
   */
  static double headroomShare(double bestBaseline, double oracle, double policy) {
    double headroom = bestBaseline - oracle;
    if (!(headroom > 0) || headroom < MIN_HEADROOM * bestBaseline) {
      return Double.NaN;
    }
    return (bestBaseline - policy) / headroom;
  }

  /** A cell's share of the headroom at its load, or NaN where there is none to give. */
  double headroomShare(Cell c) {
    Cell best = bestBaseline(c.load());
    Cell ceiling = oracle == null ? null : cell(oracle, c.load());
    if (best == null || ceiling == null || ceiling.saturated() || c.saturated()) {
      return Double.NaN;
    }
    return headroomShare(best.median(), ceiling.median(), c.median());
  }

  /** The Markdown summary. */
  String markdown(PointResult first, ReportedWorkload workload, Report.Conditions conditions) {
    String metric = Report.SUMMARY_METRIC.name().toUpperCase(Locale.ROOT);
    String unit = Report.SUMMARY_METRIC.unit();
    int reps = repetitions();
    StringBuilder md = new StringBuilder();
    md.append("# ").append(metric).append(" latency by load and policy\n\n");
    if (first != null) {
      md.append(first.environment())
          .append("; corpus: ")
          .append(first.corpus())
          .append("; arrivals: ")
          .append(first.arrivals().replaceAll("\\(.*", ""))
          .append(", ")
          .append(seeds())
          .append(".\n\n");
    }
    md.append(workload.summaryLine()).append("\n\n");
    md.append(reps <= 1 ? "Each point ran once" : "Each point ran " + reps + " times");
    if (conditions.order() != null) {
      md.append(reps <= 1 ? " (" : "; ").append(conditions.order()).append(reps <= 1 ? ")" : "");
    }
    md.append(". Degree cap: ")
        .append(
            conditions.maxDegree() > 0
                ? "at most "
                    + conditions.maxDegree()
                    + (conditions.maxDegree() == 1 ? " thread" : " threads")
                    + " per request, for every policy"
                : "none (no cap)")
        .append(".\n\n");
    md.append("Each cell: the median ")
        .append(metric)
        .append(" in ")
        .append(unit)
        .append(reps > 1 ? " over the repetitions and its range [least-greatest]" : "")
        .append(
            ", and in brackets the ratio of its median to the best baseline's at that load (the"
                + " unsaturated baseline with the lowest median; baselines: seq, fixed, adaptive (TPC's"
                + " AP), wq-linear, rampup, pred, rc, and tail-control's steal-first and"
                + " admit-first, with or without an @ suffix; the oracle is not one).");
    if (reps > 1) {
      md.append(
          " A policy that is not a baseline is marked \"better\" or \"worse\" only where its"
              + " range and the best baseline's do not overlap, and \"~\" (within noise) where they"
              + " do; a cell with a single run gets no mark.");
    } else {
      md.append(
          " With one run per point there is no range, so no cell is marked better or worse: a"
              + " single run cannot rank policies beyond noise (--repeat, --seeds).");
    }
    md.append(
        " \"sat.\" marks a cell where any repetition saturated (its backlog grew without bound)"
            + (reps > 1 ? ", with how many of the repetitions did" : "")
            + ".");
    md.append(
        " Latencies are those of requests answered with a result: a request that got none is"
            + " counted apart as a failure, and counts as a miss of a latency target.");
    if (hasFailures()) {
      md.append(" \"" + FLAG + "\" marks a cell where a run had failures (listed below).");
    }
    md.append("\n\n");
    table(md, policies, c -> cellText(c, bestBaseline(c.load()), Report.isBaseline(c.policy())));
    if (hasFailures()) {
      failures(md);
    }
    if (oracle != null) {
      headroom(md, metric, unit);
    }
    if (adaptive != null) {
      againstAdaptive(md, metric);
    }
    if (misses != null) {
      missesAtTheTarget(md);
    }
    BreakdownTable.append(md, cells);
    md.append("\n## Verdict\n\n")
        .append(new Conclusion(points, BreakdownTable::phrase).paragraph())
        .append('\n');
    return md.toString();
  }

  /**
   * The cells' CSV: one row per policy and load, with every comparison the summary makes and the
   * failures over its runs.
   */
  String csv() {
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
    for (Cell c : cells) {
      Cell best = bestBaseline(c.load());
      Cell ad = adaptive == null ? null : cell(adaptive, c.load());
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
      double share = baseline || ceiling ? Double.NaN : headroomShare(c);
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

  /** Whether any point had failures. */
  boolean hasFailures() {
    return cells.stream().anyMatch(c -> c.failedRuns() > 0);
  }

  /** The failures' section: every point that had any, with its count, share and kinds. */
  private void failures(StringBuilder md) {
    md.append("\n## Failures\n\n")
        .append("Requests that got no result. They are left out of every latency figure here and")
        .append(" count as misses of a latency target. By kind: rejected (HTTP 503, or the")
        .append(" admission queue full), status (another HTTP status), error (an exception: an")
        .append(" I/O error, a timeout, the search threw), unanswered (no answer by the drain")
        .append(" deadline, or when a saturated point stopped).\n\n");
    for (Cell c : cells) {
      for (PointResult p : c.runs()) {
        if (p.failed() > 0) {
          md.append("- ").append(FLAG).append(' ').append(failureLine(c, p)).append('\n');
        }
      }
    }
  }

  /**
   * A point's line in the failures' section, e.g. {@code fixed:2 at 200 rps: point had 37 failures
   * (1.2% of 3000 sent): 30 rejected, 7 unanswered.}
   */
  static String failureLine(Cell c, PointResult p) {
    StringBuilder s =
        new StringBuilder(Report.displayName(c.policy()))
            .append(" at ")
            .append(Metric.load(c.load()))
            .append(" rps");
    if (c.repetitions() > 1) {
      s.append(", run ").append(p.repetition());
    }
    s.append(": point had ")
        .append(p.failed())
        .append(p.failed() == 1 ? " failure (" : " failures (")
        .append(p.sent() == 0 ? "?" : Misses.percent((double) p.failed() / p.sent()))
        .append(" of ")
        .append(p.sent())
        .append(" sent)");
    if (p.failures() != null) {
      s.append(": ").append(p.failures().describe());
    } else if (p.latencyMayHoldFailures()) {
      s.append(", kinds not recorded: written by an older Tailor, whose latencies include them");
    } else {
      s.append(", kinds not recorded");
    }
    return s.append('.').toString();
  }

  private void headroom(StringBuilder md, String metric, String unit) {
    List<String> contenders = new ArrayList<>();
    for (String p : policies) {
      if (!Report.isBaseline(p) && !p.equals(oracle)) {
        contenders.add(p);
      }
    }
    md.append("\n## Headroom to the oracle\n\n")
        .append("The oracle (")
        .append(
            HindsightOracle.isTuned(oracle)
                ? "clairvoyant: told each request's time and speedup, its budget tuned per load"
                    + " with hindsight"
                : "clairvoyant")
        .append(") is the ceiling, not a baseline. Each policy's share of the headroom it won:")
        .append(" (best baseline - policy) / (best baseline - oracle), by medians; 100% matches")
        .append(" the oracle, 0% is no better than the best baseline, negative is worse. \"n/a\"")
        .append(" where the oracle is not at least ")
        .append(Math.round(MIN_HEADROOM * 100))
        .append("% below the best baseline (no headroom to win) or where it or every baseline")
        .append(" saturated; \"sat.\" where the policy saturated.\n\n");
    md.append("| load (rps) | best baseline | its ")
        .append(metric)
        .append(" (")
        .append(unit)
        .append(") | oracle ")
        .append(metric)
        .append(" (")
        .append(unit)
        .append(") |");
    for (String p : contenders) {
      md.append(' ').append(Report.displayName(p)).append(" |");
    }
    md.append("\n|---|---|---|---|").append("---|".repeat(contenders.size())).append('\n');
    for (double load : loads) {
      Cell best = bestBaseline(load);
      Cell ceiling = cell(oracle, load);
      md.append("| ").append(Metric.load(load)).append(" | ");
      md.append(best == null ? "none unsaturated" : Report.displayName(best.policy()));
      md.append(" | ").append(best == null ? "-" : value(best.median()));
      md.append(" | ")
          .append(ceiling == null ? "-" : ceiling.saturated() ? "sat." : value(ceiling.median()))
          .append(" |");
      for (String p : contenders) {
        Cell c = cell(p, load);
        double share = c == null ? Double.NaN : headroomShare(c);
        md.append(' ')
            .append(
                c == null
                    ? "-"
                    : c.saturated()
                        ? saturated(c)
                        : Double.isNaN(share)
                            ? "n/a"
                            : String.format(Locale.ROOT, "%.0f%%", share * 100))
            .append(" |");
      }
      md.append('\n');
    }
  }

  /**
   * The misses' section: per load and policy the median miss ratio at the target, its range and its
   * ratio to the best baseline's, then each policy's sustained load (Li et al., PPoPP'16, §5).
   */
  private void missesAtTheTarget(StringBuilder md) {
    int reps = repetitions();
    int threshold = (int) Math.round(Misses.SUSTAINED_MISSES * 100);
    md.append("\n## Misses at the target (")
        .append(misses.label())
        .append(")\n\n")
        .append("Tail-control's objective (Li et al., PPoPP'16, §5): the share of requests that")
        .append(" missed the target (answered slower, or failed), rather than a percentile. Each")
        .append(" cell: the ")
        .append(
            reps > 1 ? "median share over the repetitions, its range [least-greatest]," : "share,")
        .append(" and in brackets its ratio to the best baseline's at that load (the unsaturated")
        .append(" baseline with the fewest misses, by median; no ratio where that one missed")
        .append(" none). \"sat.\" as above; \"n/a\" where the points did not record the target.")
        .append(" The last row gives the highest load each policy sustains: at it and at every")
        .append(" lower load it ran at, it did not saturate and missed at most ")
        .append(threshold)
        .append("% by median; in brackets where its misses cross ")
        .append(threshold)
        .append("%, interpolated linearly between that load and the next (left out where the")
        .append(" next saturated or there is none); \"none\" where it missed more even at its")
        .append(" lowest load.\n\n");
    table(
        md,
        policies,
        c -> {
          if (c.saturated()) {
            return saturated(c);
          }
          if (!misses.has(c)) {
            return "n/a";
          }
          Metric m = misses.metric();
          StringBuilder s = new StringBuilder(Misses.percent(c.median(m)));
          if (c.repetitions() > 1) {
            s.append(" [")
                .append(Misses.percent(c.min(m)))
                .append('-')
                .append(Misses.percent(c.max(m)))
                .append(']');
          }
          double ratio = misses.ratioToBestBaseline(c);
          if (!Double.isNaN(ratio)) {
            s.append(String.format(Locale.ROOT, " (%.2f)", ratio));
          }
          return s.toString();
        });
    md.append("| sustains (<= ").append(threshold).append("% misses) |");
    for (String p : policies) {
      md.append(' ').append(sustainedText(misses, p)).append(" |");
    }
    md.append('\n');
  }

  /** A policy's sustained load as the misses' table gives it. */
  static String sustainedText(Misses misses, String policy) {
    if (!misses.recorded(policy)) {
      return "n/a";
    }
    Misses.Sustained s = misses.sustained(policy);
    if (Double.isNaN(s.rps())) {
      return "none";
    }
    return Metric.load(s.rps())
        + (Double.isNaN(s.crossingRps()) ? "" : " (crosses at " + value(s.crossingRps()) + ")");
  }

  private void againstAdaptive(StringBuilder md, String metric) {
    List<String> others = new ArrayList<>(policies);
    others.remove(adaptive);
    md.append("\n## Against ")
        .append(Report.displayName(adaptive))
        .append(" alone\n\n")
        .append("As the Few-to-Many paper compares: each policy's median ")
        .append(metric)
        .append(" over ")
        .append(Report.displayName(adaptive))
        .append("'s at the same load (below 1 is faster)")
        .append(
            repetitions() > 1
                ? ", marked as above, its range against " + Report.displayName(adaptive) + "'s"
                : "")
        .append(".\n\n");
    table(
        md,
        others,
        c -> {
          Cell ad = cell(adaptive, c.load());
          if (c.saturated()) {
            return saturated(c);
          }
          if (ad == null || ad.saturated()) {
            return "n/a";
          }
          String mark = c.against(ad).mark();
          return String.format(Locale.ROOT, "%.2f", c.median() / ad.median())
              + (mark.isEmpty() ? "" : " " + mark);
        });
  }

  /** A table of loads by {@code columns}, each cell written by {@code text}. */
  private void table(
      StringBuilder md, List<String> columns, java.util.function.Function<Cell, String> text) {
    md.append("| load (rps) |");
    for (String p : columns) {
      md.append(' ').append(Report.displayName(p)).append(" |");
    }
    md.append("\n|---|").append("---|".repeat(columns.size())).append('\n');
    for (double load : loads) {
      md.append("| ").append(Metric.load(load)).append(" |");
      for (String p : columns) {
        Cell c = cell(p, load);
        md.append(' ')
            .append(c == null ? "-" : text.apply(c) + (c.failedRuns() > 0 ? " " + FLAG : ""))
            .append(" |");
      }
      md.append('\n');
    }
  }

  /** The first table's cell: median, range, ratio to the best baseline and verdict. */
  static String cellText(Cell c, Cell best, boolean baseline) {
    if (c.saturated()) {
      return saturated(c);
    }
    StringBuilder s = new StringBuilder(value(c.median()));
    if (c.repetitions() > 1) {
      s.append(" [").append(value(c.min())).append('-').append(value(c.max())).append(']');
    }
    if (best != null && best.median() > 0) {
      s.append(String.format(Locale.ROOT, " (%.2f", c.median() / best.median()));
      String mark = baseline ? "" : c.against(best).mark();
      s.append(mark.isEmpty() ? "" : " " + mark).append(')');
    }
    return s.toString();
  }

  private static String saturated(Cell c) {
    return c.repetitions() > 1
        ? "sat. (" + c.saturatedRuns() + "/" + c.repetitions() + ")"
        : "sat.";
  }

  /** A latency: three significant figures, at most three decimals. */
  static String value(double v) {
    double a = Math.abs(v);
    String pattern = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f";
    return String.format(Locale.ROOT, pattern, v);
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

  /** The seeds of the points: "seed 42", "seeds 42-44", or a list. */
  private String seeds() {
    TreeSet<Long> seeds = new TreeSet<>();
    for (Cell c : cells) {
      c.runs().forEach(p -> seeds.add(p.seed()));
    }
    if (seeds.size() == 1) {
      return "seed " + seeds.first();
    }
    if (seeds.last() - seeds.first() == seeds.size() - 1) {
      return "seeds " + seeds.first() + "-" + seeds.last();
    }
    return "seeds " + String.join(", ", seeds.stream().map(String::valueOf).toList());
  }

  /**
   * The first policy whose name (before any {@code :} or {@code @}) is {@code name}, the bare name
   * itself first; null if none.
   */
  private static String first(List<String> policies, String name) {
    for (String p : policies) {
      if (p.trim().equalsIgnoreCase(name)) {
        return p;
      }
    }
    for (String p : policies) {
      if (Report.baseName(p).equals(name)) {
        return p;
      }
    }
    return null;
  }
}
