package dev.tailor.load.report;

import dev.tailor.measure.LatencyBreakdown;
import dev.tailor.measure.PointResult;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The summary's "where the served time goes" table: per cell (a policy at a load), the P50 and P99
 * of each part of the {@link LatencyBreakdown}, each the median over the cell's repetitions, so
 * that a reader sees which part of the served time a policy changes and which it cannot.
 */
final class BreakdownTable {

  private BreakdownTable() {}

  /** Whether any point has a breakdown. */
  static boolean any(List<PointResult> points) {
    return points.stream().map(PointResult::breakdown).anyMatch(Objects::nonNull);
  }

  /** The table, or nothing where no point has a breakdown. */
  static void append(StringBuilder md, List<Cell> cells) {
    if (cells.stream().noneMatch(c -> c.medianRun().breakdown() != null)) {
      return;
    }
    md.append("\n## Where the served time goes\n\n")
        .append(
            "Each request's latency (from its intended send) split into the client's send lag,"
                + " the time queued for admission, the dispatch (admitted to first running: the"
                + " wake-up), the run (first running to its last thread's end) and the completion"
                + " (the rest, until the client saw the answer); P50 / P99 of each in ms, the"
                + " median over the repetitions. The parts of one request add up to its latency;"
                + " their percentiles do not add up to the latency's.\n\n");
    md.append("| policy | load (rps) |");
    for (String part : LatencyBreakdown.PARTS) {
      md.append(' ').append(part).append(" |");
    }
    md.append("\n|---|---|");
    md.append("---|".repeat(LatencyBreakdown.PARTS.size()));
    md.append('\n');
    for (Cell c : cells) {
      if (c.medianRun().breakdown() == null) {
        continue;
      }
      md.append("| ")
          .append(Report.displayName(c.policy()))
          .append(" | ")
          .append(Metric.load(c.load()))
          .append(" |");
      for (String part : LatencyBreakdown.PARTS) {
        md.append(
            String.format(
                Locale.ROOT, " %s / %s |", ms(median(c, part, true)), ms(median(c, part, false))));
      }
      md.append('\n');
    }
  }

  /** A cell's median over its runs of one part's P50 (or P99), NaN where no run has it. */
  static double median(Cell c, String part, boolean p50) {
    double[] v =
        c.runs().stream()
            .map(PointResult::breakdown)
            .filter(Objects::nonNull)
            .mapToDouble(b -> p50 ? b.part(part).p50Nanos() : b.part(part).p99Nanos())
            .sorted()
            .toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  private static String ms(double nanos) {
    return Double.isNaN(nanos) ? "-" : String.format(Locale.ROOT, "%.2f", nanos / 1e6);
  }
}
