package dev.tailor.studies.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.model.LogNormalProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

class BudgetStudyTest {

  private static final long MS = 1_000_000L;
  private static final DemandProfile DEMAND =
      LogNormalProfile.generate(LogNormalProfile.Shape.parse("2ms,2ms"), 500, 8, 1);
  private static final Simulator.Config BASE =
      new Simulator.Config(1, 5 * MS, 80 * MS, 80, 10_000, List.of(), Simulator.WorkModel.UNITS);

  private static BudgetStudy study() {
    return new BudgetStudy(DEMAND, "seq", BASE, MS, 1, 800, 3, 0.05);
  }

  @Test
  void aCellHasTheStaticBudgetEachElasticOneAndTheLeastStatic() {
    BudgetStudy.Cell cell = study().run(6, 0.3, List.of("utilization-range", "delay-range"));
    assertEquals(6, cell.cores());
    assertEquals(0.3 * 6 * 1e9 / study().meanNanos(), cell.ratePerSecond(), 1e-6);
    List<String> names = cell.rows().stream().map(BudgetStudy.Row::budget).toList();
    assertEquals(
        List.of("static", "utilization-range:0.75,0.95", "delay-range:0.5,1", "static-least"),
        names);
    BudgetStudy.Row full = cell.row(BudgetStudy.STATIC);
    assertEquals(6, full.meanThreads());
    assertEquals(1, full.p99Ratio());
    for (BudgetStudy.Row r : cell.rows()) {
      assertTrue(r.meanThreads() >= 1 && r.meanThreads() <= 6, r.toString());
      assertTrue(r.p99Nanos() > 0, r.toString());
    }
    BudgetStudy.Row least = cell.row(BudgetStudy.STATIC_LEAST);
    assertTrue(
        least.meanThreads() == 6 || least.p99Ratio() <= 1.05,
        "the least static budget is within the tolerance: " + least);
    assertTrue(
        cell.returned("utilization-range:0.75,0.95") > 0,
        "an elastic budget returns cores at light load");
  }

  @Test
  void theSameInputsGiveTheSameCell() {
    assertEquals(
        study().run(4, 0.5, List.of("utilization-range")),
        study().run(4, 0.5, List.of("utilization-range")));
  }

  @Test
  void badInputsAreRefused() {
    BudgetStudy s = study();
    assertThrows(IllegalArgumentException.class, () -> s.run(0, 0.5, List.of()));
    assertThrows(IllegalArgumentException.class, () -> s.run(4, 1.0, List.of()));
    assertThrows(IllegalArgumentException.class, () -> s.run(4, 0.5, List.of("nope")));
    assertThrows(
        IllegalArgumentException.class,
        () -> new BudgetStudy(DEMAND, "no-such-policy", BASE, MS, 1, 800, 3, 0.05));
    assertThrows(
        IllegalArgumentException.class,
        () -> new BudgetStudy(DEMAND, "seq", BASE, 0, 1, 800, 3, 0.05));
  }
}
