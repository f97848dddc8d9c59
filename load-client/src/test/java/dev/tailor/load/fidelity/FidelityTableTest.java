package dev.tailor.load.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.ParametricProfile;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The fidelity table's miss ratio at a latency target, simulated beside measured. */
class FidelityTableTest {

  private static final long MS = 1_000_000L;
  private static final int QUERIES = 40;

  @Test
  void aTargetThePointsRecordedGetsMeasuredAndSimulatedMissesAndTheirDifference() {
    SweepPlan plan = SweepPlan.timed("poisson", 0, 400 * MS, 150 * MS);
    PointPlan point = plan.withSeed(11).point(150, QUERIES);
    // 25 of 100 requests slower than 1 ms.
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    h.recordValueWithCount(MS / 2, 75);
    h.recordValueWithCount(5 * MS, 25);
    PointResult measured =
        new PointResultBuilder("seq", h)
            .labels(150, point.arrivals(), 11, "measured on this machine (4 cores)", "t")
            .outcome(250 * MS, 100, 100, 0, false)
            .missTargets(List.of(MS))
            .build();
    MeasuredReport report = new MeasuredReport(Path.of("/reports/replay"), List.of(measured), null);
    DemandProfile profile = ParametricProfile.generate(QUERIES, 4, 5);
    ReportedWorkload workload = ReportedWorkload.of("profile p.json", profile);

    SimulatorFidelity.Comparison comparison =
        SimulatorFidelity.compare(report, profile, plan, 4, 5 * MS, MS, null, false, 1, null);
    PointResult simulated = comparison.rows().get(0).simulated().get(0);
    assertTrue(simulated.missRatio().containsKey("1ms"), "the simulation records the target");
    assertTrue(FidelityTable.recordsTarget(comparison, MS));
    String md = FidelityTable.markdown(comparison, workload, report, MS);
    assertTrue(
        md.contains("| misses at 1ms measured (%) | misses at 1ms fluid (%) | difference |"), md);
    String row = md.lines().filter(l -> l.startsWith("| seq | 150 |")).findFirst().orElseThrow();
    // Measured, then per work model simulated and the difference.
    StringBuilder expected = new StringBuilder("| 25.00 |");
    for (PointResult sim : comparison.rows().get(0).simulated()) {
      double ratio = sim.missRatio().get("1ms");
      expected.append(
          String.format(Locale.ROOT, " %.2f | %+.2f pp |", 100 * ratio, 100 * (ratio - 0.25)));
    }
    assertTrue(row.endsWith(expected.toString()), row + " should end with " + expected);
    assertTrue(md.contains("in percentage points"), md);

    // A target the points did not record, or none, leaves the table as it was.
    assertFalse(FidelityTable.recordsTarget(comparison, 2 * MS));
    String without = FidelityTable.markdown(comparison, workload, report);
    assertEquals(without, FidelityTable.markdown(comparison, workload, report, 2 * MS));
    assertFalse(without.contains("misses"), without);
  }
}
