package dev.tailor.auto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
      assertEquals(c.at(4), c.at(8), 1e-9, "flat beyond the highest degree measured");
    }
    assertEquals(4, e.measuredDegrees()[0]);
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
