package dev.tailor.sim;

import static dev.tailor.sim.UnevenRequest.MS;
import static dev.tailor.sim.UnevenRequest.SERIAL;
import static dev.tailor.sim.UnevenRequest.UNITS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.Projection;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.measure.DemandProfile;
import org.junit.jupiter.api.Test;

/**
 * The unit model's projection ({@link UnitRequest#projectedSequentialNanos()}): one unit is one of
 * the runtime's windows, so after every claim it is {@link Projection}'s rule on the units
 * finished.
 */
class UnitRequestProjectionTest {

  private long now;

  private final SystemView clock = UnevenRequest.system(() -> now, 1);

  private UnitRequest request(long predictedNanos) {
    DemandProfile.Request demand = UnevenRequest.demand();
    SimRequest.Told told = new SimRequest.Told(predictedNanos, false, Long.MAX_VALUE);
    return new UnitRequest(
        0,
        0,
        demand,
        demand.unitWork(),
        clock,
        told,
        false,
        dev.tailor.core.model.GuidedClaims.PROMPT_NANOS);
  }

  /**
   * Runs the request alone at degree 1 and checks its projection at every boundary: its own thread
   * works without a pause, so the work done is the time, and the units finished are those whose
   * times, after the serial part, add up to it.
   */
  private void projectsByTheRule(long prior) {
    UnitRequest r = request(prior);
    assertEquals(prior, r.projectedSequentialNanos(), "before it starts: the prior");
    r.start(1, 0);
    Projection rule = Projection.of(UNITS.length, prior);
    int boundariesInside = 0;
    while (!r.done()) {
      now = r.nextEventAt();
      r.advance(now);
      int k = 0;
      long windows = 0;
      while (k < UNITS.length && SERIAL + windows + UNITS[k] <= now) {
        windows += UNITS[k++];
      }
      assertEquals(SERIAL + windows, now, "a boundary is a unit's end");
      assertEquals(rule.sequentialNanos(k, windows, now), r.projectedSequentialNanos(), "at " + k);
      if (k > 0 && k < UNITS.length) {
        boundariesInside++;
      }
    }
    assertTrue(boundariesInside >= 2, "projected after several claims, not only at the end");
  }

  @Test
  void withAPredictionTheUnitsFinishedAreBlendedWithIt() {
    projectsByTheRule(40 * MS);
  }

  @Test
  void withoutAPredictionTheUnitsFinishedAreExtrapolated() {
    projectsByTheRule(RequestView.UNKNOWN);
  }
}
