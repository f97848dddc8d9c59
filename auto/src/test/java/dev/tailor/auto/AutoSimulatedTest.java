package dev.tailor.auto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.ParametricProfile;
import org.junit.jupiter.api.Test;

/**
 * {@code auto} in the simulator: it probes, rebuilds on the virtual clock, and is deterministic.
 */
class AutoSimulatedTest {

  private static final DemandProfile PROFILE = ParametricProfile.generate(400, 8, 3);

  private static AutoStatus run() {
    AutoSettings settings =
        AutoSettings.parse(
            "period=1s,requests=1000,samples=2000,requests-per-point=300,seeds=1,iterations=2,"
                + "probes=0.1");
    try (AutoPolicy auto = AutoPolicy.forSimulation(settings)) {
      double rate = 0.5 * 8 * 1e9 / PROFILE.meanSequentialNanos();
      PointResult r =
          new Simulator(PROFILE, auto, Simulator.Config.of(8, 4000))
              .run(SweepPlan.counted("poisson", 5, 4000).point(rate, 400), "test");
      assertTrue(r.completed() > 0);
      return auto.status();
    }
  }

  @Test
  void rebuildsOnTheVirtualClockAndSaysWhy() {
    AutoStatus s = run();
    assertTrue(s.probes() > 0, "some requests were probed");
    assertTrue(s.rebuilds() >= 1, "rebuilt at least once: " + s);
    assertEquals(0, s.failures(), s.lastFailure());
    assertTrue(s.swaps() + s.kept() >= 1, "at least one rebuild compared candidates: " + s);
    assertEquals(s.rebuilds(), s.swaps() + s.kept() + s.skipped());
    AutoStatus.Verdict v = s.last();
    assertNotNull(v);
    assertTrue(v.samples() >= 1000);
    if (v.chosen() != null) {
      assertTrue(v.measuredDegrees().length > 0, v.reason());
      assertTrue(v.trials().get(0).live(), "the live policy is simulated first");
      double best = v.trials().stream().mapToDouble(AutoStatus.Trial::p99Nanos).min().orElseThrow();
      if (v.swapped()) {
        assertTrue(v.trials().get(0).p99Nanos() * (1 - Rebuild.MARGIN) > best);
      } else {
        assertTrue(best >= v.trials().get(0).p99Nanos() * (1 - Rebuild.MARGIN));
      }
    } else {
      assertTrue(v.reason().startsWith("skipped"), v.reason());
    }
  }

  @Test
  void isDeterministic() {
    AutoStatus a = run();
    AutoStatus b = run();
    assertEquals(a.liveSpec(), b.liveSpec());
    assertEquals(a.rebuilds(), b.rebuilds());
    assertEquals(a.last().reason(), b.last().reason());
  }
}
