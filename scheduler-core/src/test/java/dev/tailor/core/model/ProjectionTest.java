package dev.tailor.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProjectionTest {

  private static final long NONE = Projection.UNKNOWN;

  @Test
  void uniformWindowsWithoutAPriorAreProjectedExactlyAfterTheFirst() {
    // 16 windows of 50 us after 200 us of work outside them: 1,000 us in all.
    Projection p = Projection.of(16, NONE);
    assertEquals(1_000_000, p.sequentialNanos(1, 50_000, 250_000));
    assertEquals(1_000_000, p.sequentialNanos(2, 100_000, 300_000));
    assertEquals(1_000_000, p.sequentialNanos(16, 800_000, 1_000_000));
  }

  @Test
  void skewedWindowsAreExtrapolatedAtThePaceSeenSoFar() {
    // Windows of 4, 2, 2, 2 us (10 in all), no work outside them.
    Projection p = Projection.of(4, NONE);
    assertEquals(16_000, p.sequentialNanos(1, 4_000, 4_000), "4 + 3 x 4");
    assertEquals(12_000, p.sequentialNanos(2, 6_000, 6_000), "6 + 2 x 3");
    assertEquals(10_667, p.sequentialNanos(3, 8_000, 8_000), "8 + 8 / 3, rounded");
    assertEquals(10_000, p.sequentialNanos(4, 10_000, 10_000), "all done: the work");
  }

  @Test
  void aPriorCountsAsOneWindowsWorthOfEvidence() {
    // The same windows with a prior of 10 us, the truth: the extrapolation weighs k / (k + 1).
    Projection p = Projection.of(4, 10_000);
    // k = 1: 4 + 1/2 x 12 + 1/2 x (10 - 4) = 13
    assertEquals(13_000, p.sequentialNanos(1, 4_000, 4_000));
    // k = 2: 6 + 2/3 x 6 + 1/3 x 4 = 11.333...
    assertEquals(11_333, p.sequentialNanos(2, 6_000, 6_000));
    // k = 3: 8 + 3/4 x 8/3 + 1/4 x 2 = 10.5
    assertEquals(10_500, p.sequentialNanos(3, 8_000, 8_000));
    assertEquals(10_000, p.sequentialNanos(4, 10_000, 10_000));
  }

  @Test
  void anExactPriorAndUniformWindowsAgreeAtEveryStep() {
    Projection p = Projection.of(8, 1_000_000);
    for (int k = 1; k <= 8; k++) {
      assertEquals(1_000_000, p.sequentialNanos(k, k * 100_000L, 200_000 + k * 100_000L));
    }
  }

  @Test
  void aPriorBelowTheWorkDoneExpectsNothingMore() {
    // The prior expects 1 us; 4 us are done: only the extrapolation's half of 12 us remains.
    assertEquals(10_000, Projection.of(4, 1_000).sequentialNanos(1, 4_000, 4_000));
  }

  @Test
  void aRequestWhoseWindowsHaveAllFinishedIsProjectedAtItsWork() {
    // A prior of 20 us still expects 9 us more, but no window is left.
    assertEquals(11_000, Projection.of(4, 20_000).sequentialNanos(4, 10_000, 11_000));
    assertEquals(11_000, Projection.of(4, NONE).sequentialNanos(4, 10_000, 11_000));
  }

  @Test
  void beforeTheFirstWindowOnlyThePriorSpeaks() {
    assertEquals(7_000, Projection.of(4, 7_000).sequentialNanos(0, 0, 3_000));
    assertEquals(9_000, Projection.of(4, 7_000).sequentialNanos(0, 0, 9_000), "at least the work");
    assertEquals(NONE, Projection.of(4, NONE).sequentialNanos(0, 0, 3_000));
  }

  @Test
  void badInputsAreRejectedWithWhatIsWrong() {
    assertMessage("at least one window, got 0", () -> Projection.of(0, NONE));
    assertMessage("non-negative time or UNKNOWN (-1), got -2", () -> Projection.of(4, -2));
    Projection p = Projection.of(4, NONE);
    assertMessage("within 0 and 4, got 5", () -> p.sequentialNanos(5, 1, 1));
    assertMessage("within 0 and 4, got -1", () -> p.sequentialNanos(-1, 1, 1));
    assertMessage("non-negative, got windows -1 ns", () -> p.sequentialNanos(1, -1, 1));
    assertMessage("more than all the work done", () -> p.sequentialNanos(1, 5, 4));
    assertMessage(
        "no window has finished, yet windows took 3 ns", () -> p.sequentialNanos(0, 3, 4));
  }

  private static void assertMessage(String part, Runnable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }
}
