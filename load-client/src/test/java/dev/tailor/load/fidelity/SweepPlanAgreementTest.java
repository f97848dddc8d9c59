package dev.tailor.load.fidelity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.load.Sweep;
import dev.tailor.load.Target;
import dev.tailor.load.report.Report;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.ParametricProfile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay, a simulation and the fidelity comparison of one sweep plan send the same requests and
 * count the same ones.
 */
class SweepPlanAgreementTest {

  private static final long MS = 1_000_000L;
  private static final int QUERIES = 40;

  /** Answers at once and remembers which queries were sent, in order. */
  private static final class RecordingTarget implements Target {
    final List<Integer> sent = new ArrayList<>();

    @Override
    public synchronized CompletableFuture<?> send(int query) {
      sent.add(query);
      return CompletableFuture.completedFuture(query);
    }

    @Override
    public String policy() {
      return "seq";
    }

    @Override
    public void close() {}
  }

  @Test
  void replaySimulationAndFidelitySendAndCountTheSameRequests(@TempDir Path dir) throws Exception {
    SweepPlan plan = SweepPlan.timed("poisson", 11, 400 * MS, 150 * MS);
    PointPlan point = plan.point(150, QUERIES);
    assertTrue(point.warmupRequests() > 0 && point.measuredRequests() > 0);

    // Replay: an unrecorded warm-up run sends the point's warm-up queries, then the point sends
    // every planned query in the planned order; the warm-up is not counted.
    RecordingTarget target = new RecordingTarget();
    Sweep.Plan sweep =
        new Sweep.Plan(
            List.of("seq"), List.of(150.0), plan, 10_000, TimeUnit.SECONDS.toNanos(5), List.of());
    List<PointResult> replayed =
        Sweep.run(sweep, policy -> target, QUERIES, "measured on this machine", "test", p -> {});
    int[] warmUpThenPoint =
        IntStream.concat(
                Arrays.stream(point.order(), 0, point.warmupRequests()),
                Arrays.stream(point.order()))
            .toArray();
    assertArrayEquals(warmUpThenPoint, target.sent.stream().mapToInt(Integer::intValue).toArray());
    PointResult real = replayed.get(0);
    assertEquals(point.measuredRequests(), real.sent());
    assertEquals(point.arrivals(), real.arrivals());

    // Simulation of the same point counts the same requests.
    DemandProfile profile = ParametricProfile.generate(QUERIES, 4, 5);
    Simulator.Config config =
        new Simulator.Config(
            4,
            5 * MS,
            Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
            0,
            100_000,
            List.of(),
            Simulator.WorkModel.FLUID);
    PointResult simulated =
        new Simulator(profile, PolicyRegistry.of("seq"), config).run(point, "t");
    assertEquals(point.measuredRequests(), simulated.sent());

    // Fidelity re-creates the point from the report and the plan, and counts the same requests.
    ReportedWorkload workload = ReportedWorkload.of("profile p.json", profile);
    Report.write(dir, replayed, Double.NaN, workload);
    SimulatorFidelity.Comparison comparison =
        SimulatorFidelity.compare(
            MeasuredReport.read(dir),
            profile,
            plan.withSeed(0),
            4,
            5 * MS,
            0,
            null,
            false,
            1,
            null);
    assertTrue(comparison.mismatches().isEmpty(), comparison.mismatches().toString());
    // The fidelity table states the simulated workload's spread, as the report does.
    String table = FidelityTable.markdown(comparison, workload, MeasuredReport.read(dir));
    assertTrue(table.contains("\n" + workload.summaryLine() + "\n"), table);
    assertEquals(1, comparison.rows().size());
    assertEquals(real.sent(), comparison.rows().get(0).simulated().get(0).sent());

    // A plan with another warm-up than the replay's is noticed, once per simulation.
    SimulatorFidelity.Comparison other =
        SimulatorFidelity.compare(
            MeasuredReport.read(dir),
            profile,
            SweepPlan.timed("poisson", 0, 400 * MS, 50 * MS),
            4,
            5 * MS,
            0,
            null,
            false,
            1,
            null);
    assertFalse(other.mismatches().isEmpty());
  }
}
