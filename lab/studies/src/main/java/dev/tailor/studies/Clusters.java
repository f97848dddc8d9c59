package dev.tailor.studies;

import dev.tailor.core.Durations;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Simulator;
import dev.tailor.studies.cluster.ShardWork;
import dev.tailor.studies.cluster.SimulatedCluster;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The simulated partition-aggregate clusters a study compares: the same queries, shards of the same
 * cores and work model, the same merge cost and seed; what varies is the number of shards, the
 * policy every shard runs and how a query's work spreads over the shards.
 *
 * @param base the queries, each one query's whole work
 * @param cores each shard's threads
 * @param mergeNanos the aggregator's fixed network and merge cost per query
 * @param requests queries per point, the first tenth warm-up
 * @param seed the seed of arrivals, query order, workload and noise
 * @param machine the machine part of a calibration every shard is charged, or null for none
 */
public record Clusters(
    DemandProfile base,
    int cores,
    long mergeNanos,
    Simulator.WorkModel model,
    int requests,
    long seed,
    Calibration machine) {

  /** Clusters without a calibration. */
  public Clusters(
      DemandProfile base,
      int cores,
      long mergeNanos,
      Simulator.WorkModel model,
      int requests,
      long seed) {
    this(base, cores, mergeNanos, model, requests, seed, null);
  }

  /**
   * The line that heads a study of these clusters: their shard counts, cores, {@code source} (what
   * the queries are), work model, merge cost, queries a point and seed.
   */
  public String describe(int[] shards, String source) {
    return Cells.f(
        "partition-aggregate cluster: %s shards of %d cores; %s; %s work model; merge %s; %d"
            + " queries a point (10%% warm-up), Poisson, seed %d%s",
        Arrays.stream(shards).mapToObj(Integer::toString).collect(Collectors.joining(",")),
        cores,
        source,
        model.name().toLowerCase(Locale.ROOT),
        Durations.format(mergeNanos),
        requests,
        seed,
        machine == null ? "" : "; every shard charged the machine part of the " + machine);
  }

  /**
   * The cluster of {@code shards} shards running {@code policy}.
   *
   * @throws IllegalArgumentException if a setting cannot be simulated
   */
  public SimulatedCluster of(int shards, String policy, ShardWork work) {
    return new SimulatedCluster(
        base,
        new SimulatedCluster.Config(
            shards, cores, policy, work, mergeNanos, model, requests, seed, machine));
  }
}
