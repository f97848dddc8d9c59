package dev.tailor.sim.arrival;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SweepPlanTest {

  private static final long MS = 1_000_000L;

  @Test
  void aTimedPointHasTheArrivalsWithinItsDurationAndThoseBeforeTheWarmUpTimeAreWarmUp() {
    PointPlan point = SweepPlan.timed("poisson", 7, 2_000 * MS, 500 * MS).point(100, 13);
    long[] expected = ArrivalProcess.poisson(100, 7).schedule(2_000 * MS);
    assertArrayEquals(expected, point.offsetsNanos());
    long warm = java.util.Arrays.stream(expected).filter(o -> o < 500 * MS).count();
    assertEquals(warm, point.warmupRequests());
    assertTrue(point.measureFromNanos() >= 500 * MS);
    assertTrue(point.offsetsNanos()[point.warmupRequests() - 1] < 500 * MS);
    assertArrayEquals(RequestOrder.shuffled(expected.length, 13, 7), point.order());
    assertEquals("poisson(100.0/s)", point.arrivals());
  }

  @Test
  void aCountedPointHasItsRequestsAndATenthOfThemWarmUp() {
    PointPlan point = SweepPlan.counted("lognormal:1.3", 3, 600).point(40, 50);
    assertArrayEquals(
        ArrivalProcess.parse("lognormal:1.3", 40, 3).first(600), point.offsetsNanos());
    assertEquals(60, point.warmupRequests());
    assertEquals(540, point.measuredRequests());
    assertEquals(point.offsetsNanos()[60], point.measureFromNanos());
  }

  @Test
  void theSamePlanGivesTheSamePointAndAnotherSeedAnother() {
    SweepPlan plan = SweepPlan.timed("poisson", 1, 1_000 * MS, 100 * MS);
    PointPlan a = plan.point(50, 9);
    PointPlan b = plan.point(50, 9);
    assertArrayEquals(a.offsetsNanos(), b.offsetsNanos());
    assertArrayEquals(a.order(), b.order());
    assertEquals(a.warmupRequests(), b.warmupRequests());
    PointPlan c = plan.withSeed(2).point(50, 9);
    assertEquals(2, c.seed());
    assertTrue(!java.util.Arrays.equals(a.offsetsNanos(), c.offsetsNanos()));
  }

  @Test
  void badPlansAreRefusedWithTheReason() {
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> SweepPlan.timed("poisson", 1, 10 * MS, 10 * MS))
            .getMessage()
            .contains("longer than the warm-up"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> SweepPlan.counted("uniform", 1, 10))
            .getMessage()
            .contains("unknown arrivals 'uniform'"));
    assertThrows(IllegalArgumentException.class, () -> SweepPlan.counted("poisson", 1, 0));
    assertThrows(IllegalArgumentException.class, () -> SweepPlan.sized("poisson", 1, 0, MS));
    assertThrows(IllegalArgumentException.class, () -> SweepPlan.sized("poisson", 1, 10, -1));
  }

  @Test
  void aSizedPointMeasuresItsRequestsAfterTheWarmUpTimeAtEveryRate() {
    SweepPlan plan = SweepPlan.sized("poisson", 7, 400, 1_000 * MS);
    for (double rps : new double[] {30, 250}) {
      PointPlan point = plan.point(rps, 13);
      assertEquals(400, point.measuredRequests());
      long[] warm = ArrivalProcess.poisson(rps, 7).schedule(1_000 * MS);
      assertEquals(warm.length, point.warmupRequests());
      // The warm-up's arrivals are the timed plan's, and the measured ones follow them.
      assertArrayEquals(warm, java.util.Arrays.copyOf(point.offsetsNanos(), warm.length));
      assertTrue(point.measureFromNanos() >= 1_000 * MS);
    }
    assertEquals(1_000 * MS + 2_000 * MS, plan.expectedNanos(200));
    assertTrue(plan.toString().contains("400 measured requests per run"), plan.toString());
  }
}
