package dev.tailor.auto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.SpeedupCurve;
import org.junit.jupiter.api.Test;

class SpeedupEstimateTest {

  @Test
  void quantileMatchingRecoversAKnownSpeedup() {
    // Two random samples of the same work, one run alone and one at degree 4 three times faster:
    // matched by quantile, every third of the sizes shows the speedup of 3.
    Samples s = CraftedSamples.of(4000, 100, 1_000_000, 4, 3.0, true);
    SpeedupEstimate e = SpeedupEstimate.of(s, 8, 8);
    for (SpeedupCurve c : e.curves()) {
      assertEquals(1.0, c.at(1));
      assertEquals(3.0, c.at(4), 0.45, c.toString());
      assertEquals(1 + (c.at(4) - 1) / 3, c.at(2), 1e-9, "a third of the way to degree 4: " + c);
      assertTrue(c.at(8) >= c.at(4), "never falling: " + c);
    }
    assertEquals(4, e.measuredDegrees()[0]);
    // The crafted probes' work is their work alone: no busy time added, so the speedup they lack
    // at degree 4 is a serial share, s = (1/3 - 1/4) / (3/4) = 1/9, and degree 8 gets 1 / (s +
    // (1 - s) / 8) = 4.5.
    assertEquals(1.0, e.inflation(), 0.05);
    assertEquals(1.0 / 9, e.serialShareFor(1_000_000), 0.05);
    assertEquals(4.5, e.curves().get(1).at(8), 0.8);
  }

  @Test
  void nothingMeasuredWithoutProbes() {
    assertNull(SpeedupEstimate.of(CraftedSamples.of(500, 100, 1_000_000, 4, 3, false), 8, 8));
  }

  @Test
  void neverAboveTheDegreeNorBelowOne() {
    Samples faster = CraftedSamples.of(2000, 100, 1_000_000, 2, 5.0, true);
    Samples slower = CraftedSamples.of(2000, 100, 1_000_000, 2, 0.5, true);
    assertEquals(2.0, SpeedupEstimate.of(faster, 4, 8).curves().get(1).at(2), 1e-9);
    assertEquals(1.0, SpeedupEstimate.of(slower, 4, 8).curves().get(1).at(2), 1e-9);
  }
}
