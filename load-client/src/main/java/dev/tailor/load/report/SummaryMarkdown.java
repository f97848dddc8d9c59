package dev.tailor.load.report;

import dev.tailor.measure.Estimate;
import dev.tailor.measure.MachineNoise;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PooledLatency;
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

  /** What marks a P99 whose point had a run with stalls past the bound. */
  static final String NOISY = "(noisy)";

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
    String ref = summary.reference();
    md.append("Figures are pooled: each point's runs' latency histograms merged into one, so a")
        .append(" percentile rests on every request of every run (the number of answered requests")
        .append(" behind each point is in the last table). In brackets, the 95% interval, by")
        .append(" bootstrap over whole runs (")
        .append(PooledLatency.REPLICATES)
        .append(" replicates; requests within a run are correlated, so runs are what is")
        .append(" resampled); none with a single run. Percentiles above P90 are left out of points")
        .append(" with fewer than ")
        .append(PooledLatency.MIN_REQUESTS_ABOVE_P90)
        .append(" answered requests (\"-\"), where P99 would be the slowest request or nearly.");
    if (ref != null) {
      md.append(" Each cell's second figure is its pooled ")
          .append(metric)
          .append(" over ")
          .append(Report.displayName(ref))
          .append("'s at the same load")
          .append(
              Report.isPlainLucene(ref)
                  ? " (plain Lucene, what a deployment without Tailor runs)"
                  : " (no plain-Lucene column in this sweep; seq runs every query alone, as plain"
                      + " Lucene does)")
          .append(", with its interval, paired by round where both ran in the same rounds:")
          .append(" \"better\" or \"worse\" where the interval excludes 1, \"~\" where it")
          .append(" holds it.");
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
    md.append("### Pooled ").append(metric).append(" (").append(unit).append(")\n\n");
    table(
        md,
        summary.policies(),
        c -> cellText(c, summary.referenceCell(c.load())) + (c.noisy() ? " " + NOISY : ""));
    for (double percentile : new double[] {50, 99.9}) {
      md.append("\n### Pooled P")
          .append(percentile == Math.rint(percentile) ? "" + (long) percentile : "" + percentile)
          .append(" (")
          .append(unit)
          .append(")\n\n");
      table(md, summary.policies(), c -> c.saturated() ? saturated(c) : ms(c.latency(percentile)));
    }
    md.append("\n### Requests behind each point\n\n")
        .append("Answered requests over the point's runs, and how many runs.\n\n");
    table(
        md,
        summary.policies(),
        c ->
            String.format(Locale.ROOT, "%,d", c.requests())
                + " ("
                + c.repetitions()
                + (c.repetitions() == 1 ? " run)" : " runs)"));
    if (summary.cells().stream().anyMatch(c -> c.noisiestRun() != null)) {
      noise(md);
    }
    if (summary.hasFailures()) {
      failures(md);
    }
    if (summary.oracle() != null) {
      headroom(md, metric, unit);
    }
    summary.regret().appendMarkdown(md);
    if (summary.misses() != null) {
      missesAtTheTarget(md);
    }
    BreakdownTable.append(md, summary.cells());
    md.append("\n## Verdict\n\n").append(summary.conclusion().paragraph()).append('\n');
    return md.toString();
  }

  /**
   * The machine's noise while each point ran ({@link MachineNoise}): the run with the highest stall
   * P99, its GC pauses, the CPU stolen by the hypervisor and used by other processes, and the load
   * client's send lag.
   */
  private void noise(StringBuilder md) {
    md.append("\n### The machine's noise while each point ran\n\n")
        .append("For each point, its noisiest run (by stall P99): the stalls a thread that sleeps")
        .append(" and records its oversleep saw (jHiccup's method), the GC's pauses, the share")
        .append(" of all cores stolen by the hypervisor and used by other processes, and the load")
        .append(" client's send lag P99. ")
        .append(NOISY)
        .append(" beside a P99 above marks a point with a run whose stall P99 passed ")
        .append(value(MachineNoise.DEFAULT_STALL_BOUND_NANOS / 1e6))
        .append(" ms: there the machine, not the policy, may have set the tail.\n\n");
    table(
        md,
        summary.policies(),
        c -> {
          PointResult p = c.noisiestRun();
          if (p == null) {
            return "-";
          }
          MachineNoise n = p.noise();
          Double lag = p.sendLag() == null ? null : p.sendLag().get("p99");
          return String.format(
              Locale.ROOT,
              "stalls %s ms, GC %d (%s ms), steal %s, other %s, lag %s ms",
              value(n.stallP99Nanos() / 1e6),
              n.gcPauses(),
              value(n.gcPauseTotalNanos() / 1e6),
              share(n.stealFraction()),
              share(n.otherCpuFraction()),
              lag == null ? "-" : value(lag / 1e6));
        });
  }

  private static String share(double fraction) {
    return Double.isNaN(fraction) ? "?" : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
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
    String ref = summary.reference();
    List<String> contenders = new ArrayList<>();
    for (String p : summary.policies()) {
      if (!p.equals(ref) && !p.equals(oracle) && !Report.isClairvoyant(p)) {
        contenders.add(p);
      }
    }
    md.append("\n## Headroom to the oracle\n\n");
    if (ref == null) {
      md.append("No plain-Lucene or seq column to measure the headroom from.\n");
      return;
    }
    md.append("The oracle (")
        .append(
            HindsightOracle.isTuned(oracle)
                ? "clairvoyant: told each request's time and speedup, its budget tuned per load"
                    + " with hindsight"
                : "clairvoyant")
        .append(") is the ceiling, not a configuration. Each policy's share of the headroom")
        .append(" between ")
        .append(Report.displayName(ref))
        .append(" and the oracle: (")
        .append(Report.displayName(ref))
        .append(" - policy) / (")
        .append(Report.displayName(ref))
        .append(" - oracle), by pooled ")
        .append(metric)
        .append("; 100% matches the oracle, 0% is no better, negative is worse. \"n/a\" where")
        .append(" the oracle is not at least ")
        .append(Math.round(Summary.MIN_HEADROOM * 100))
        .append("% below it (no headroom to win) or where either saturated; \"sat.\" where the")
        .append(" policy saturated.\n\n");
    md.append("| load (rps) | ")
        .append(Report.displayName(ref))
        .append(' ')
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
    md.append("\n|---|---|---|").append("---|".repeat(contenders.size())).append('\n');
    for (double load : summary.loads()) {
      Cell base = summary.referenceCell(load);
      Cell ceiling = summary.cell(oracle, load);
      md.append("| ").append(Metric.load(load)).append(" | ");
      md.append(base == null ? "-" : base.saturated() ? "sat." : ms(base.p99()));
      md.append(" | ")
          .append(ceiling == null ? "-" : ceiling.saturated() ? "sat." : ms(ceiling.p99()))
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

  /**
   * The first table's cell: the pooled P99 in milliseconds with its interval, then its ratio to the
   * reference's with its interval and verdict ({@code 20.1 [18.0-22.4] · 0.71 [0.61-0.86] better}).
   */
  static String cellText(Cell c, Cell reference) {
    if (c.saturated()) {
      return saturated(c);
    }
    StringBuilder s = new StringBuilder(ms(c.p99()));
    if (reference != null && reference != c && !reference.saturated()) {
      Estimate ratio = c.ratioTo(reference);
      if (ratio.known()) {
        s.append(" · ").append(ratio.format("%.2f"));
        String mark = ratio.verdict().mark();
        s.append(mark.isEmpty() ? "" : " " + mark);
      }
    }
    return s.toString();
  }

  /** A latency estimate in nanoseconds as milliseconds, with its interval. */
  static String ms(Estimate nanos) {
    if (!nanos.known()) {
      return "-";
    }
    Estimate e = nanos.times(1e-6);
    String v = value(e.value());
    return e.hasInterval() ? v + " [" + value(e.low()) + "-" + value(e.high()) + "]" : v;
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
