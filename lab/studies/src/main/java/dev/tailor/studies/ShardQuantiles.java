package dev.tailor.studies;

import dev.tailor.studies.cluster.ClusterPoint;
import dev.tailor.studies.cluster.Observation;
import dev.tailor.studies.cluster.ShardWork;
import java.util.ArrayList;
import java.util.List;

/**
 * The aggregator's P99 against a shard's high quantiles at one utilization (TPC, Jeon et al.,
 * ASPLOS'16, §4.5, Figure 8(b)): a row per shard work, number of shards and policy, with the
 * quantile {@code 0.99^(1/N)} at which independent shards would put the aggregator's P99 and where
 * it sits instead ({@link Observation}).
 */
public final class ShardQuantiles implements Study<ShardQuantiles.Point> {

  /** A point: {@code shards} shards running {@code policy}, their work spread as {@code work}. */
  public record Point(ShardWork work, int shards, String policy) {}

  private final Clusters clusters;
  private final List<ShardWork> works;
  private final int[] shards;
  private final List<String> policies;
  private final double utilization;

  /** Every combination of {@code works}, {@code shards} and {@code policies}, in that nesting. */
  public ShardQuantiles(
      Clusters clusters,
      List<ShardWork> works,
      int[] shards,
      List<String> policies,
      double utilization) {
    this.clusters = clusters;
    this.works = List.copyOf(works);
    this.shards = shards.clone();
    this.policies = List.copyOf(policies);
    this.utilization = utilization;
  }

  @Override
  public String title() {
    return "(a) The aggregator's P99 against a shard's high quantiles, at utilization "
        + Cells.plain(utilization);
  }

  @Override
  public List<Table.Column> columns() {
    List<Table.Column> out = new ArrayList<>();
    out.add(Table.Column.number("shards"));
    out.add(Table.Column.text("shard work"));
    out.add(Table.Column.text("policy"));
    for (String name :
        List.of(
            "shard P99",
            "P99.8",
            "P99.9",
            "q = 0.99^(1/N)",
            "shard at q",
            "aggregator P99",
            "slowest / shard at q",
            "sits at shard",
            "independent shards' worth")) {
      out.add(Table.Column.number(name));
    }
    return out;
  }

  @Override
  public List<Point> points() {
    List<Point> out = new ArrayList<>();
    for (ShardWork work : works) {
      for (int n : shards) {
        for (String policy : policies) {
          out.add(new Point(work, n, policy));
        }
      }
    }
    return out;
  }

  @Override
  public List<String> run(Point p) {
    ClusterPoint point = clusters.of(p.shards(), p.policy(), p.work()).atUtilization(utilization);
    List<String> row = new ArrayList<>(List.of("" + p.shards(), p.work().mode(), p.policy()));
    if (point.saturated()) {
      row.add("saturated");
      while (row.size() < columns().size()) {
        row.add("");
      }
      return row;
    }
    Observation o = Observation.of(point);
    row.addAll(
        List.of(
            Cells.latency(o.shardP99Nanos()),
            Cells.latency(o.shardP998Nanos()),
            Cells.latency(o.shardP999Nanos()),
            Cells.percentile(o.matchedQuantile()),
            Cells.latency(o.shardAtMatchedNanos()),
            Cells.latency(o.aggregatorP99Nanos()),
            Cells.f("%.2f", o.ratio()),
            Cells.percentile(o.sitsAtQuantile()),
            Double.isInfinite(o.effectiveShards())
                ? "more than measured"
                : Cells.f("%.1f", o.effectiveShards())));
    return row;
  }
}
