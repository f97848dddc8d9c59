package dev.tailor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.policy.Policies;
import dev.tailor.core.policy.PriorityClass;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The builder takes each option once and checks the options against each other at build. */
class SchedulerBuilderTest {

  @Test
  void anOptionSetTwiceIsRejectedByName() {
    Scheduler.Builder builder = Scheduler.builder().workers(2).policy(Policies.fixed(2));

    IllegalStateException workers =
        assertThrows(IllegalStateException.class, () -> builder.workers(4));
    IllegalStateException policy =
        assertThrows(IllegalStateException.class, () -> builder.policy("seq"));

    assertEquals(
        "workers is already set; set each option of the builder once", workers.getMessage());
    assertEquals("policy is already set; set each option of the builder once", policy.getMessage());
  }

  @Test
  void aClassShareSetTwiceIsRejectedByItsClass() {
    PriorityClass background = PriorityClass.values()[PriorityClass.values().length - 1];
    Scheduler.Builder builder = Scheduler.builder().classShare(background, 0.25);

    IllegalStateException again =
        assertThrows(IllegalStateException.class, () -> builder.classShare(background, 0.5));

    assertEquals(
        "classShare("
            + background.label()
            + ") is already set; set each option of the builder once",
        again.getMessage());
  }

  @Test
  void aRejectedValueDoesNotCountAsSet() {
    Scheduler.Builder builder = Scheduler.builder();
    assertThrows(IllegalArgumentException.class, () -> builder.workers(0));

    try (Scheduler scheduler = builder.workers(1).build()) {
      assertEquals(1, scheduler.workers());
    }
  }

  @Test
  void aNonPositiveLongRequestThresholdIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Scheduler.builder().longRequestThreshold(Duration.ZERO));

    assertEquals("longRequestThreshold must be positive, got PT0S", e.getMessage());
  }

  @Test
  void anElasticBudgetAboveTheWorkersIsRejectedAtBuild() {
    Scheduler.Builder builder =
        Scheduler.builder()
            .workers(2)
            .elasticBudget(BudgetPolicy.staticBudget(), 3, Duration.ofMillis(1));

    IllegalStateException e = assertThrows(IllegalStateException.class, builder::build);

    assertEquals(
        "the elastic budget's minWorkers (3) exceeds workers (2): lower minWorkers or raise"
            + " workers",
        e.getMessage());
  }

  @Test
  void arrivalsAreAdmittedPromptlyUnlessTurnedOff() {
    try (Scheduler on = Scheduler.builder().workers(1).build();
        Scheduler off = Scheduler.builder().workers(1).promptAdmission(false).build()) {
      org.junit.jupiter.api.Assertions.assertTrue(on.tuning().promptAdmission());
      org.junit.jupiter.api.Assertions.assertFalse(off.tuning().promptAdmission());
    }
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalStateException.class,
        () -> Scheduler.builder().promptAdmission(true).promptAdmission(false));
  }

  @Test
  void aPromptBoundOfZeroNegativeOrOverAMinuteIsRefusedNamingTheSetting() {
    for (java.time.Duration bad :
        java.util.List.of(
            java.time.Duration.ZERO,
            java.time.Duration.ofMillis(-1),
            java.time.Duration.ofMinutes(2))) {
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class, () -> Scheduler.builder().promptBound(bad));
      org.junit.jupiter.api.Assertions.assertTrue(
          e.getMessage().startsWith("promptBound must be positive"), e.getMessage());
    }
    try (Scheduler s =
        Scheduler.builder().workers(1).promptBound(java.time.Duration.ofMillis(3)).build()) {
      org.junit.jupiter.api.Assertions.assertEquals(3_000_000L, s.tuning().promptBound().toNanos());
    }
    try (Scheduler s = Scheduler.builder().workers(1).build()) {
      org.junit.jupiter.api.Assertions.assertEquals(
          dev.tailor.core.model.GuidedClaims.PROMPT_NANOS, s.tuning().promptBound().toNanos());
      org.junit.jupiter.api.Assertions.assertEquals(Scheduler.DEFAULT_POLICY, s.policy().spec());
    }
  }
}
