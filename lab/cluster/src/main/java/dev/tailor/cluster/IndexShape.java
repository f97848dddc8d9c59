package dev.tailor.cluster;

/**
 * How the searched index is laid out and loaded: its shards and replicas, the documents of each
 * bulk request (each followed by a refresh, so that every shard gets a segment per request as far
 * as merges leave them), and the merge policy's segments per tier.
 *
 * @param shards primary shards, at least 1
 * @param replicas replicas of each, 0 or more
 * @param refreshEvery documents per bulk request, each followed by a refresh, at least 1
 * @param segmentsPerTier the tiered merge policy's {@code segments_per_tier}, at least 2, or null
 *     for OpenSearch's default (10, which leaves a small corpus with 2 or 3 segments per shard)
 */
public record IndexShape(int shards, int replicas, int refreshEvery, Integer segmentsPerTier) {

  /** The default documents per bulk request. */
  public static final int DEFAULT_REFRESH_EVERY = 1_000;

  /**
   * Checks the shape.
   *
   * @throws IllegalArgumentException naming the option and the value that is out of range
   */
  public IndexShape {
    if (shards < 1) {
      throw new IllegalArgumentException("--shards: " + shards + " (expected at least 1)");
    }
    if (replicas < 0) {
      throw new IllegalArgumentException("--replicas: " + replicas + " (expected 0 or more)");
    }
    if (refreshEvery < 1) {
      throw new IllegalArgumentException(
          "--refresh-every: " + refreshEvery + " (expected at least 1 document)");
    }
    if (segmentsPerTier != null && segmentsPerTier < 2) {
      throw new IllegalArgumentException(
          "--segments-per-tier: " + segmentsPerTier + " (expected at least 2)");
    }
  }
}
