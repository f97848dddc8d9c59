package dev.tailor.core.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BudgetPolicyTest {

  private static BudgetSample sample(int budget, double utilization, double delay, double service) {
    return new BudgetSample(1_000_000, budget, 1, 16, utilization, delay, service, 0);
  }

  @Test
  void specificationsNameThePoliciesAndTheirRanges() {
    assertSame(BudgetPolicy.staticBudget(), BudgetPolicy.of("static"));
    assertEquals("delay-range:0.5,1", BudgetPolicy.of("delay-range").spec());
    assertEquals("delay-range:1,4", BudgetPolicy.of(" Delay-Range:1,4 ").spec());
    assertEquals("utilization-range:0.75,0.95", BudgetPolicy.of("utilization-range").spec());
    assertEquals("utilization-range:0.6,0.8", BudgetPolicy.of("utilization-range:0.6,0.8").spec());
    BudgetPolicy p = BudgetPolicy.of("utilization-range:0.6,0.8");
    assertEquals(p.spec(), BudgetPolicy.of(p.spec()).spec());
  }

  @Test
  void badSpecificationsSayWhatWasExpected() {
    for (String bad :
        new String[] {
          "elastic",
          "static:3",
          "delay-range:1",
          "delay-range:a,b",
          "delay-range:2,1",
          "utilization-range:0.5,1.5",
          "utilization-range:-0.1,0.5",
          "delay-range:1,Infinity"
        }) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> BudgetPolicy.of(bad), bad);
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
      assertTrue(e.getMessage().contains("delay-range[:LO,HI]"), e.getMessage());
    }
  }

  @Test
  void staticAlwaysAsksForEveryThread() {
    assertEquals(16, BudgetPolicy.staticBudget().resize(sample(3, 0, 0, 0)));
    assertEquals(16, BudgetPolicy.staticBudget().resize(sample(16, 1, 1e9, 1)));
  }

  @Test
  void utilizationRangeMovesOneThreadWhenOutsideTheRange() {
    BudgetPolicy p = BudgetPolicy.utilizationRange(0.75, 0.95);
    assertEquals(7, p.resize(sample(8, 0.74, 0, 0)));
    assertEquals(8, p.resize(sample(8, 0.75, 0, 0)));
    assertEquals(8, p.resize(sample(8, 0.95, 0, 0)));
    assertEquals(9, p.resize(sample(8, 0.96, 0, 0)));
  }

  @Test
  void delayRangeComparesTheDelayWithTheServiceTime() {
    BudgetPolicy p = BudgetPolicy.delayRange(0.5, 1);
    assertEquals(7, p.resize(sample(8, 1, 499, 1000)));
    assertEquals(8, p.resize(sample(8, 1, 500, 1000)));
    assertEquals(8, p.resize(sample(8, 1, 1000, 1000)));
    assertEquals(9, p.resize(sample(8, 1, 1001, 1000)));
  }

  @Test
  void delayRangeWithoutAServiceTimeYetFollowsWhetherAnythingWaited() {
    BudgetPolicy p = BudgetPolicy.delayRange(0.5, 1);
    assertEquals(9, p.resize(sample(8, 1, 1, 0)));
    assertEquals(7, p.resize(sample(8, 1, 0, 0)));
  }
}
