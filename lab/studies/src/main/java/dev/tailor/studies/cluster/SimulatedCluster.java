package dev.tailor.studies.cluster;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import java.util.Arrays;
import java.util.List;

/**
 * A partition-aggregate cluster (Jeon et al., "TPC: Target-Driven Parallelism Combining Prediction
 * and Correction to Reduce Tail Latency in Interactive Services", ASPLOS'16, §2.1, Figure 1): an
 * aggregator sends every query to all N shards of a document-sharded index and answers when the
 * slowest has, after a fixed network and merge cost. Each shard is a full {@link Simulator} of C
 * cores running its own instance of one policy through the runtime's dispatch core; every shard
 * sees the same Poisson arrivals, and its share of each query's work is {@link ShardWork}'s.
 *
 * <p>The shards are simulated one after the other (they share nothing but the arrivals and the
 * queries), each request's completion heard through {@link Simulator#completionListener}, and the
 * aggregator's latency of a query is the largest of its shards' plus the merge cost. Deterministic
 * for a seed: the arrivals scale with the rate, the queries and the noise do not depend on it.
 */
public final class SimulatedCluster {

  /** The arrival process at the aggregator. */
  static final String ARRIVALS = "poisson";

  /**
   * What to simulate.
   *
   * @param shards N, the shards every query fans out to
   * @param cores C, the simulated threads of each shard
   * @param policy the policy specification each shard runs ({@link PolicyRegistry}), e.g. {@code
   *     fixed:4}
   * @param work how a query's work divides among the shards
   * @param mergeNanos the aggregator's fixed network and merge cost per query
   * @param model how a shard's threads progress through a request's work
   * @param requests queries per point, the first tenth warm-up ({@link SweepPlan#counted})
   * @param seed the seed of arrivals, query order and shard noise
   * @param machine the machine part of a calibration ({@link Calibration#machineOnly}) every shard
   *     is charged, or null for none: a shard's work is a share of a query's, so a per-query part
   *     does not apply to it, and its GC pauses come per shard request at that share of the
   *     measured rate ({@link Calibration#forShare})
   */
  public record Config(
      int shards,
      int cores,
      String policy,
      ShardWork work,
      long mergeNanos,
      Simulator.WorkModel model,
      int requests,
      long seed,
      Calibration machine) {

    /** A configuration without a calibration. */
    public Config(
        int shards,
        int cores,
        String policy,
        ShardWork work,
        long mergeNanos,
        Simulator.WorkModel model,
        int requests,
        long seed) {
      this(shards, cores, policy, work, mergeNanos, model, requests, seed, null);
    }

    /**
     * Checks the configuration.
     *
     * @throws IllegalArgumentException naming the first bad value
     */
    public Config {
      if (shards < 1) {
        throw new IllegalArgumentException("shards must be >= 1, got " + shards);
      }
      if (cores < 1) {
        throw new IllegalArgumentException("cores must be >= 1, got " + cores);
      }
      if (mergeNanos < 0) {
        throw new IllegalArgumentException(
            "the merge cost must be >= 0, got " + mergeNanos + " ns");
      }
      if (requests < SweepPlan.COUNTED_WARMUP_DIVISOR) {
        throw new IllegalArgumentException(
            "requests must be >= "
                + SweepPlan.COUNTED_WARMUP_DIVISOR
                + " (a tenth is warm-up), got "
                + requests);
      }
      if (policy == null || work == null || model == null) {
        throw new IllegalArgumentException("need a policy, a shard work and a work model");
      }
      if (machine != null && machine.hasPerQueryPart()) {
        throw new IllegalArgumentException(
            "a cluster takes a calibration's machine part alone (Calibration.machineOnly)");
      }
    }

    /** The same configuration with {@code n} shards. */
    public Config withShards(int n) {
      return new Config(n, cores, policy, work, mergeNanos, model, requests, seed, machine);
    }
  }

  private final DemandProfile base;
  private final Config config;
  private final double meanWorkNanos;

  /**
   * A cluster whose queries are {@code base}'s requests.
   *
   * @throws IllegalArgumentException if the profile is empty, the policy specification is bad
   *     (naming it and the expected form), or the unit model is asked of a profile without unit
   *     times
   */
  public SimulatedCluster(DemandProfile base, Config config) {
    if (base.requests().isEmpty()) {
      throw new IllegalArgumentException("the profile has no request");
    }
    this.base = base;
    this.config = config;
    this.meanWorkNanos = base.meanSequentialNanos();
    if (!(meanWorkNanos > 0)) {
      throw new IllegalArgumentException("the profile's requests have no work");
    }
    try (Policy checked = PolicyRegistry.of(config.policy())) {
      checked.spec(); // a bad specification fails here, naming itself
    }
    if (config.model() == Simulator.WorkModel.UNITS) {
      for (DemandProfile.Request r : base.requests()) {
        if (!r.hasUnitTimes()) {
          throw new IllegalArgumentException(
              "request " + r.id() + " of the profile has no unit times; the unit model needs them");
        }
      }
    }
  }

