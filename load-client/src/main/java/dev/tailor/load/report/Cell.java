package dev.tailor.load.report;

import dev.tailor.measure.Estimate;
import dev.tailor.measure.MachineNoise;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PooledLatency;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One policy at one load over its repetitions: what a summary's cell shows. Its figures are pooled
 * ({@link PooledLatency}): every run's latency histogram merged, each percentile with a 95%
 * interval by bootstrap over whole runs, and a comparison of two cells is the ratio of their pooled
 * percentiles with its interval, paired by round where both ran in the same rounds of an
 * interleaved sweep. A cell counts as saturated when any of its runs saturated: a policy that
 * cannot keep up once in three runs cannot be trusted with that load. Likewise a report flags a
 * cell where any run had failures. Figures that are not latencies (a miss ratio) are read per run,
 * as their median and range.
 */
final class Cell {

  private final String policy;
  private final double load;
  private final List<PointResult> runs;
  private PooledLatency pooled;

  /**
   * @param policy the policy's specification, as the sweep listed it
   * @param load the offered load, requests per second
   * @param runs the repetitions, in order of repetition
   */
  Cell(String policy, double load, List<PointResult> runs) {
    this.policy = policy;
    this.load = load;
    this.runs = List.copyOf(runs);
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("a cell needs at least one run");
    }
  }

  /** The policy's specification, as the sweep listed it. */
  String policy() {
    return policy;
  }

  /** The offered load, requests per second. */
  double load() {
    return load;
  }

  /** The repetitions, in order of repetition. */
  List<PointResult> runs() {
    return runs;
  }

  /** The runs' latency histograms pooled (made on first use). */
  PooledLatency pooled() {
    if (pooled == null) {
      pooled = PooledLatency.ofPoints(runs);
    }
    return pooled;
  }

  /** A pooled latency percentile, nanoseconds, with its interval. */
  Estimate latency(double percentile) {
    return pooled().at(percentile);
  }

  /** The pooled {@link Report#SUMMARY_METRIC} with its interval, nanoseconds. */
  Estimate p99() {
    return latency(Report.SUMMARY_PERCENTILE);
  }

  /** The pooled P99's value in nanoseconds, NaN where there is none. */
  double figure() {
    return p99().value();
  }

  /** The answered requests behind the pooled figures. */
  long requests() {
    return pooled().requests();
  }

  /**
   * This cell's pooled P99 over {@code other}'s, with its interval; no figure where either
   * saturated (a saturated point's percentiles describe a backlog cut short, not a service).
   */
  Estimate ratioTo(Cell other) {
    if (saturated() || other.saturated()) {
      return Estimate.NONE;
    }
    return pooled().ratioTo(other.pooled(), Report.SUMMARY_PERCENTILE);
  }

  /**
   * How this cell compares with {@code other}: better or worse only where the ratio's interval
   * excludes 1; the same ({@code ~}) where it holds it; no verdict where either has a single run or
   * saturated.
   */
  Estimate.Verdict against(Cell other) {
    return ratioTo(other).verdict();
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
    return best(cells, load, c -> Report.isBaseline(c.policy()), c -> c.median(metric));
  }

  /**
   * The first unsaturated cell at {@code load} that {@code eligible} accepts, with the lowest known
   * {@code figure}, or null.
   */
  static Cell best(
      List<Cell> cells,
      double load,
      java.util.function.Predicate<Cell> eligible,
      java.util.function.ToDoubleFunction<Cell> figure) {
    Cell best = null;
    for (Cell c : cells) {
      double v =
          c.load() == load && !c.saturated() && eligible.test(c)
              ? figure.applyAsDouble(c)
              : Double.NaN;
      if (!Double.isNaN(v) && (best == null || v < figure.applyAsDouble(best))) {
        best = c;
      }
    }
    return best;
  }

  /**
   * Whether any run's noise reading has stalls past {@link MachineNoise#DEFAULT_STALL_BOUND_NANOS}.
   */
  boolean noisy() {
    return runs.stream()
        .anyMatch(
            p ->
                p.noise() != null
                    && p.noise().stallsExceed(MachineNoise.DEFAULT_STALL_BOUND_NANOS));
  }

  /** The run whose noise reading has the highest stall P99, or null where no run has one. */
  PointResult noisiestRun() {
    return runs.stream()
        .filter(p -> p.noise() != null)
        .max(Comparator.comparingLong(p -> p.noise().stallP99Nanos()))
        .orElse(null);
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

  /** The run whose summary metric is the median (the lower middle one for an even count). */
  PointResult medianRun() {
    List<PointResult> byValue = new ArrayList<>(runs);
    byValue.sort(Comparator.comparingDouble(Report.SUMMARY_METRIC::value));
    return byValue.get((byValue.size() - 1) / 2);
  }
}
