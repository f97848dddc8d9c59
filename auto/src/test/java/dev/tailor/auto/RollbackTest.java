package dev.tailor.auto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.FakeSystem;
import dev.tailor.core.policy.Policy;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A swap is judged by what the swapped-in policy served, whatever the guard simulated. */
class RollbackTest {

  private static final AutoSettings INLINE =
      AutoSettings.parse(
          "requests-per-point=300,seeds=1,iterations=2,samples=2000,requests=1000,period=0s");

  /**
   * Swaps a better policy in over one-at-a-time, then serves {@link Rebuilder#TRIAL} requests with
   * latencies {@code latencyFactor} times those before, at the same rate.
   */
  private static AutoStatus swapThenServe(double latencyFactor, AtomicReference<Policy> live) {
    Reservoir reservoir = new Reservoir(2000);
    Reservoir probed = new Reservoir(1000);
    Samples w = CraftedSamples.of(1500, 2500, 1_000_000, 8, 2.0, true);
    for (int i = 0; i < w.size(); i++) {
      reservoir.add(
          w.arrivalNanos()[i],
          w.exitNanos()[i],
          w.runNanos()[i],
          w.workNanos()[i],
          w.probeDegree()[i]);
      if (w.probeDegree()[i] > 0) {
        probed.add(
            w.arrivalNanos()[i],
            w.exitNanos()[i],
            w.runNanos()[i],
            w.workNanos()[i],
            w.probeDegree()[i]);
      }
    }
    try (Rebuilder rebuilder = new Rebuilder(INLINE, reservoir, probed, live, 0, true)) {
      FakeSystem clock = new FakeSystem();
      clock.now = w.exitNanos()[w.size() - 1];
      rebuilder.requestCompleted(clock.now, clock, 8, 8); // learns the clock
      assertTrue(rebuilder.rebuildNow());
      assertTrue(rebuilder.last().swapped(), rebuilder.last().reason());
      // The trial: the same arrivals again, later, each latency scaled.
      long shift = clock.now + 1_000_000_000L - w.arrivalNanos()[0];
      for (int i = 0; i < Rebuilder.TRIAL; i++) {
        long arrival = w.arrivalNanos()[i] + shift;
        long latency = Math.round((w.exitNanos()[i] - w.arrivalNanos()[i]) * latencyFactor);
        clock.now = arrival + latency;
        reservoir.add(arrival, clock.now, Math.min(latency, w.runNanos()[i]), w.workNanos()[i], 0);
        rebuilder.requestCompleted(clock.now, clock, 8, 8);
      }
      return rebuilder.status(0);
    }
  }

  @Test
  void aSwapThatServesWorseIsRolledBack() {
    Policy before = new OneAtATime();
    AtomicReference<Policy> live = new AtomicReference<>(before);
    AutoStatus s = swapThenServe(3.0, live);
    assertEquals(1, s.rollbacks(), s.toString());
    assertSame(before, live.get(), "the replaced policy serves again");
    assertTrue(s.lastRollback().startsWith("rolled back "), s.lastRollback());
  }

  @Test
  void aSwapThatServesAsWellIsKept() {
    Policy before = new OneAtATime();
    AtomicReference<Policy> live = new AtomicReference<>(before);
    AutoStatus s = swapThenServe(1.0, live);
    assertEquals(0, s.rollbacks(), s.toString());
    assertNotSame(before, live.get());
  }
}
