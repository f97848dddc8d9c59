package dev.tailor.load.report;

import dev.tailor.measure.Estimate;
import dev.tailor.measure.PointResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether two sweeps of the same configuration agree, point by point: the power of a sweep's
 * statistics, told by repeating it. For every policy and load both ran, each sweep's pooled P99
 * with its 95% interval, whether the two intervals overlap, and each interval's half-width as a
 * share of its P99. Saturated points are left out of the agreement (their percentiles describe a
 * backlog cut short).
 *
 * <p>The goals it is judged by: the intervals overlap at {@value #OVERLAP_GOAL_PERCENT}% or more of
 * the unsaturated points, and a point's half-width is at most {@value #HALF_WIDTH_GOAL_PERCENT}% of
 * its P99, which the table shows per point (a reader checks it at the loads that matter).
 */
public final class Agreement {

  /** The share of unsaturated points whose intervals must overlap, percent. */
  public static final int OVERLAP_GOAL_PERCENT = 90;

  /** The largest half-width of a P99 interval the goal allows, percent of the P99. */
  public static final int HALF_WIDTH_GOAL_PERCENT = 10;

  /**
   * One point of both sweeps.
   *
   * @param policy the policy
   * @param load the offered load
   * @param a the first sweep's pooled P99, nanoseconds
   * @param b the second's
   * @param saturated whether either saturated
   */
  public record Row(String policy, double load, Estimate a, Estimate b, boolean saturated) {

    /** Whether the two intervals share a value. */
    public boolean overlaps() {
      return a.overlaps(b);
    }

    /** The larger of the two half-widths as a share of its P99, or NaN. */
    public double halfWidth() {
      return Math.max(a.relativeHalfWidth(), b.relativeHalfWidth());
    }
  }

  private final List<Row> rows = new ArrayList<>();

  /** The points both sweeps ran, by load then policy in the first sweep's order. */
  public Agreement(List<PointResult> first, List<PointResult> second) {
    List<Cell> a = Cell.of(first);
    List<Cell> b = Cell.of(second);
    for (double load : new java.util.TreeSet<>(a.stream().map(Cell::load).toList())) {
      for (Cell x : a) {
        Cell y = x.load() == load ? Cell.find(b, x.policy(), load) : null;
        if (y != null) {
          rows.add(new Row(x.policy(), load, x.p99(), y.p99(), x.saturated() || y.saturated()));
        }
      }
    }
  }

  /** Every point both ran. */
  public List<Row> rows() {
    return rows;
  }

  /** The unsaturated points whose intervals overlap. */
  public long overlapping() {
    return rows.stream().filter(r -> !r.saturated() && r.overlaps()).count();
  }

  /** The unsaturated points with an interval on both sides. */
  public long comparable() {
    return rows.stream()
        .filter(r -> !r.saturated() && r.a().hasInterval() && r.b().hasInterval())
        .count();
  }

  /** Whether the overlap goal is met: at least {@value #OVERLAP_GOAL_PERCENT}% of the points. */
  public boolean meetsOverlapGoal() {
    return comparable() > 0 && overlapping() * 100 >= OVERLAP_GOAL_PERCENT * comparable();
  }

  /** The table and the verdict, as text. */
  public String text() {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "%-28s %8s  %-24s %-24s %-8s %s%n",
            "policy",
            "load",
            "first P99 (ms)",
            "second P99 (ms)",
            "overlap",
            "half-width"));
    for (Row r : rows) {
      s.append(
          String.format(
              Locale.ROOT,
              "%-28s %8s  %-24s %-24s %-8s %s%n",
              Report.displayName(r.policy()),
              Metric.load(r.load()),
              r.saturated() ? "sat." : SummaryMarkdown.ms(r.a()),
              r.saturated() ? "sat." : SummaryMarkdown.ms(r.b()),
              r.saturated() ? "-" : r.overlaps() ? "yes" : "NO",
              Double.isNaN(r.halfWidth())
                  ? "-"
                  : String.format(Locale.ROOT, "%.1f%%", 100 * r.halfWidth())));
    }
    s.append(
        String.format(
            Locale.ROOT,
            "intervals overlap at %d of %d unsaturated points with intervals (%.0f%%; goal %d%%):"
                + " %s%n",
            overlapping(),
            comparable(),
            comparable() == 0 ? 0.0 : 100.0 * overlapping() / comparable(),
            OVERLAP_GOAL_PERCENT,
            meetsOverlapGoal() ? "met" : "missed"));
    long narrow =
        rows.stream()
            .filter(r -> !r.saturated() && r.halfWidth() <= HALF_WIDTH_GOAL_PERCENT / 100.0)
            .count();
    s.append(
        String.format(
            Locale.ROOT,
            "half-width at most %d%% of the P99 at %d of %d unsaturated points%n",
            HALF_WIDTH_GOAL_PERCENT,
            narrow,
            rows.stream().filter(r -> !r.saturated()).count()));
    return s.toString();
  }
}
