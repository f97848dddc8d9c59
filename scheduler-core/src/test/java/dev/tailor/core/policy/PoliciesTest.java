package dev.tailor.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tailor.core.model.SpeedupCurve;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The typed factories make the very policies their specifications parse into. */
class PoliciesTest {

  @Test
  void eachFactoryEqualsItsSpecification() {
    Map<String, Policy> typed =
        Map.ofEntries(
            Map.entry("seq", Policies.seq()),
            Map.entry("fixed:4", Policies.fixed(4)),
            Map.entry("steal-first", Policies.stealFirst()),
            Map.entry("admit-first", Policies.admitFirst()),
            Map.entry("adaptive", Policies.adaptive()),
            Map.entry("adaptive:1,1.5,2", Policies.adaptive(SpeedupCurve.of(1, 1.5, 2))),
            Map.entry("wq-linear", Policies.wqLinear()),
            Map.entry("wq-linear:3", Policies.wqLinear(3)),
            Map.entry("rampup:5ms,4", Policies.rampUp(Duration.ofMillis(5), 4)),
            Map.entry("pred", Policies.pred()),
            Map.entry("pred:40ms,2", Policies.pred(Duration.ofMillis(40), 2)),
            Map.entry("rc:20ms,4", Policies.clairvoyant(Duration.ofMillis(20), 4)),
            Map.entry("oracle:30ms", Policies.oracle(Duration.ofMillis(30))),
            Map.entry("oracle:30ms,2", Policies.oracle(Duration.ofMillis(30), 2)),
            Map.entry(
                "fixed:2@admit-first",
                Policies.withPreference(Policies.fixed(2), WorkerPreference.ADMIT_FIRST)));
    typed.forEach(
        (spec, policy) -> {
          Policy parsed = PolicyRegistry.of(spec);
          assertEquals(parsed, policy, spec);
          assertEquals(parsed.spec(), policy.spec(), spec);
        });
  }

  @Test
  void theSpecificationOfATypedPolicyParsesBackIntoIt() {
    Policy policy = Policies.rampUp(Duration.ofMillis(2), 3);

    assertEquals(policy, PolicyRegistry.of(policy.spec()));
  }

  @Test
  void argumentsOutOfRangeAreRejectedByName() {
    assertEquals(
        "n must be positive, got 0",
        assertThrows(IllegalArgumentException.class, () -> Policies.fixed(0)).getMessage());
    assertEquals(
        "interval must be positive, got PT0S",
        assertThrows(IllegalArgumentException.class, () -> Policies.rampUp(Duration.ZERO, 2))
            .getMessage());
    assertEquals(
        "budget must not be negative, got PT-0.001S",
        assertThrows(IllegalArgumentException.class, () -> Policies.oracle(Duration.ofMillis(-1)))
            .getMessage());
    assertThrows(NullPointerException.class, () -> Policies.adaptive(null));
  }
}
