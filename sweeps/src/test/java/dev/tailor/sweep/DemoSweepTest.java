package dev.tailor.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tailor.core.Durations;
import dev.tailor.measure.WorkloadSpread;
import org.junit.jupiter.api.Test;

/** The demo's choices read off a profile's spread: the FM table's step and the latency target. */
class DemoSweepTest {

  private static long stepFor(double medianMillis) {
    return DemoSweep.fmStepNanos(WorkloadSpread.of(new double[] {medianMillis * 1e6}));
  }

  @Test
  void theFmStepIsTheMedianRoundedTo100usWithin100usAnd1ms() {
    assertEquals(300_000, stepFor(0.29)); // TB05 on 1M documents
    assertEquals(100_000, stepFor(0.02));
    assertEquals(1_000_000, stepFor(4.8));
    assertEquals(700_000, stepFor(0.66));
  }

  @Test
  void theDefaultTargetIsThreeMediansRoundedToOneSignificantFigure() {
    assertEquals(1_000_000, targetFor(0.326)); // TB05 on 1M documents: 0.98 ms
    assertEquals(900_000, targetFor(0.29)); // 0.87 ms
    assertEquals(10_000_000, targetFor(4.8)); // 14.4 ms
    assertEquals(600_000_000, targetFor(185)); // 555 ms
    assertEquals("900us", Durations.format(targetFor(0.29)), "a readable duration");
  }

  private static long targetFor(double medianMillis) {
    return DemoSweep.defaultTargetNanos(WorkloadSpread.of(new double[] {medianMillis * 1e6}));
  }

  @Test
  void loadsAreSharesOfWhatTheCoresSustainRunningEachQueryAlone() {
    // Mean 2 ms: 2 cores sustain 1000 requests/s.
    WorkloadSpread spread = WorkloadSpread.of(new double[] {1e6, 3e6});
    org.junit.jupiter.api.Assertions.assertEquals(1000, DemoSweep.capacity(spread, 2), 1e-9);
    org.junit.jupiter.api.Assertions.assertEquals(
        java.util.List.of(50.0, 150.0, 400.0, 700.0), DemoSweep.loads(spread, 2));
    org.junit.jupiter.api.Assertions.assertEquals(
        java.util.List.of(1500.0), DemoSweep.loads(spread, 2, java.util.List.of(1.5)));
    for (double bad : new double[] {0, -0.1, 1.51, Double.NaN}) {
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class,
              () -> DemoSweep.loads(spread, 2, java.util.List.of(0.05, bad)));
      org.junit.jupiter.api.Assertions.assertTrue(
          e.getMessage().contains("--loads: " + bad + " is not a share of capacity in (0, 1.5]"),
          e.getMessage());
    }
  }
}
