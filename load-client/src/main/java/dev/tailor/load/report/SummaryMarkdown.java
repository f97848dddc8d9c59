package dev.tailor.load.report;

import dev.tailor.measure.PointResult;
import dev.tailor.sim.HindsightOracle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The Markdown summary of a report: the {@link Summary}'s comparisons stated as tables and prose,
 * section by section (every cell against the best baseline, the failures, the headroom to the
 * oracle, each policy against {@code adaptive}, the misses at the target, the latency breakdown and
 * the verdict).
 */
final class SummaryMarkdown {

  /** What marks a cell, in every table, where a run had failures. */
  static final String FLAG = "!";

  private final Summary summary;

  SummaryMarkdown(Summary summary) {
    this.summary = summary;
  }

  /** The Markdown summary. */
  String text(PointResult first, ReportedWorkload workload, Report.Conditions conditions) {
    String metric = Report.SUMMARY_METRIC.name().toUpperCase(Locale.ROOT);
    String unit = Report.SUMMARY_METRIC.unit();
    int reps = summary.repetitions();
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
    if (summary.hasFailures()) {
      md.append(" \"" + FLAG + "\" marks a cell where a run had failures (listed below).");
    }
    md.append("\n\n");
    table(
        md,
        summary.policies(),
        c -> cellText(c, summary.bestBaseline(c.load()), Report.isBaseline(c.policy())));
    if (summary.hasFailures()) {
      failures(md);
    }
    if (summary.oracle() != null) {
      headroom(md, metric, unit);
    }
    if (summary.adaptive() != null) {
      againstAdaptive(md, metric);
    }
    if (summary.misses() != null) {
      missesAtTheTarget(md);
    }
    BreakdownTable.append(md, summary.cells());
    md.append("\n## Verdict\n\n")
        .append(new Conclusion(summary.points(), BreakdownTable::phrase).paragraph())
        .append('\n');
    return md.toString();
  }

  /** The failures' section: every point that had any, with its count, share and kinds. */
  private void failures(StringBuilder md) {
    md.append("\n## Failures\n\n")
        .append("Requests that got no result. They are left out of every latency figure here and")
        .append(" count as misses of a latency target. By kind: rejected (HTTP 503, or the")
        .append(" admission queue full), status (another HTTP status), error (an exception: an")
        .append(" I/O error, a timeout, the search threw), unanswered (no answer by the drain")
        .append(" deadline, or when a saturated point stopped).\n\n");
    for (Cell c : summary.cells()) {
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
    String oracle = summary.oracle();
    List<String> contenders = new ArrayList<>();
    for (String p : summary.policies()) {
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
        .append(Math.round(Summary.MIN_HEADROOM * 100))
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
    for (double load : summary.loads()) {
      Cell best = summary.bestBaseline(load);
      Cell ceiling = summary.cell(oracle, load);
      md.append("| ").append(Metric.load(load)).append(" | ");
      md.append(best == null ? "none unsaturated" : Report.displayName(best.policy()));
      md.append(" | ").append(best == null ? "-" : value(best.median()));
      md.append(" | ")
          .append(ceiling == null ? "-" : ceiling.saturated() ? "sat." : value(ceiling.median()))
          .append(" |");
      for (String p : contenders) {
        Cell c = summary.cell(p, load);
        double share = c == null ? Double.NaN : summary.headroomShare(c);
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
    Misses misses = summary.misses();
    int reps = summary.repetitions();
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
        summary.policies(),
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
    for (String p : summary.policies()) {
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
    String adaptive = summary.adaptive();
    List<String> others = new ArrayList<>(summary.policies());
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
            summary.repetitions() > 1
                ? ", marked as above, its range against " + Report.displayName(adaptive) + "'s"
                : "")
        .append(".\n\n");
    table(
        md,
        others,
        c -> {
          Cell ad = summary.cell(adaptive, c.load());
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
  private void table(StringBuilder md, List<String> columns, Function<Cell, String> text) {
    md.append("| load (rps) |");
    for (String p : columns) {
      md.append(' ').append(Report.displayName(p)).append(" |");
    }
    md.append("\n|---|").append("---|".repeat(columns.size())).append('\n');
    for (double load : summary.loads()) {
      md.append("| ").append(Metric.load(load)).append(" |");
      for (String p : columns) {
        Cell c = summary.cell(p, load);
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

  /** The seeds of the points: "seed 42", "seeds 42-44", or a list. */
  private String seeds() {
    TreeSet<Long> seeds = new TreeSet<>();
    for (Cell c : summary.cells()) {
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
}
