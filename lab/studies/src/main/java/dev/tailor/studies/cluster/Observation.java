package dev.tailor.studies.cluster;

/**
 * TPC's cluster observation at one point (Jeon et al., ASPLOS'16, §4.5, Figure 8(b): the latency at
 * the aggregator's P99 appears at the P99.8 of an index server): the aggregator's P99 next to a
 * shard's high quantiles, and where among a shard's latencies it sits.
 *
 * <p>If N shards' latencies were independent and identically distributed with distribution F, the
 * slowest of a query's N would have distribution {@code F^N}, so its P99 would be a shard's
 * quantile {@code 0.99^(1/N)}, about {@code 1 - 0.01/N} (P99.8 for N = 5, P99.975 for N = 40: the
 * paper's §1 example). {@link #ratio} compares the simulated slowest shard's P99 with that shard
 * quantile; {@link #effectiveShards} turns where it actually sits back into the number of
 * independent shards that would put it there. Shards that see the same query are not independent: a
 * long query is long on all of them, and the slowest of N sits lower.
 *
 * @param shards N
 * @param shardP99Nanos a shard's P99, pooled over the shards
 * @param shardP998Nanos a shard's P99.8, pooled
 * @param shardP999Nanos a shard's P99.9, pooled
 * @param matchedQuantile {@code 0.99^(1/N)}: the shard quantile that independent shards' slowest
 *     P99 equals
 * @param shardAtMatchedNanos a shard's latency at that quantile, pooled
 * @param aggregatorP99Nanos the aggregator's P99, merge cost included
 * @param slowestShardP99Nanos the slowest shard's P99: the aggregator's without the merge cost
 * @param ratio the slowest shard's P99 over a shard's latency at the matched quantile (1 for
 *     independent shards, up to sampling)
 * @param sitsAtQuantile the share of shard latencies at or below the slowest shard's P99
 * @param effectiveShards {@code 0.01 / (1 - sitsAtQuantile)}: the independent shards whose slowest
 *     P99 would sit there (infinite if it is the slowest shard latency of all)
 */
public record Observation(
    int shards,
    long shardP99Nanos,
    long shardP998Nanos,
    long shardP999Nanos,
    double matchedQuantile,
    long shardAtMatchedNanos,
    long aggregatorP99Nanos,
    long slowestShardP99Nanos,
    double ratio,
    double sitsAtQuantile,
    double effectiveShards) {

  /** The aggregator's quantile the observation is about. */
  public static final double AGGREGATOR_QUANTILE = 0.99;

  /**
   * The shard quantile at which the slowest of {@code shards} independent, identically distributed
   * shards has its P99: {@code 0.99^(1/N)}.
   *
   * @throws IllegalArgumentException if {@code shards < 1}
   */
  public static double matchedQuantile(int shards) {
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be >= 1, got " + shards);
    }
    return Math.pow(AGGREGATOR_QUANTILE, 1.0 / shards);
  }

  /**
   * The observation at a simulated point.
   *
   * @throws IllegalArgumentException if the point saturated
   */
  public static Observation of(ClusterPoint point) {
    if (point.saturated()) {
      throw new IllegalArgumentException(
          "the point at " + point.offeredRps() + " queries/s saturated: nothing to observe");
    }
    int n = point.shards();
    double matched = matchedQuantile(n);
    long atMatched = point.shardQuantileNanos(matched);
    long slowest = point.slowestShardQuantileNanos(AGGREGATOR_QUANTILE);
    double sits = point.shardShareAtOrBelow(slowest);
    return new Observation(
        n,
        point.shardQuantileNanos(0.99),
        point.shardQuantileNanos(0.998),
        point.shardQuantileNanos(0.999),
        matched,
        atMatched,
        point.aggregatorQuantileNanos(AGGREGATOR_QUANTILE),
        slowest,
        atMatched == 0 ? Double.NaN : (double) slowest / atMatched,
        sits,
        sits >= 1 ? Double.POSITIVE_INFINITY : (1 - AGGREGATOR_QUANTILE) / (1 - sits));
  }
}
