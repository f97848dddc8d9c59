package dev.tailor.load.report;

import dev.tailor.measure.PointResult;
import java.util.List;
import java.util.TreeSet;

/**
 * The comparisons a report makes of its cells ({@link Cell}: a policy at a load over its
 * repetitions); {@link SummaryMarkdown} states them as the Markdown summary and {@link SummaryCsv}
 * as the cells' CSV.
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
    return Cell.bestBaseline(cells, load, Report.SUMMARY_METRIC);
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

  /** The markdown summary ({@link SummaryMarkdown}). */
  String markdown(PointResult first, ReportedWorkload workload, Report.Conditions conditions) {
    return new SummaryMarkdown(this).text(first, workload, conditions);
  }

  /** The cells' CSV ({@link SummaryCsv}). */
  String csv() {
    return SummaryCsv.of(this);
  }

  /** The points compared. */
  List<PointResult> points() {
    return points;
  }

  /** The cells, a policy at a load each. */
  List<Cell> cells() {
    return cells;
  }

  /** The policies, in the order of the report's columns. */
  List<String> policies() {
    return policies;
  }

  /** The offered loads, ascending. */
  List<Double> loads() {
    return loads;
  }

  /** Whether any point had failures. */
  boolean hasFailures() {
    return cells.stream().anyMatch(c -> c.failedRuns() > 0);
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
