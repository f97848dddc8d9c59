package dev.tailor.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.ParametricProfile;
import org.junit.jupiter.api.Test;

class HindsightOracleTest {

  private final DemandProfile profile = ParametricProfile.generate(1_000, 8, 5);
  private final PointPlan point = SweepPlan.counted("poisson", 3, 4_000).point(50, 1_000);

  @Test
  void budgetsRunFromTheLongestRequestDownToZero() {
    long[] budgets = HindsightOracle.budgets(profile);
    long longest =
        profile.requests().stream()
            .mapToLong(DemandProfile.Request::sequentialNanos)
            .max()
            .orElse(0);
    assertEquals(longest, budgets[0], "everything sequential first");
    assertEquals(0, budgets[budgets.length - 1], "every request at its fastest degree last");
    for (int i = 1; i < budgets.length; i++) {
      assertTrue(budgets[i] < budgets[i - 1], "descending and distinct");
    }
  }

  @Test
  void keepsTheLowestTailOfTheBudgetsItTried() {
    HindsightOracle.Tuned tuned =
        HindsightOracle.tune(profile, Simulator.Config.of(16, 4_000), point, "test", 4);
    assertEquals(HindsightOracle.SPEC, tuned.result().policy());
    assertEquals(HindsightOracle.budgets(profile).length, tuned.trials().size());
    PointResult chosen = null;
    for (HindsightOracle.Trial t : tuned.trials()) {
      assertFalse(HindsightOracle.better(t.result(), tuned.result()), t.spec() + " was better");
      if (t.spec().equals(tuned.spec())) {
        chosen = t.result();
      }
    }
    assertEquals(chosen.latency(), tuned.result().latency(), "the result is the chosen trial's");
    assertTrue(tuned.spec().endsWith(",4"), "the comparison's cap: " + tuned.spec());
    assertTrue(tuned.describe().contains("*"), tuned.describe());
    // At this load parallelism pays: the ceiling beats running everything sequentially.
    assertTrue(
        tuned.result().latencyAt("p99") < tuned.trials().get(0).result().latencyAt("p99"),
        tuned.describe());
  }

  @Test
  void isDeterministic() {
    Simulator.Config c = Simulator.Config.of(16, 4_000);
    HindsightOracle.Tuned a = HindsightOracle.tune(profile, c, point, "test", 4);
    HindsightOracle.Tuned b = HindsightOracle.tune(profile, c, point, "test", 4);
    assertEquals(a.spec(), b.spec());
    assertArrayEquals(
        a.trials().stream().mapToDouble(t -> t.result().latencyAt("p99")).toArray(),
        b.trials().stream().mapToDouble(t -> t.result().latencyAt("p99")).toArray());
  }

  @Test
  void onlyABareOracleIsTuned() {
    assertTrue(HindsightOracle.isTuned(" Oracle "));
    assertFalse(HindsightOracle.isTuned("oracle:5ms"));
  }
}
