package dev.tailor.studies.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.Provenance;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.MachineModel;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.LogNormalProfile;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatedClusterTest {

  private static final long SEED = 7;

  /** Tail-control's log-normal workload: mean 10 ms, sd 13 ms, 1% serial. */
  private static DemandProfile lognormal(int requests) {
    return LogNormalProfile.generate(LogNormalProfile.Shape.parse("10ms,13ms"), requests, 16, SEED);
  }

  private static SimulatedCluster.Config config(
      int shards, String policy, ShardWork work, Simulator.WorkModel model, int requests) {
    return new SimulatedCluster.Config(shards, 16, policy, work, 0, model, requests, SEED);
  }

  /** Sequential requests of the log-normal workload on N shards of 16 cores, fluid work. */
  private static SimulatedCluster seqCluster(int requests, int shards, ShardWork work) {
    return new SimulatedCluster(
        lognormal(requests), config(shards, "seq", work, Simulator.WorkModel.FLUID, requests));
  }

  @Test
  void independentShardsSlowestP99IsTheShardQuantileZeroPointNineNineToTheOneOverN() {
    // P(max <= x) = F(x)^N for independent identical shards: the slowest shard's P99 is a shard's
    // 0.99^(1/N) quantile. At 10% utilization almost nothing queues, so the shards' latencies are
    // their independent service times and the relation holds up to sampling.
    int requests = 20_000;
    for (int shards : new int[] {5, 10}) {
      SimulatedCluster cluster = seqCluster(requests, shards, ShardWork.independent(0.05));
      Observation o = Observation.of(cluster.atUtilization(0.1));
      assertEquals(Math.pow(0.99, 1.0 / shards), o.matchedQuantile(), 1e-12);
      assertEquals(1.0, o.ratio(), 0.06, "N = " + shards + ": " + o);
      assertEquals(shards, o.effectiveShards(), 0.3 * shards, "N = " + shards + ": " + o);
      // And it is well above a shard's own P99.
      assertTrue(o.slowestShardP99Nanos() > 1.5 * o.shardP99Nanos(), o.toString());
    }
  }

  @Test
  void correlatedShardsSlowestP99SitsBelowTheIndependentQuantile() {
    // A long query is long on every shard, so the slowest of N is a milder maximum: its P99 sits
    // at a lower shard quantile than independent shards' would, as for fewer independent shards.
    int requests = 20_000;
    SimulatedCluster cluster = seqCluster(requests, 10, ShardWork.correlated(0.3));
    Observation o = Observation.of(cluster.atUtilization(0.1));
    assertTrue(o.ratio() < 0.9, o.toString());
    assertTrue(o.effectiveShards() > 1 && o.effectiveShards() < 5, o.toString());
    assertTrue(o.slowestShardP99Nanos() >= o.shardP99Nanos(), o.toString());
  }

  @Test
  void aOneShardClusterIsTheSingleServerSimulatorRequestForRequest() {
    int requests = 3_000;
    DemandProfile profile = lognormal(requests);
    PointPlan plan = SweepPlan.counted("poisson", SEED, requests).point(1_000, requests);
    for (Simulator.WorkModel model : Simulator.WorkModel.values()) {
      for (String policy : List.of("seq", "fixed:4", "steal-first", "adaptive")) {
        long[] single = new long[requests];
        PointResult alone;
        try (Policy p = PolicyRegistry.of(policy)) {
          Simulator sim =
              new Simulator(
                  profile,
                  p,
                  new Simulator.Config(
                      16,
                      dev.tailor.core.Scheduler.DEFAULT_QUANTUM_NANOS,
                      dev.tailor.core.Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
                      0,
                      SimulatedCluster.maxBacklog(requests),
                      List.of(),
                      model));
          sim.completionListener((id, arrival, end) -> single[(int) id] = end - arrival);
          alone = sim.run(plan, "alone");
        }
        assertFalse(alone.saturated());
        for (ShardWork work : List.of(ShardWork.correlated(0.3), ShardWork.independent(0.3))) {
          ClusterPoint point =
              new SimulatedCluster(profile, config(1, policy, work, model, requests)).run(plan);
          String what = policy + ", " + model + ", " + work;
          assertArrayEquals(single, point.slowestByArrival(), what);
          assertEquals(
              alone.latencyAt("p99"),
              (double) point.aggregatorQuantileNanos(0.99),
              0.01 * alone.latencyAt("p99"),
              what);
          assertEquals(0, point.aggregatorQuantileNanos(0.5) - point.shardQuantileNanos(0.5), what);
        }
      }
    }
  }

  @Test
  void everyQueryCompletesExactlyOnceOnEveryShard() {
    int requests = 1_000;
    DemandProfile profile = lognormal(requests);
    for (String policy : List.of("seq", "fixed:4", "steal-first", "admit-first", "adaptive")) {
      for (ShardWork work : List.of(ShardWork.correlated(0.05), ShardWork.independent(0.5))) {
        SimulatedCluster cluster =
            new SimulatedCluster(
                profile, config(4, policy, work, Simulator.WorkModel.UNITS, requests));
        ClusterPoint point = cluster.atUtilization(0.6);
        String what = policy + ", " + work;
        assertFalse(point.saturated(), what);
        // A second completion of a query on a shard throws; here every shard heard each once.
        assertArrayEquals(new int[] {requests, requests, requests, requests}, point.completions());
        assertEquals(requests - requests / 10, point.measuredQueries(), what);
        assertTrue(Arrays.stream(point.slowestByArrival()).allMatch(l -> l > 0), what);
      }
    }
  }

  @Test
  void theAggregatorAddsTheMergeCostToTheSlowestShard() {
    int requests = 1_000;
    DemandProfile profile = lognormal(requests);
    SimulatedCluster.Config plain =
        config(3, "seq", ShardWork.correlated(0.05), Simulator.WorkModel.FLUID, requests);
    SimulatedCluster.Config merged =
        new SimulatedCluster.Config(
            3, 16, "seq", plain.work(), 2_000_000, plain.model(), requests, SEED);
    ClusterPoint a = new SimulatedCluster(profile, plain).atUtilization(0.5);
    ClusterPoint b = new SimulatedCluster(profile, merged).atUtilization(0.5);
    assertArrayEquals(a.slowestByArrival(), b.slowestByArrival());
    assertEquals(a.aggregatorQuantileNanos(0.99) + 2_000_000, b.aggregatorQuantileNanos(0.99));
    assertEquals(
        Observation.of(a).slowestShardP99Nanos(), Observation.of(b).slowestShardP99Nanos());
  }

  /**
   * Stalls of 30 ms, 5 a second, on every shard: about a fifth of the queries meet one on some
   * shard, so the aggregator's P99 rises by most of a stall; a calibration's per-query part is
   * refused, since a shard's work is a share of a query's.
   */
  @Test
  void theMachinePartOfACalibrationChargesEveryShard() {
    int requests = 2_000;
    DemandProfile profile = lognormal(requests);
    long[] stall = new long[Calibration.PERCENTILES];
    Arrays.fill(stall, 30_000_000);
    double[] coRun = new double[16];
    Arrays.fill(coRun, 1.0);
    MachineModel model =
        new MachineModel(
            new MachineModel.Stalls(1_000_000_000_000L, 5_000, 0, stall),
            new MachineModel.GcPauses(1, 0, new long[Calibration.PERCENTILES]),
            coRun,
            new long[16]);
    Calibration measured =
        Calibration.measured(
            new Provenance.Machine("vm", 16, "CPU", "amd64", "25.0.3"),
            profile,
            "test",
            1.0,
            new long[Calibration.PERCENTILES],
            new long[Calibration.PERCENTILES],
            new long[Calibration.PERCENTILES],
            model);
    SimulatedCluster.Config plain =
        config(3, "seq", ShardWork.correlated(0.05), Simulator.WorkModel.FLUID, requests);
    SimulatedCluster.Config charged =
        new SimulatedCluster.Config(
            3, 16, "seq", plain.work(), 0, plain.model(), requests, SEED, measured.machineOnly());
    long before =
        new SimulatedCluster(profile, plain).atUtilization(0.3).aggregatorQuantileNanos(0.99);
    long after =
        new SimulatedCluster(profile, charged).atUtilization(0.3).aggregatorQuantileNanos(0.99);
    assertTrue(after >= before + 15_000_000, before + " ns, then " + after + " ns");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new SimulatedCluster.Config(
                    3, 16, "seq", plain.work(), 0, plain.model(), requests, SEED, measured));
    assertTrue(e.getMessage().contains("machine part"), e.getMessage());
  }

  @Test
  void theSameSeedGivesTheSamePointAndTheLoadOnlyCompressesTheArrivals() {
    int requests = 2_000;
    DemandProfile profile = lognormal(requests);
    SimulatedCluster.Config c =
        config(5, "fixed:2", ShardWork.correlated(0.05), Simulator.WorkModel.UNITS, requests);
    long[] first = new SimulatedCluster(profile, c).atUtilization(0.4).slowestByArrival();
    assertArrayEquals(
        first, new SimulatedCluster(profile, c).atUtilization(0.4).slowestByArrival());
    // More load, same work: the P99 of a FIFO of single-threaded requests does not fall.
    SimulatedCluster seq = seqCluster(requests, 5, ShardWork.correlated(0.05));
    long previous = 0;
    for (double u : new double[] {0.2, 0.4, 0.6, 0.8}) {
      long p99 = seq.atUtilization(u).aggregatorQuantileNanos(0.99);
      assertTrue(p99 >= previous, "utilization " + u + ": " + p99 + " < " + previous);
      previous = p99;
    }
  }

  @Test
  void aSaturatedPointHasNoLatenciesAndSaysSo() {
    int requests = 2_000;
    SimulatedCluster cluster = seqCluster(requests, 2, ShardWork.correlated(0.05));
    ClusterPoint point = cluster.atUtilization(3);
    assertTrue(point.saturated());
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> point.aggregatorQuantileNanos(0.99));
    assertTrue(e.getMessage().contains("saturated"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Observation.of(point));
  }

  @Test
  void badConfigurationsAreRefusedNamingTheValue() {
    DemandProfile profile = lognormal(100);
    ShardWork w = ShardWork.correlated(0.05);
    Simulator.WorkModel fluid = Simulator.WorkModel.FLUID;
    assertMessage(
        "shards must be >= 1, got 0",
        () -> new SimulatedCluster.Config(0, 16, "seq", w, 0, fluid, 100, 1));
    assertMessage(
        "cores must be >= 1, got -2",
        () -> new SimulatedCluster.Config(1, -2, "seq", w, 0, fluid, 100, 1));
    assertMessage(
        "merge cost must be >= 0, got -5 ns",
        () -> new SimulatedCluster.Config(1, 1, "seq", w, -5, fluid, 100, 1));
    assertMessage(
        "requests must be >= 10",
        () -> new SimulatedCluster.Config(1, 1, "seq", w, 0, fluid, 3, 1));
    assertMessage(
        "unknown policy 'nope'",
        () ->
            new SimulatedCluster(
                profile, new SimulatedCluster.Config(1, 1, "nope", w, 0, fluid, 100, 1)));
    assertMessage(
        "bad policy 'fixed:0'",
        () ->
            new SimulatedCluster(
                profile, new SimulatedCluster.Config(1, 1, "fixed:0", w, 0, fluid, 100, 1)));
    assertMessage(
        "shard noise must be a standard deviation >= 0", () -> ShardWork.correlated(-0.1));
    assertMessage("got NaN", () -> ShardWork.independent(Double.NaN));
    assertMessage(
        "unknown shard work 'cross'; expected correlated or independent",
        () -> ShardWork.of("cross", 0.05));
    SimulatedCluster cluster =
        new SimulatedCluster(
            profile, new SimulatedCluster.Config(1, 1, "seq", w, 0, fluid, 100, 1));
    assertMessage("utilization must be > 0, got 0.0", () -> cluster.atUtilization(0));
  }

  static void assertMessage(String expected, org.junit.jupiter.api.function.Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
