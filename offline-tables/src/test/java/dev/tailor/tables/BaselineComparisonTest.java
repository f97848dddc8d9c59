package dev.tailor.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.model.ParametricProfile;
import dev.tailor.sim.model.SyntheticPredictions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BaselineComparisonTest {

  private final DemandProfile profile = ParametricProfile.generate(400, 8, 7);

  @Test
  void theHalvesSplitEveryRequestOnce() {
    BaselineComparison.Halves halves = BaselineComparison.split(profile, 9);
    assertEquals(200, halves.tuning().requests().size());
    assertEquals(200, halves.check().requests().size());
    Set<DemandProfile.Request> seen = new HashSet<>(halves.tuning().requests());
    seen.addAll(halves.check().requests());
    assertEquals(new HashSet<>(profile.requests()), seen);
    assertNull(halves.tuning().predictions());
    assertNotEquals(
        halves.tuning().requests(),
        BaselineComparison.split(profile, 10).tuning().requests(),
        "another seed, another split");
  }

  @Test
  void eachHalfKeepsItsRequestsPredictions() {
    DemandProfile predicted = SyntheticPredictions.attach(profile, 0.5, 3);
    List<DemandProfile.Request> all = predicted.requests();
    BaselineComparison.Halves halves = BaselineComparison.split(predicted, 9);
    for (DemandProfile half : List.of(halves.tuning(), halves.check())) {
      for (int i = 0; i < half.requests().size(); i++) {
        int at = all.indexOf(half.requests().get(i));
        assertEquals(predicted.predictedNanos(at), half.predictedNanos(i));
      }
      assertEquals(predicted.predictions().method(), half.predictions().method());
    }
  }

  @Test
  void ratiosCompareByTheWorstThenTheMean() {
    double[] a = {1.0, 1.2};
    double[] b = {1.1, 1.2};
    double[] saturated = {0.5, Double.POSITIVE_INFINITY};
    assertTrue(BaselineComparison.better(a, b), "equal worst, lower mean");
    assertTrue(BaselineComparison.better(b, saturated));
    assertTrue(BaselineComparison.describe("x", saturated).contains("worst sat."));
  }
}
