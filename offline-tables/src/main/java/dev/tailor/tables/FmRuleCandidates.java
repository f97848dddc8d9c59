package dev.tailor.tables;

import dev.tailor.core.table.IntervalTable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.DoubleStream;

/** The Few-to-Many rules an {@link FmTableTuner} chooses among, under either rule. */
public final class FmRuleCandidates {

  /** The paper's target parallelisms tried unless given, as multiples of the cores. */
  private static final double[] PAPER_TARGETS = {0.75, 1, 1.25, 1.5, 2};

  private FmRuleCandidates() {}

  /**
   * The paper's rule at each target parallelism, by default 0.75, 1, 1.25, 1.5 and 2 times the
   * cores.
   *
   * @param targets the target parallelisms, or null for the default
   * @throws IllegalArgumentException if a target is not positive
   */
  public static List<IntervalTable.Rule> paper(List<Double> targets, int cores) {
    List<Double> ts =
        targets != null
            ? targets
            : DoubleStream.of(PAPER_TARGETS).map(f -> f * cores).boxed().toList();
    return ts.stream().map(IntervalTable.Rule::paper).toList();
  }

  /**
   * The throughput rule at every pair of a utilization and a queue factor, utilization first.
   *
   * @throws IllegalArgumentException if a pair is not a valid rule
   */
  public static List<IntervalTable.Rule> throughput(
      List<Double> utilizations, List<Double> queueFactors) {
    List<IntervalTable.Rule> out = new ArrayList<>();
    for (double u : utilizations) {
      for (double q : queueFactors) {
        out.add(IntervalTable.Rule.throughput(u, q));
      }
    }
    return out;
  }
}
