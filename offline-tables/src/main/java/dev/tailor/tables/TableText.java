package dev.tailor.tables;

import dev.tailor.core.Durations;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The policies' tables as text: a header of the inputs a table records, then its rows, one line a
 * load. What {@code tables show} prints and what the table builders print after building.
 */
public final class TableText {

  private TableText() {}

  /** Prints a TPC target table: its inputs, groups, speedups, search and targets by load. */
  public static void print(TargetTable t, PrintWriter out) {
    TargetTable.Inputs in = t.inputs();
    TargetTable.Groups g = t.groups();
    built(out, TargetTable.KIND, t.builtAt(), t.buildSeconds(), in.profile(), in.profileDigest());
    out.printf(
        "  %d requests; predictions: %s%s%n",
        in.requests(),
        in.predictions(),
        in.model() == null ? "" : " by " + in.model() + " (" + in.modelDigest() + ")");
    out.printf(
        "  %d cores, P = %d; weighted %s at %s rps (weights %s); step %s; %d seed(s), %s"
            + " work%n",
        in.cores(),
        in.maxDegree(),
        in.quantile() == 0.99 ? "p99" : "p99.9",
        numbers(in.ratesRps()),
        numbers(in.weights()),
        ms(in.stepNanos()),
        in.seeds(),
        in.workModel());
    out.printf(
        "  groups: short < %s <= medium < %s <= long (also the long flag's threshold)%n",
        ms(g.mediumFromNanos()), ms(g.longFromNanos()));
    out.printf(
        "  speedups: short %s; medium %s; long %s%n",
        curve(g.shortCurve(), in.maxDegree()),
        curve(g.mediumCurve(), in.maxDegree()),
        curve(g.longCurve(), in.maxDegree()));
    TargetTable.Search s = t.search();
    out.printf(
        "  search: %d steps, %d tables simulated; weighted tail %.3f ms -> %.3f ms%n",
        s.iterations(), s.measurements(), s.initialTailNanos() / 1e6, s.finalTailNanos() / 1e6);
    out.printf("%n  %-14s %12s%n", in.loadMetric().label(), "target");
    int from = 0;
    for (TargetTable.Row r : t.rows()) {
      boolean last = r.upToLongThreads() == TargetTable.INFINITE;
      String loads =
          last
              ? from + " and more"
              : from == r.upToLongThreads()
                  ? Integer.toString(from)
                  : from + ".." + r.upToLongThreads();
      out.printf("  %-14s %12s%n", loads, ms(r.targetNanos()));
      from = last ? from : r.upToLongThreads() + 1;
    }
  }

  /** Prints a tail-control threshold table: its inputs, then the threshold by active requests. */
  public static void print(ThresholdTable t, PrintWriter out) {
    ThresholdTable.Inputs in = t.inputs();
    out.printf(
        "tc-threshold table built %s in %.3f s from %s%s%n",
        t.builtAt(),
        t.buildSeconds(),
        in.source(),
        in.sourceDigest() == null ? "" : " (" + in.sourceDigest() + ")");
    out.printf(
        "  %d requests in %d %s bins, mean work %s; target %s at %s rps on %d cores"
            + " (utilization %.2f cores, %.0f%%)%n",
        in.requests(),
        in.bins(),
        in.binning(),
        ms(in.meanWorkNanos()),
        ms(in.targetNanos()),
        trim(in.rps()),
        in.cores(),
        in.utilization(),
        100 * in.utilization() / in.cores());
    out.printf("%n  %-16s %14s %16s%n", "active requests", "threshold", "expected misses");
    List<ThresholdTable.Row> rows = t.rows();
    int from = 0;
    for (int i = 0; i < rows.size(); i++) {
      ThresholdTable.Row r = rows.get(i);
      boolean last = i == rows.size() - 1;
      // Consecutive loads with the same threshold share a line.
      if (!last && rows.get(i + 1).thresholdNanos() == r.thresholdNanos()) {
        continue;
      }
      String loads =
          last
              ? rows.get(from).activeRequests() + " and more"
              : from == i
                  ? Integer.toString(r.activeRequests())
                  : rows.get(from).activeRequests() + ".." + r.activeRequests();
      out.printf(
          "  %-16s %14s %16.2f%n", loads, ms(r.thresholdNanos()), rows.get(from).expectedMisses());
      from = i + 1;
    }
  }

  /** Prints a Few-to-Many interval table: its inputs and rule, then the schedule by load. */
  public static void print(IntervalTable t, PrintWriter out) {
    IntervalTable.Inputs in = t.inputs();
    IntervalTable.Rule rule = in.rule();
    built(out, IntervalTable.KIND, t.builtAt(), t.buildSeconds(), in.profile(), in.profileDigest());
    out.printf(
        "  %d requests%s; %d cores; rule: %s; degrees %s; step %s, horizon %s; phi %s%n",
        in.requests(),
        in.bins() > 0 ? " in " + in.bins() + " bins" : "",
        in.cores(),
        rule,
        Arrays.toString(in.degrees()),
        Durations.format(in.stepNanos()),
        Durations.format(in.horizonNanos()),
        trim(in.phi()));
    if (in.tuning() != null) {
      out.printf("  %s%n", in.tuning());
    }
    if (rule.isPaper()) {
      out.printf(
          "%n  %5s  %-56s %10s %10s %6s %7s%n", "load", "schedule", "tail", "mean", "A", "q*A");
    } else {
      out.printf(
          "%n  %5s  %-56s %10s %10s %6s %9s %6s%n",
          "load", "schedule", "tail", "mean", "A", "rate", "util");
    }
    for (IntervalTable.Row r : t.rows()) {
      if (rule.isPaper()) {
        out.printf(
            "  %5d  %-56s %8.1fms %8.1fms %6.2f %7.2f%s%n",
            r.load(),
            r.schedule().pairs(),
            r.tailNanos() / 1e6,
            r.meanNanos() / 1e6,
            r.parallelism(),
            r.load() * r.parallelism(),
            r.load() * r.parallelism() > rule.targetParallelism() * (1 + 1e-9)
                ? "  (over target: nothing fits)"
                : "");
      } else {
        // The share of the cores the row's busy time fills at its rate: <= the utilization,
        // except where no schedule keeps up (the leanest, and the queue grows).
        double util = r.arrivalRate() * r.parallelism() * r.meanNanos() / 1e9 / in.cores();
        out.printf(
            "  %5d  %-56s %8.2fms %8.2fms %6.2f %7.1f/s %5.0f%%%n",
            r.load(),
            r.schedule().pairs(),
            r.tailNanos() / 1e6,
            r.meanNanos() / 1e6,
            r.parallelism(),
            r.arrivalRate(),
            100 * util);
      }
    }
    out.printf("  loads above %d read the last row%n", t.rows().size());
  }

  /** The first line of a table built from a profile: its kind, when and from what it was built. */
  private static void built(
      PrintWriter out, String kind, String builtAt, double seconds, String profile, String digest) {
    out.printf(
        "%s table built %s in %.1f s from %s (%s)%n", kind, builtAt, seconds, profile, digest);
  }

  private static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
  }

  private static String curve(SpeedupCurve c, int maxDegree) {
    StringBuilder b = new StringBuilder();
    for (int d = 1; d <= maxDegree; d++) {
      b.append(d == 1 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", c.at(d)));
    }
    return b.toString();
  }

  private static String numbers(double[] values) {
    StringBuilder b = new StringBuilder();
    for (double v : values) {
      b.append(b.isEmpty() ? "" : ",").append(trim(v));
    }
    return b.toString();
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
