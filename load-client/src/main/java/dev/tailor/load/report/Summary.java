package dev.tailor.load.report;

import dev.tailor.measure.PointResult;
import dev.tailor.measure.Provenance;
import java.util.List;
import java.util.TreeSet;

/**
 * The comparisons a report makes of its cells ({@link Cell}: a policy at a load over its
 * repetitions); {@link SummaryMarkdown} states them as the Markdown summary and {@link SummaryCsv}
 * as the cells' CSV.
 *
 * <ul>
 *   <li>Every cell's pooled P50, P99 and P99.9 with their 95% intervals ({@link Cell}), and the
 *       ratio of its pooled P99 to the reference's at its load (plain Lucene, else {@code seq}),
 *       with its interval: better or worse only where that interval excludes 1.
 *   <li>Every policy's ratio to the best non-clairvoyant policy at each load and its worst across
 *       loads ({@link Regret}).
 *   <li>Where the sweep has an oracle (the clairvoyant ceiling), each policy's share of the
 *       headroom between the reference and the oracle.
 *   <li>Where the report has a latency target, every cell's share of requests that missed it and
 *       each policy's sustained load ({@link Misses}), tail-control's objective.
 *   <li>Where the points have a latency breakdown, each part's P50 and P99 per cell ({@link
 *       BreakdownTable}).
 *   <li>The verdict ({@link Conclusion}): the Tailor configuration with the lowest worst-case
 *       ratio, and where it is better, worse or not distinguishable from plain Lucene.
 * </ul>
 */
final class Summary {

  /**
   * The least headroom, as a fraction of the reference's pooled P99, for which a share of it is
   * given: below it the oracle is not measurably better than the reference and any share would be
   * noise divided by noise.
   */
  static final double MIN_HEADROOM = 0.01;

  private final List<PointResult> points;
  private final List<Cell> cells;
  private final List<String> policies;
  private final List<Double> loads;
  private final String oracle;
  private final String reference;
  private final Misses misses;
  private final Conclusion conclusion;

  /** The comparisons of the points, with no latency target. */
  Summary(List<PointResult> points) {
    this(points, 0);
  }

  /**
   * The comparisons of the points, and their misses at a latency target.
   *
   * @param targetNanos the latency target, or 0 for none
   * @throws IllegalArgumentException naming the field if the points are of different builds,
   *     machines, environments or corpora ({@link Provenance#checkSame})
   */
  Summary(List<PointResult> points, long targetNanos) {
    Provenance.checkSame(points);
    this.points = List.copyOf(points);
    this.cells = Cell.of(points);
    this.policies = Report.policies(points);
    TreeSet<Double> l = new TreeSet<>();
    points.forEach(p -> l.add(p.offeredRps()));
    this.loads = List.copyOf(l);
    this.oracle = first(policies, "oracle");
    this.conclusion = new Conclusion(cells, loads, policies);
    List<String> refs = conclusion.references();
    this.reference = refs.isEmpty() ? null : refs.get(0);
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

  /**
   * The column every cell's ratio is to: {@code lucene} (plain Lucene with no executor, what a
   * deployment without Tailor runs) where the sweep has it, else the first other plain-Lucene
   * column, else {@code seq}; null where the sweep has none of them.
   */
  String reference() {
    return reference;
  }

  /** The verdict and the regret table it rests on. */
  Conclusion conclusion() {
    return conclusion;
  }

  /** The regret table. */
  Regret regret() {
    return conclusion.regret();
  }

  /** The most repetitions any cell has. */
  int repetitions() {
    return cells.stream().mapToInt(Cell::repetitions).max().orElse(0);
  }

  /** The cell of a policy at a load, or null. */
  Cell cell(String policy, double load) {
    return Cell.find(cells, policy, load);
  }

  /** The reference's cell at a load, or null. */
  Cell referenceCell(double load) {
    return reference == null ? null : cell(reference, load);
  }

  /**
   * A policy's share of the headroom between the reference and the oracle: {@code (reference -
   * policy) / (reference - oracle)}, 1 where it matches the oracle, 0 where it is no better than
   * the reference, negative where it is worse; NaN where the headroom is not positive or smaller
   * than {@link #MIN_HEADROOM} of the reference.
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
    Cell ref = referenceCell(c.load());
    Cell ceiling = oracle == null ? null : cell(oracle, c.load());
    if (ref == null || ref.saturated() || ceiling == null || ceiling.saturated() || c.saturated()) {
      return Double.NaN;
    }
    return headroomShare(ref.figure(), ceiling.figure(), c.figure());
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
