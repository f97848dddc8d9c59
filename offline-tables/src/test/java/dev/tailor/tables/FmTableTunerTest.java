package dev.tailor.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.table.IntervalTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.model.ParametricProfile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FmTableTunerTest {

  private static final String DIGEST = "sha256:" + "0".repeat(64);
  private final DemandProfile profile = ParametricProfile.generate(400, 8, 7);

  private FmTableTuner.Plan plan(long seed) {
    FmTableBuilder.Options grid =
        new FmTableBuilder.Options(
            16, IntervalTable.Rule.throughput(1, 1), 4, null, 20_000_000L, 0, 0.99, 48, 40, 1);
    return new FmTableTuner.Plan(
        grid,
        List.of(
            IntervalTable.Rule.throughput(1, 1.0),
            IntervalTable.Rule.throughput(1, 1.4),
            IntervalTable.Rule.throughput(0.8, 1.2)),
        "fm-wc",
        List.of("seq", "fixed:2"),
        List.of(30.0, 50.0),
        Simulator.Config.of(16, 2_000),
        2_000,
        seed);
  }

  @Test
  void choosesTheBestTrialAndRecordsHowInTheTable() {
    List<FmTableTuner.Trial> heard = new ArrayList<>();
    FmTableTuner.Tuned t = new FmTableTuner(plan(3)).tune(profile, "p.json", DIGEST, heard::add);
    assertEquals(3, t.trials().size());
    assertEquals(t.trials(), heard, "every trial is reported as it finishes");
    for (FmTableTuner.Trial trial : t.trials()) {
      assertFalse(trial.betterThan(t.chosen()), trial.describe());
      assertEquals(2, trial.ratios().length);
    }
    assertEquals(t.chosen().rule(), t.table().inputs().rule(), "the table has the chosen inputs");
    assertEquals(400, t.table().inputs().requests(), "the final table is the whole profile's");
    String tuning = t.table().inputs().tuning();
    assertNotNull(tuning);
    assertTrue(tuning.contains("best of 3 candidates"), tuning);
    assertTrue(tuning.contains("seed 3") && tuning.contains("seed 4"), tuning);
    assertEquals(t.chosen().rule(), t.check().rule());
  }

  @Test
  void isDeterministicForASeed() {
    FmTableTuner.Tuned a = new FmTableTuner(plan(5)).tune(profile, "p.json", DIGEST, x -> {});
    FmTableTuner.Tuned b = new FmTableTuner(plan(5)).tune(profile, "p.json", DIGEST, x -> {});
    assertEquals(a.chosen().rule(), b.chosen().rule());
    for (int i = 0; i < a.trials().size(); i++) {
      assertEquals(a.trials().get(i).describe(), b.trials().get(i).describe());
    }
    assertEquals(a.check().describe(), b.check().describe());
    assertEquals(a.table().rows(), b.table().rows());
  }
}
