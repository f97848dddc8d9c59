package dev.tailor.studies;

import dev.tailor.core.Durations;
import dev.tailor.studies.cluster.ShardWork;
import dev.tailor.studies.cluster.SustainedLoad;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * For each number of shards, the highest utilization at which each policy keeps the aggregator's
 * P99 within a target ({@link SustainedLoad}, by bisection), and which policies reach the highest.
 */
public final class SustainedLoads implements Study<Integer> {

  private final Clusters clusters;
  private final ShardWork work;
  private final int[] shards;
  private final List<String> policies;
  private final long targetNanos;
  private final double tolerance;

  /**
   * The study of {@code shards} shards running each of {@code policies}, their work spread as
   * {@code work}, the bisection stopping within {@code tolerance} in utilization.
   */
  public SustainedLoads(
      Clusters clusters,
      ShardWork work,
      int[] shards,
      List<String> policies,
      long targetNanos,
      double tolerance) {
    this.clusters = clusters;
    this.work = work;
    this.shards = shards.clone();
    this.policies = List.copyOf(policies);
    this.targetNanos = targetNanos;
    this.tolerance = tolerance;
  }

  @Override
  public String title() {
    return Cells.f(
        "(b) The highest load at which each policy keeps the aggregator's P99 within %s (%s,"
            + " bisection to %s in utilization)",
        Durations.format(targetNanos), work, Cells.plain(tolerance));
  }

  @Override
  public List<Table.Column> columns() {
    List<Table.Column> out = new ArrayList<>();
    out.add(Table.Column.number("shards"));
    policies.forEach(p -> out.add(Table.Column.number(p)));
    out.add(Table.Column.text("highest"));
    return out;
  }

  @Override
  public List<Integer> points() {
    return Arrays.stream(shards).boxed().toList();
  }

  /** Runs one number of shards: a cell per policy, then the policies that sustain the most. */
  @Override
  public List<String> run(Integer n) {
    List<String> cells = new ArrayList<>();
    List<String> best = new ArrayList<>();
    double bestLoad = 0;
    for (String policy : policies) {
      SustainedLoad.Result r =
          SustainedLoad.find(clusters.of(n, policy, work), targetNanos, tolerance);
      cells.add(
          r.sustained() == null ? "none" : Cells.f("%.3f (%,.0f/s)", r.utilization(), r.rps()));
      if (r.utilization() > 0 && r.utilization() >= bestLoad) {
        if (r.utilization() > bestLoad) {
          best.clear();
        }
        bestLoad = r.utilization();
        best.add(policy);
      }
    }
    List<String> row = new ArrayList<>();
    row.add(n.toString());
    row.addAll(cells);
    row.add(best.isEmpty() ? "none" : String.join(", ", best));
    return row;
  }
}