  /** The configuration. */
  public Config config() {
    return config;
  }

  /**
   * The arrival rate at which each shard's cores are busy all the time with the queries' sequential
   * work: {@code N x C / mean work}. Utilization is the offered rate over this.
   */
  public double capacityRps() {
    return config.shards() * config.cores() * 1e9 / meanWorkNanos;
  }

  /**
   * Simulates the point at a utilization: {@code utilization x} {@link #capacityRps()} queries per
   * second, Poisson, seeded with the configuration's seed.
   *
   * @throws IllegalArgumentException unless the utilization is positive and finite
   */
  public ClusterPoint atUtilization(double utilization) {
    return atUtilization(utilization, Long.MAX_VALUE);
  }

  /**
   * As {@link #atUtilization(double)}, stopping after the shard that takes the aggregator's P99
   * over the simulated shards past {@code stopAboveNanos}: the shards not yet simulated could only
   * raise it.
   */
  ClusterPoint atUtilization(double utilization, long stopAboveNanos) {
    if (!(utilization > 0) || Double.isInfinite(utilization)) {
      throw new IllegalArgumentException("utilization must be > 0, got " + utilization);
    }
    PointPlan plan =
        SweepPlan.counted(ARRIVALS, config.seed(), config.requests())
            .point(utilization * capacityRps(), base.requests().size());
    return run(plan, stopAboveNanos);
  }

  /**
   * Simulates one point: the plan's arrivals reach every shard at once, arrival {@code j} asking
   * the plan's query {@code order[j]}.
   *
   * @throws IllegalStateException if a shard reports a query complete twice, or (unless it
   *     saturated) never
   */
  public ClusterPoint run(PointPlan plan) {
    return run(plan, Long.MAX_VALUE);
  }

  private ClusterPoint run(PointPlan plan, long stopAboveNanos) {
    int n = plan.requests();
    int shards = config.shards();
    int warmup = plan.warmupRequests();
    int[] identity = new int[n];
    Arrays.setAll(identity, j -> j);
    PointPlan shardPlan =
        new PointPlan(
            plan.offeredRps(), plan.arrivals(), plan.seed(), plan.offsetsNanos(), identity, warmup);
    Simulator.Config simConfig =
        new Simulator.Config(
            config.cores(),
            Scheduler.DEFAULT_QUANTUM_NANOS,
            Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
            warmup,
            maxBacklog(config.requests()),
            List.of(),
            config.model(),
            config.machine() == null ? null : config.machine().forShare(1.0 / shards));
    boolean units = config.model() == Simulator.WorkModel.UNITS;
    ClusterPoint.Builder point =
        new ClusterPoint.Builder(shards, plan.offeredRps(), plan.offeredRps() / capacityRps(), n);
    for (int s = 0; s < shards; s++) {
      DemandProfile profile =
          config.work().shardProfile(base, plan.order(), s, shards, config.seed(), units);
      long[] latency = new long[n];
      Arrays.fill(latency, -1);
      int shard = s;
      int[] completed = new int[1];
      PointResult result;
      try (Policy policy = PolicyRegistry.of(config.policy())) {
        Simulator sim = new Simulator(profile, policy, simConfig);
        sim.completionListener(
            (id, arrival, end) -> {
              int j = (int) id;
              if (latency[j] >= 0) {
                throw new IllegalStateException(
                    "query " + j + " completed twice on shard " + shard);
              }
              latency[j] = end - arrival;
              completed[0]++;
            });
        result = sim.run(shardPlan, "shard " + (s + 1) + " of " + shards);
      }
      if (result.saturated()) {
        return point.saturated(completed[0]);
      }
      for (int j = 0; j < n; j++) {
        if (latency[j] < 0) {
          throw new IllegalStateException(
              "query " + j + " never completed on shard " + shard + ", which did not saturate");
        }
      }
      point.addShard(latency, warmup, completed[0]);
      if (s < shards - 1
          && stopAboveNanos != Long.MAX_VALUE
          && point.slowestQuantileSoFar(Observation.AGGREGATOR_QUANTILE, warmup)
                  + config.mergeNanos()
              > stopAboveNanos) {
        break;
      }
    }
    return point.build(config.mergeNanos(), warmup);
  }

  /**
   * The queue on a shard beyond which its point stops as saturated: a tenth of the point's queries
   * (at least 100) waiting at once, the queue growing faster than the shard serves it.
   */
  static int maxBacklog(int requests) {
    return Math.max(100, requests / SweepPlan.COUNTED_WARMUP_DIVISOR);
  }
}
