package dev.tailor.load.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.Estimate;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import dev.tailor.measure.PooledLatency;
import dev.tailor.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CellErrorsTest {

  private static final long MS = 1_000_000;

  /** A run of 100 requests: 98 of {@code p50Ms}, 2 of {@code p99Ms}. */
  static PointResult point(String policy, int repetition, double p50Ms, double p99Ms) {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    h.recordValueWithCount((long) (p50Ms * MS), 98);
    h.recordValueWithCount((long) (p99Ms * MS), 2);
    return new PointResultBuilder(policy, h)
        .labels(100, "poisson", 1, "x", "test")
        .repetition(repetition)
        .outcome(1_000 * MS, 100, 100, 0, false)
        .build();
  }

  /** Runs of {@code policy}, one per P99 given, each with a P50 of 1 ms. */
  static List<PointResult> runs(String policy, double... p99s) {
    List<PointResult> out = new ArrayList<>();
    for (int i = 0; i < p99s.length; i++) {
      out.add(point(policy, i + 1, 1, p99s[i]));
    }
    return out;
  }

  private static SimulatorFidelity.Comparison comparison(SimulatorFidelity.CellRuns... cells) {
    return new SimulatorFidelity.Comparison(
        2, List.of(Simulator.WorkModel.UNITS), List.of(), List.of(), List.of(cells), 3);
  }

  private static SimulatorFidelity.CellRuns cell(
      List<PointResult> measured, List<PointResult> simulated) {
    return new SimulatorFidelity.CellRuns(
        measured.get(0).policy(), 100, measured, List.of(simulated));
  }

  @Test
  void theMeasuredIntervalWidenedByTheGoalAtEachEndDecides() {
    List<PointResult> measured = runs("seq", 10, 12, 14, 16, 18);
    Estimate p99 = PooledLatency.ofPoints(measured).at(99).times(1e-6);
    assertTrue(p99.hasInterval() && p99.high() > p99.low(), "" + p99);
    double in = 1.19 * p99.high();
    double out = 1.21 * p99.high();
    double below = 0.79 * p99.low();
    List<CellErrors.Cell> cells =
        CellErrors.of(
            comparison(
                cell(measured, runs("seq", in, in, in)),
                cell(runs("fixed:2", 10, 12, 14, 16, 18), runs("fixed:2", out, out, out)),
                cell(runs("adaptive", 10, 12, 14, 16, 18), runs("adaptive", below, below))),
            Simulator.WorkModel.UNITS);
    assertEquals(3, cells.size());
    CellErrors.Cell seq = cells.get(0);
    assertEquals(5, seq.runs());
    assertEquals(3, seq.seeds());
    assertEquals(p99.value(), seq.measuredP99().value(), 1e-9);
    assertEquals(in, seq.simulatedP99().value(), 0.01);
    assertTrue(seq.withinP50(0.20), "the same P50");
    assertTrue(seq.within(0.20), "P99 below 1.2 x the interval's high end");
    assertFalse(cells.get(1).withinP99(0.20), "above 1.2 x the high end");
    assertFalse(cells.get(2).withinP99(0.20), "below 0.8 x the low end");
    String md = CellErrors.markdown(cells, Simulator.WorkModel.UNITS, 0.20);
    assertTrue(md.contains("1 of 3 cells within at both P50 and P99."), md);
    assertTrue(md.contains("from 0.8 x the measured interval's low end to 1.2 x its high end"), md);
  }

  @Test
  void aSingleRunHasNoIntervalAndIsJudgedByTheRelativeError() {
    Estimate one = new Estimate(10, Double.NaN, Double.NaN);
    assertTrue(CellErrors.within(one, new Estimate(11.9, 11, 12), 0.2));
    assertTrue(CellErrors.within(one, new Estimate(8.1, 8, 9), 0.2));
    assertFalse(CellErrors.within(one, new Estimate(12.1, 12, 13), 0.2));
    assertFalse(CellErrors.within(Estimate.NONE, new Estimate(10, 9, 11), 0.2));
  }

  @Test
  void aSaturatedCellIsLeftOut() {
    PointResult saturated =
        new PointResultBuilder("seq", new Histogram(3))
            .labels(100, "poisson", 1, "x", "test")
            .outcome(1_000 * MS, 100, 0, 0, true)
            .build();
    assertTrue(
        CellErrors.of(
                comparison(cell(List.of(saturated), runs("seq", 10))), Simulator.WorkModel.UNITS)
            .isEmpty());
  }
}
