package dev.tailor.load.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import dev.tailor.sim.Simulator;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CellErrorsTest {

  private static final long MS = 1_000_000;

  private static PointResult point(String policy, int repetition, double p50Ms, double p99Ms) {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    h.recordValueWithCount((long) (p50Ms * MS), 98);
    h.recordValueWithCount((long) (p99Ms * MS), 2);
    return new PointResultBuilder(policy, h)
        .labels(100, "poisson", 1, "x", "test")
        .repetition(repetition)
        .outcome(1_000 * MS, 100, 100, 0, false)
        .build();
  }

  @Test
  void cellsAreJudgedOnTheirMediansOverTheRepetitions() {
    SimulatorFidelity.Comparison c =
        new SimulatorFidelity.Comparison(
            2,
            List.of(Simulator.WorkModel.UNITS),
            List.of(
                new SimulatorFidelity.Row(point("seq", 1, 1, 10), List.of(point("seq", 1, 1, 9))),
                new SimulatorFidelity.Row(point("seq", 2, 2, 30), List.of(point("seq", 2, 1, 9))),
                new SimulatorFidelity.Row(point("seq", 3, 1, 11), List.of(point("seq", 3, 1, 9))),
                new SimulatorFidelity.Row(
                    point("fixed:2", 1, 1, 10), List.of(point("fixed:2", 1, 0.5, 10)))),
            List.of());
    List<CellErrors.Cell> cells = CellErrors.of(c, Simulator.WorkModel.UNITS);
    assertEquals(2, cells.size());
    CellErrors.Cell seq = cells.get(0);
    assertEquals(3, seq.runs());
    // Measured medians 1 ms and 11 ms, simulated 1 ms and 9 ms.
    assertEquals(0, seq.errorP50(), 0.01);
    assertEquals(-2.0 / 11, seq.errorP99(), 0.01);
    assertTrue(seq.within(0.20));
    assertFalse(cells.get(1).within(0.20)); // P50 half the measured
    String md = CellErrors.markdown(cells, Simulator.WorkModel.UNITS, 0.20);
    assertTrue(md.contains("1 of 2 cells within 20%"), md);
  }
}
