package dev.tailor.studies.cluster;

import java.util.Arrays;

/**
 * One simulated point of a {@link Cluster}: the aggregator's latency of each measured query (its
 * slowest shard's plus the merge cost) and the shards' latencies of the measured queries, pooled. A
 * saturated point has no latencies: some shard's queue outgrew it. A point that a load search
 * stopped early ({@link #complete()} false) holds only its first shards, so its aggregator
 * quantiles are lower bounds of the whole cluster's.
 */
public final class ClusterPoint {

  private final int shards;
  private final int shardsSimulated;
  private final double offeredRps;
  private final double utilization;
  private final boolean saturated;
  private final long mergeNanos;
  private final long[] slowestByArrival; // every arrival's slowest shard, warm-up included
  private final long[] slowestSorted; // the measured queries'
  private final long[] shardsSorted; // the simulated shards' measured latencies, pooled
  private final int[] completions;

  private ClusterPoint(Builder b, boolean saturated, long mergeNanos, int warmup) {
    this.shards = b.shards;
    this.shardsSimulated = b.simulated;
    this.offeredRps = b.offeredRps;
    this.utilization = b.utilization;
    this.saturated = saturated;
    this.mergeNanos = mergeNanos;
    this.completions = Arrays.copyOf(b.completions, b.simulated);
    if (saturated) {
      this.slowestByArrival = new long[0];
      this.slowestSorted = new long[0];
      this.shardsSorted = new long[0];
    } else {
      this.slowestByArrival = b.slowest;
      this.slowestSorted = b.sortedMeasuredSlowest(warmup);
      this.shardsSorted = Arrays.copyOf(b.pooled, b.pooledCount);
      Arrays.sort(shardsSorted);
    }
  }

  /** N, the shards of the cluster. */
  public int shards() {
    return shards;
  }

  /** The shards simulated: all N, unless a load search stopped early or a shard saturated. */
  public int shardsSimulated() {
    return shardsSimulated;
  }

  /** Whether every shard was simulated and none saturated. */
  public boolean complete() {
    return !saturated && shardsSimulated == shards;
  }

  /** The arrival rate at the aggregator, queries per second. */
  public double offeredRps() {
    return offeredRps;
  }

  /** The offered rate over the cluster's capacity ({@link Cluster#capacityRps()}). */
  public double utilization() {
    return utilization;
  }

  /** Whether a shard's queue outgrew the point; then there are no latencies. */
  public boolean saturated() {
    return saturated;
  }

  /** The measured queries: those after the warm-up; 0 if saturated. */
  public int measuredQueries() {
    return slowestSorted.length;
  }

  /** The aggregator's fixed network and merge cost, counted in its latencies. */
  public long mergeNanos() {
    return mergeNanos;
  }

  /**
   * The aggregator's latency at quantile {@code q} (nearest rank) over the measured queries: the
   * slowest shard's latency plus the merge cost.
   *
   * @throws IllegalStateException if the point saturated
   */
  public long aggregatorQuantileNanos(double q) {
    return slowestShardQuantileNanos(q) + mergeNanos;
  }

  /**
   * The slowest shard's latency of a query at quantile {@code q} (nearest rank): the aggregator's
   * without the merge cost.
   *
   * @throws IllegalStateException if the point saturated
   */
  public long slowestShardQuantileNanos(double q) {
    requireLatencies();
    return Quantiles.at(slowestSorted, q);
  }

  /**
   * A shard's latency at quantile {@code q} (nearest rank), over every simulated shard's measured
   * queries pooled.
   *
   * @throws IllegalStateException if the point saturated
   */
  public long shardQuantileNanos(double q) {
    requireLatencies();
    return Quantiles.at(shardsSorted, q);
  }

  /**
   * The share of the shards' latencies (pooled) at or below {@code nanos}: the quantile of a shard
   * at which that latency sits.
   *
   * @throws IllegalStateException if the point saturated
   */
  public double shardShareAtOrBelow(long nanos) {
    requireLatencies();
    return Quantiles.shareAtOrBelow(shardsSorted, nanos);
  }

  /** The slowest shard's latency of every query in arrival order, warm-up included; for tests. */
  long[] slowestByArrival() {
    return slowestByArrival.clone();
  }

  /** How many completions each simulated shard reported; for tests. */
  int[] completions() {
    return completions.clone();
  }

  private void requireLatencies() {
    if (saturated) {
      throw new IllegalStateException(
          "the point at " + offeredRps + " queries/s saturated: it has no latencies");
    }
  }

  /** Collects a point shard by shard. */
  static final class Builder {
    private final int shards;
    private final double offeredRps;
    private final double utilization;
    private final long[] slowest;
    private final int[] completions;
    private long[] pooled = new long[0];
    private int pooledCount;
    private int simulated;

    Builder(int shards, double offeredRps, double utilization, int queries) {
      this.shards = shards;
      this.offeredRps = offeredRps;
      this.utilization = utilization;
      this.slowest = new long[queries];
      this.completions = new int[shards];
    }

    /** Adds a shard's latency of every query, in arrival order. */
    void addShard(long[] latency, int warmup, int completed) {
      for (int j = 0; j < slowest.length; j++) {
        slowest[j] = Math.max(slowest[j], latency[j]);
      }
      int measured = latency.length - warmup;
      if (pooledCount + measured > pooled.length) {
        pooled = Arrays.copyOf(pooled, Math.max(pooledCount + measured, 2 * pooled.length));
      }
      System.arraycopy(latency, warmup, pooled, pooledCount, measured);
      pooledCount += measured;
      completions[simulated++] = completed;
    }

    /** The slowest shard's latency at quantile {@code q} over the shards added so far. */
    long slowestQuantileSoFar(double q, int warmup) {
      return Quantiles.at(sortedMeasuredSlowest(warmup), q);
    }

    /** A shard saturated, having completed {@code completed} queries. */
    ClusterPoint saturated(int completed) {
      completions[simulated++] = completed;
      return new ClusterPoint(this, true, 0, 0);
    }

    ClusterPoint build(long mergeNanos, int warmup) {
      return new ClusterPoint(this, false, mergeNanos, warmup);
    }

    private long[] sortedMeasuredSlowest(int warmup) {
      long[] out = Arrays.copyOfRange(slowest, warmup, slowest.length);
      Arrays.sort(out);
      return out;
    }
  }
}
