package dev.tailor.load.report;

import dev.tailor.measure.PointResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One policy at one load over its repetitions: what a summary's cell shows. Its figure is the
 * {@link Report#SUMMARY_METRIC}'s median over the runs, and its range their least and greatest. A
 * cell counts as saturated when any of its runs saturated: a policy that cannot keep up once in
 * three runs cannot be trusted with that load. Likewise a report flags a cell where any run had
 * failures.
 *
 * @param policy the policy's specification, as the sweep listed it
 * @param load the offered load, requests per second
 * @param runs the repetitions, in order of repetition
 */
record Cell(String policy, double load, List<PointResult> runs) {

  /** How a cell compares with another beyond the noise its repetitions show. */
  enum Verdict {
    /** Its range lies wholly below the other's. */
    BETTER("better"),
    /** Its range lies wholly above the other's. */
    WORSE("worse"),
    /** The ranges overlap: the repetitions cannot tell the two apart. */
    WITHIN_NOISE("~"),
    /** No verdict: a side has a single run (no range) or saturated. */
    NONE("");

    private final String mark;

    Verdict(String mark) {
      this.mark = mark;
    }

    /** How a table marks it: {@code better}, {@code worse}, {@code ~} or nothing. */
    String mark() {
      return mark;
    }
  }

  /** Copies the runs. */
  Cell {
    runs = List.copyOf(runs);
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("a cell needs at least one run");
    }
  }

  /**
   * The points' cells: policies in order of first appearance, each with its loads ascending, the
   * runs of a cell by repetition.
   */
  static List<Cell> of(List<PointResult> points) {
    Map<String, Map<Double, List<PointResult>>> byPolicy = new LinkedHashMap<>();
    for (PointResult p : points) {
      byPolicy
          .computeIfAbsent(p.policy(), k -> new LinkedHashMap<>())
          .computeIfAbsent(p.offeredRps(), k -> new ArrayList<>())
          .add(p);
    }
    List<Cell> out = new ArrayList<>();
    for (Map.Entry<String, Map<Double, List<PointResult>>> e : byPolicy.entrySet()) {
      for (double load : new TreeSet<>(e.getValue().keySet())) {
        List<PointResult> runs = new ArrayList<>(e.getValue().get(load));
        runs.sort(Comparator.comparingInt(PointResult::repetition));
        out.add(new Cell(e.getKey(), load, runs));
      }
    }
    return out;
  }

  /** The cell of {@code policy} at {@code load} among {@code cells}, or null. */
  static Cell find(List<Cell> cells, String policy, double load) {
    for (Cell c : cells) {
      if (c.policy().equals(policy) && c.load() == load) {
        return c;
      }
    }
    return null;
  }

  /**
   * The best baseline at a load by a metric: the first unsaturated baseline cell with the lowest
   * median of it, or null.
   */
  static Cell bestBaseline(List<Cell> cells, double load, Metric metric) {
    Cell best = null;
    for (Cell c : cells) {
      if (c.load() == load
          && !c.saturated()
          && Report.isBaseline(c.policy())
          && (best == null || c.median(metric) < best.median(metric))) {
        best = c;
      }
    }
    return best;
  }

  /** How many runs the cell has. */
  int repetitions() {
    return runs.size();
  }

  /** How many of its runs saturated. */
  int saturatedRuns() {
    return (int) runs.stream().filter(PointResult::saturated).count();
  }

  /** Whether any run saturated. */
  boolean saturated() {
    return saturatedRuns() > 0;
  }

  /** How many of its runs had failures (requests that got no result). */
  int failedRuns() {
    return (int) runs.stream().filter(p -> p.failed() > 0).count();
  }

  /** The failures over its runs. */
  long failed() {
    return runs.stream().mapToLong(PointResult::failed).sum();
  }

  /** The requests sent over its runs. */
  long sent() {
    return runs.stream().mapToLong(PointResult::sent).sum();
  }

  /** The runs' values of a metric, ascending. */
  double[] sorted(Metric metric) {
    return runs.stream().mapToDouble(metric::value).sorted().toArray();
  }

  /**
   * The median of the summary metric over the runs (the mean of the middle two for an even count).
   */
  double median() {
    return median(Report.SUMMARY_METRIC);
  }

  /** The median of a metric over the runs. */
  double median(Metric metric) {
    double[] v = sorted(metric);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /** The least value of a metric over the runs. */
  double min(Metric metric) {
    return sorted(metric)[0];
  }

  /** The greatest value of a metric over the runs. */
  double max(Metric metric) {
    double[] v = sorted(metric);
    return v[v.length - 1];
  }

  /** Whether every run has a value of the metric (a miss ratio at a target it recorded). */
  boolean has(Metric metric) {
    return runs.stream().noneMatch(p -> Double.isNaN(metric.value(p)));
  }

  /** The least value of the summary metric over the runs. */
  double min() {
    return sorted(Report.SUMMARY_METRIC)[0];
  }

  /** The greatest value of the summary metric over the runs. */
  double max() {
    double[] v = sorted(Report.SUMMARY_METRIC);
    return v[v.length - 1];
  }

  /** The run whose summary metric is the median (the lower middle one for an even count). */
  PointResult medianRun() {
    List<PointResult> byValue = new ArrayList<>(runs);
    byValue.sort(Comparator.comparingDouble(Report.SUMMARY_METRIC::value));
    return byValue.get((byValue.size() - 1) / 2);
  }

  /**
   * How this cell compares with {@code other}: better or worse only when their ranges do not
   * overlap; within noise when they do; no verdict when either has a single run or saturated.
   */
  Verdict against(Cell other) {
    if (saturated() || other.saturated() || repetitions() < 2 || other.repetitions() < 2) {
      return Verdict.NONE;
    }
    if (max() < other.min()) {
      return Verdict.BETTER;
    }
    if (min() > other.max()) {
      return Verdict.WORSE;
    }
    return Verdict.WITHIN_NOISE;
  }
}
