package dev.tailor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.PriorityClass;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link Tuning}: one immutable value of knobs, checked as each is set, and what builds with it.
 */
class TuningTest {

  @Test
  void eachWitherReturnsACopyWithOneKnobChanged() {
    Tuning defaults = Tuning.defaults();
    Tuning tuned = defaults.withSlack(0).withQuantum(Duration.ofMillis(2));

    assertEquals(Scheduler.DEFAULT_SLACK, defaults.slack(), "the defaults are unchanged");
    assertEquals(Duration.ofNanos(Scheduler.DEFAULT_QUANTUM_NANOS), defaults.quantum());
    assertEquals(0, tuned.slack());
    assertEquals(Duration.ofMillis(2), tuned.quantum());
    assertEquals(defaults.promptBound(), tuned.promptBound(), "the others are kept");
    assertEquals(defaults.queueCapacity(), tuned.queueCapacity());
    assertEquals(tuned, Tuning.defaults().withQuantum(Duration.ofMillis(2)).withSlack(0));
    assertNotEquals(defaults, tuned);
    assertNotEquals(
        defaults, defaults.withClassShare(PriorityClass.BACKGROUND, 0.5), "class shares count");
  }

  @Test
  void aBadKnobIsRefusedNamingIt() {
    Tuning t = Tuning.defaults();
    assertMessage("slack must be >= 0, got -1", () -> t.withSlack(-1));
    assertMessage("queueCapacity must be >= 1, got 0", () -> t.withQueueCapacity(0));
    assertMessage("quantum must be positive, got PT0S", () -> t.withQuantum(Duration.ZERO));
    assertMessage(
        "spinBeforePark must be zero (no spinning) or positive, got PT-0.001S",
        () -> t.withSpinBeforePark(Duration.ofMillis(-1)));
    assertMessage(
        "promptBound must be positive and at most PT1M, got PT2M",
        () -> t.withPromptBound(Duration.ofMinutes(2)));
    assertMessage(
        "class interactive is the highest class; it takes no share",
        () -> t.withClassShare(PriorityClass.INTERACTIVE, 0.5));
  }

  @Test
  void theSchedulerRunsWithTheTuningItWasGivenAndChecksItAgainstTheWorkers() {
    Tuning tuned = Tuning.defaults().withSlack(2).withQueueCapacity(7);
    try (Scheduler scheduler = Scheduler.builder().workers(2).tuning(tuned).build()) {
      assertEquals(tuned, scheduler.tuning());
      assertEquals(
          2 + 2, scheduler.systemView().threadLimit(), "the dispatch core lends the slack");
    }
    IllegalStateException tooMuch =
        assertThrows(
            IllegalStateException.class,
            () -> Scheduler.builder().workers(1).tuning(tuned).build());
    assertTrue(tooMuch.getMessage().contains("slack (2) exceeds workers (1)"), tooMuch::getMessage);
    IllegalStateException twice =
        assertThrows(
            IllegalStateException.class,
            () -> Scheduler.builder().tuning(tuned).tuning(Tuning.defaults()));
    assertTrue(twice.getMessage().startsWith("tuning is already set"), twice::getMessage);
  }

  private static void assertMessage(String expected, Runnable r) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
    assertEquals(expected, e.getMessage());
  }
}
