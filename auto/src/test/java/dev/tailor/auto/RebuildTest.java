package dev.tailor.auto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import org.junit.jupiter.api.Test;

/** The guard: only a candidate that simulates below the live policy's P99 is swapped in. */
class RebuildTest {

  private static final AutoSettings SMALL =
      AutoSettings.parse("requests-per-point=300,seeds=1,iterations=2,samples=2000,requests=100");

  // 8 threads, about 50% busy at degree 1: 1 ms median work at 2500 rps.
  private static final Samples WORKLOAD = CraftedSamples.of(1500, 2500, 1_000_000, 8, 2.0, true);

  private static Rebuild.Result rebuild(Policy live) {
    return Rebuild.run(
        WORKLOAD, WORKLOAD, 8, 8, live, null, SMALL, 7, System.nanoTime() + 600_000_000_000L);
  }

  private static void assertGuarded(AutoStatus.Verdict v) {
    AutoStatus.Trial live = v.trials().get(0);
    assertTrue(live.live());
    double best = v.trials().stream().mapToDouble(AutoStatus.Trial::p99Nanos).min().orElseThrow();
    if (v.swapped()) {
      assertTrue(best < (1 - Rebuild.MARGIN) * live.p99Nanos(), v.reason());
      assertEquals(
          best,
          v.trials().stream()
              .filter(t -> t.spec().equals(v.chosen()))
              .findFirst()
              .orElseThrow()
              .p99Nanos());
    } else {
      assertTrue(
          best >= (1 - Rebuild.MARGIN) * live.p99Nanos(),
          "nothing simulated 3% below the live policy: " + v.reason());
    }
  }

  @Test
  void aLiveThatSaturatesIsReplacedByTheBestCandidate() {
    Rebuild.Result r = rebuild(new OneAtATime());
    AutoStatus.Verdict v = r.verdict();
    double best = v.trials().stream().mapToDouble(AutoStatus.Trial::p99Nanos).min().orElseThrow();
    assertTrue(v.trials().get(0).p99Nanos() > 10 * best, "one at a time falls far behind");
    assertTrue(v.swapped(), v.reason());
    assertNotNull(r.policy());
    assertGuarded(v);
    assertEquals(1500, v.samples());
    assertEquals(8, v.measuredDegrees()[0]);
  }

  @Test
  void theChosenPolicyIsKeptWhenRebuiltFromTheSameSamples() {
    Rebuild.Result first = rebuild(new OneAtATime());
    assertTrue(first.verdict().swapped());
    Rebuild.Result again = rebuild(first.policy());
    assertFalse(again.verdict().swapped(), again.verdict().reason());
    assertNull(again.policy());
    assertGuarded(again.verdict());
  }

  @Test
  void aRolledBackCandidateIsNotOfferedAgain() {
    Rebuild.Result first = rebuild(new OneAtATime());
    String chosen = first.verdict().chosen();
    assertEquals(chosen, first.identity().toString());
    assertEquals(first.policy().identity(), first.identity());
    Rebuild.Result again =
        Rebuild.run(
            WORKLOAD, WORKLOAD, 8, 8, new OneAtATime(), first.identity(), SMALL, 7, Long.MAX_VALUE);
    assertTrue(again.verdict().swapped(), again.verdict().reason());
    assertTrue(
        again.verdict().trials().stream().noneMatch(t -> t.spec().equals(chosen)),
        chosen + " offered again: " + again.verdict().trials());
  }

  @Test
  void tooFewProbesIsASkipNotAGuess() {
    Samples unprobed = CraftedSamples.of(1500, 2500, 1_000_000, 8, 2.0, false);
    Rebuild.Result r =
        Rebuild.run(
            unprobed, unprobed, 8, 8, PolicyRegistry.of("seq"), null, SMALL, 7, Long.MAX_VALUE);
    assertNull(r.policy());
    assertNull(r.verdict().chosen());
    assertTrue(r.verdict().reason().startsWith("skipped: too few probes"), r.verdict().reason());
    assertTrue(r.verdict().trials().isEmpty());
  }

  @Test
  void aRebuildPastItsLimitFails() {
    assertThrows(
        Rebuild.TimedOut.class,
        () ->
            Rebuild.run(
                WORKLOAD,
                WORKLOAD,
                8,
                8,
                PolicyRegistry.of("seq"),
                null,
                SMALL,
                7,
                System.nanoTime()));
  }
}
