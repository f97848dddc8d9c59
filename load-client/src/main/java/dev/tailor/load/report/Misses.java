package dev.tailor.load.report;

import dev.tailor.core.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The miss objective of tail-control (Li et al., PPoPP'16, §5): a policy is judged by the share of
 * requests that miss one latency target (answered slower, or failed: a failure met no target), and
 * policies are compared by the highest load each sustains with at most {@link #SUSTAINED_MISSES} of
 * its requests missing. A cell's figure is the median over its repetitions of the miss ratio each
 * point recorded at the target.
 */
final class Misses {

  /** The largest share of requests that may miss the target at a load a policy sustains: 1%. */
  static final double SUSTAINED_MISSES = 0.01;

  /**
   * How far above {@link #SUSTAINED_MISSES} a ratio may lie and still count as within it: a point
   * computes its ratio as {@code 1 - within / total}, so exactly 1% can come out a hair above.
   */
  private static final double ROUNDING = 1e-9;

  /**
   * The load a policy sustains at the target.
   *
   * @param policy the policy's specification
   * @param rps the highest load at which, and at every lower load the policy ran at, its cell is
   *     unsaturated and its median miss ratio at most {@link #SUSTAINED_MISSES}; NaN if its lowest
   *     load is not (none), or if its points do not record the target
   * @param crossingRps the load at which its median miss ratio crosses {@link #SUSTAINED_MISSES},
   *     interpolated linearly between {@code rps} and its next load; NaN where there is no next
   *     load, or the next one saturated, or its ratio does not exceed the threshold
   */
  record Sustained(String policy, double rps, double crossingRps) {}

  private final long targetNanos;
  private final Metric metric;
  private final List<Cell> cells;

  /**
   * The miss objective of a report's cells at a target.
   *
   * @param cells the report's cells, each policy's in ascending load (as {@link Cell#of} gives)
   * @param targetNanos the latency target, above zero
   * @throws IllegalArgumentException if the target is not above zero
   */
  Misses(List<Cell> cells, long targetNanos) {
    if (targetNanos <= 0) {
      throw new IllegalArgumentException("a latency target must be above zero, got " + targetNanos);
    }
    this.targetNanos = targetNanos;
    this.metric = Metric.missRatio(label(targetNanos));
    this.cells = List.copyOf(cells);
  }

  /**
   * A target's label as points record their miss ratios ({@code 20ms}), which {@link
   * dev.tailor.measure.PointResultBuilder} also formats with {@link Durations#format}.
   */
  static String label(long targetNanos) {
    return Durations.format(targetNanos);
  }

  /** The target's label, e.g. {@code 20ms}. */
  String label() {
    return label(targetNanos);
  }

  /** The metric the cells are read by: the miss ratio at the target, a fraction. */
  Metric metric() {
    return metric;
  }

  /** Whether every run of a cell recorded its miss ratio at the target. */
  boolean has(Cell c) {
    return c.has(metric);
  }

  /** Whether a policy's ratio at {@code ratio} sustains the target. */
  static boolean within(double ratio) {
    return ratio <= SUSTAINED_MISSES + ROUNDING;
  }

  /**
   * The best baseline at a load by misses: the unsaturated baseline cell that recorded the target
   * with the lowest median miss ratio, or null.
   */
  Cell bestBaseline(double load) {
    return Cell.bestBaseline(cells.stream().filter(this::has).toList(), load, metric);
  }

  /**
   * A cell's median miss ratio over the best baseline's at its load; NaN where the cell saturated
   * or did not record the target, or there is no best baseline or it missed nothing (a ratio to
   * zero says nothing, and taking a worse baseline instead would flatter every policy).
   */
  double ratioToBestBaseline(Cell c) {
    Cell best = bestBaseline(c.load());
    if (c.saturated() || !has(c) || best == null || !(best.median(metric) > 0)) {
      return Double.NaN;
    }
    return c.median(metric) / best.median(metric);
  }

  /** The load a policy sustains at the target (see {@link Sustained}). */
  Sustained sustained(String policy) {
    double rps = Double.NaN;
    Cell last = null;
    Cell next = null;
    for (Cell c : cells) {
      if (!c.policy().equals(policy)) {
        continue;
      }
      if (c.saturated() || !has(c) || !within(c.median(metric))) {
        next = c;
        break;
      }
      rps = c.load();
      last = c;
    }
    double crossing = Double.NaN;
    // A saturated run stopped early with its backlog unanswered, so its ratio understates the
    // misses: no crossing is drawn towards it.
    if (last != null && next != null && !next.saturated() && has(next)) {
      double m0 = last.median(metric);
      double m1 = next.median(metric);
      if (!within(m1)) {
        crossing = last.load() + (SUSTAINED_MISSES - m0) / (m1 - m0) * (next.load() - last.load());
      }
    }
    return new Sustained(policy, rps, crossing);
  }

  /** Whether any run of a policy recorded the target. */
  boolean recorded(String policy) {
    return cells.stream()
        .filter(c -> c.policy().equals(policy))
        .flatMap(c -> c.runs().stream())
        .anyMatch(p -> !Double.isNaN(metric.value(p)));
  }

  /**
   * The sustained loads as a CSV, one row per policy: {@code policy,target,sustained_rps,
   * crossing_rps}, a load left empty where there is none (or the policy's points do not record the
   * target).
   */
  String csv(List<String> policies) {
    StringBuilder out = new StringBuilder();
    out.append("policy,target,sustained_rps,crossing_rps").append(System.lineSeparator());
    for (String p : policies) {
      Sustained s = sustained(p);
      List<String> row = new ArrayList<>();
      row.add(ResultsCsv.quote(p));
      row.add(label());
      row.add(Double.isNaN(s.rps()) ? "" : Metric.load(s.rps()));
      row.add(
          Double.isNaN(s.crossingRps()) ? "" : String.format(Locale.ROOT, "%.2f", s.crossingRps()));
      out.append(String.join(",", row)).append(System.lineSeparator());
    }
    return out.toString();
  }

  /**
   * A ratio in percent for a table: whole from 10%, then one, two or three decimals as it shrinks,
   * so that the figures near the 1% threshold keep two significant digits.
   */
  static String percent(double fraction) {
    double p = 100 * fraction;
    if (p == 0) {
      return "0%";
    }
    String pattern = p >= 10 ? "%.0f%%" : p >= 1 ? "%.1f%%" : p >= 0.1 ? "%.2f%%" : "%.3f%%";
    String s = String.format(Locale.ROOT, pattern, p);
    return s.equals("0.000%") ? "<0.001%" : s;
  }
}
