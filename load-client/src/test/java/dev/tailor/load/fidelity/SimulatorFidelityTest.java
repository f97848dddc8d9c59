package dev.tailor.load.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.load.report.ReplayedTrace;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.IndexLayout;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.ParametricProfile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorFidelityTest {

  private static DemandProfile profileOf(String trace, int queries) {
    DemandProfile p = ParametricProfile.generate(queries, 4, 1);
    DemandProfile.Environment e = p.environment();
    return DemandProfile.of(
        new DemandProfile.Environment(
            e.index(),
            e.indexLabel(),
            e.indexDocs(),
            trace,
            e.cores(),
            e.jvm(),
            e.os(),
            e.takenAt()),
        p.settings(),
        p.complete(),
        p.requests());
  }

  private static MeasuredReport replayOf(String trace, int queries) {
    return new MeasuredReport(
        Path.of("/reports/replay"), List.of(), new ReplayedTrace(trace, queries));
  }

  @Test
  void aProfileOfAnotherTraceIsRefusedNamingBoth() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SimulatorFidelity.requireSameQueries(
                    replayOf("/data/nq.txt", 20),
                    Path.of("other.json"),
                    profileOf("/data/msmarco.txt", 20)));
    assertTrue(e.getMessage().contains("/data/nq.txt"), e.getMessage());
    assertTrue(e.getMessage().contains("/data/msmarco.txt"), e.getMessage());
    assertTrue(e.getMessage().contains("other.json"), e.getMessage());
  }

  @Test
  void aProfileOfAnotherCutOfTheTraceIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SimulatorFidelity.requireSameQueries(
                    replayOf("/data/nq.txt", 20),
                    Path.of("p.json"),
                    profileOf("/data/nq.txt", 30)));
    assertTrue(e.getMessage().contains("20 queries"), e.getMessage());
    assertTrue(e.getMessage().contains("30 queries"), e.getMessage());
  }

  private static final DemandProfile PROFILE = ParametricProfile.generate(40, 4, 5);

  private final SweepPlan plan = SweepPlan.counted("poisson", 3, 200);

  /** {@code seq} simulated on {@link #PROFILE} at a point, as if measured. */
  private static PointResult seq(dev.tailor.sim.arrival.PointPlan point) {
    Simulator.Config config =
        new Simulator.Config(
            4,
            5_000_000,
            Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
            0,
            100_000,
            List.of(),
            Simulator.WorkModel.FLUID);
    return new Simulator(PROFILE, PolicyRegistry.of("seq"), config).run(point, "t");
  }

  /** The measured points compared on 4 cores, with {@code seeds} seeds a cell. */
  private SimulatorFidelity.Comparison compare(List<PointResult> measured, int seeds) {
    return compare(measured, seeds, null);
  }

  private SimulatorFidelity.Comparison compare(
      List<PointResult> measured, int seeds, IndexLayout layout) {
    return SimulatorFidelity.compare(
        new MeasuredReport(Path.of("/reports/replay"), measured, null),
        PROFILE,
        plan,
        4,
        5_000_000,
        0,
        null,
        false,
        seeds,
        layout);
  }

  @Test
  void theLuceneBaselinesPointsAreSimulatedByThePeersModelGivenTheIndexsSegments() {
    PointResult seq = seq(plan.point(100, PROFILE.requests().size()));
    List<PointResult> measured =
        List.of(seq, seq.withPolicy("lucene"), seq.withPolicy("lucene-executor:2"));
    SimulatorFidelity.Comparison c = compare(measured, 1, IndexLayout.of(300_000, 300_000));
    assertEquals(
        List.of("seq", "lucene", "lucene-executor:2"),
        c.rows().stream().map(r -> r.measured().policy()).toList());
    for (SimulatorFidelity.Row r : c.rows()) {
      assertEquals(r.measured().policy(), r.simulated().get(0).policy());
      assertEquals(r.measured().sent(), r.simulated().get(0).sent(), r.measured().policy());
    }
  }

  @Test
  void withoutTheIndexsSegmentsTheLuceneBaselinesPointsAreNotSimulated() {
    PointResult seq = seq(plan.point(100, PROFILE.requests().size()));
    List<PointResult> measured =
        List.of(seq, seq.withPolicy("lucene"), seq.withPolicy("lucene-executor:2"));
    SimulatorFidelity.Comparison c = compare(measured, 1);
    assertEquals(List.of("seq"), c.rows().stream().map(r -> r.measured().policy()).toList());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> compare(measured.subList(1, 3), 1));
    assertTrue(e.getMessage().contains("only the plain Lucene baselines"), e.getMessage());
  }

  @Test
  void aProfileOfTheReplayedQueriesIsAccepted() {
    SimulatorFidelity.requireSameQueries(
        replayOf("/data/./nq.txt", 20), Path.of("p.json"), profileOf("/data/nq.txt", 20));
  }

  @Test
  void everyCellIsSimulatedOnItsOwnSeedAndTheNextOnes() {
    PointResult seq = seq(plan.withSeed(7).point(100, PROFILE.requests().size()));
    List<PointResult> measured = List.of(seq, seq.withRepetition(2));
    SimulatorFidelity.Comparison c = compare(measured, 3);
    assertEquals(2, c.rows().size());
    assertEquals(1, c.cells().size());
    List<PointResult> seeds = c.cells().get(0).simulated().get(0);
    assertEquals(List.of(7L, 8L, 9L), seeds.stream().map(PointResult::seed).toList());
    assertEquals(List.of(1, 2, 3), seeds.stream().map(PointResult::repetition).toList());
    // The first is the replay's own arrivals: the same simulation as the row's.
    assertEquals(
        c.rows().get(0).simulated().get(0).latencyHistogram(), seeds.get(0).latencyHistogram());
  }
}
