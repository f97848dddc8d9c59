package dev.tailor.sim.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tailor.measure.DemandProfile;
import org.junit.jupiter.api.Test;

class SyntheticPredictionsTest {

  private final DemandProfile profile = ParametricProfile.generate(200, 4, 5);

  @Test
  void noErrorPredictsTheTruthAndAnErrorIsSeeded() {
    long[] truth =
        profile.requests().stream().mapToLong(DemandProfile.Request::sequentialNanos).toArray();
    assertArrayEquals(
        truth, SyntheticPredictions.attach(profile, 0, 1).predictions().sequentialNanos());
    DemandProfile a = SyntheticPredictions.attach(profile, 0.5, 1);
    assertArrayEquals(
        a.predictions().sequentialNanos(),
        SyntheticPredictions.attach(profile, 0.5, 1).predictions().sequentialNanos());
    assertNotEquals(truth[0], a.predictions().sequentialNanos()[0]);
    assertEquals("synthetic lognormal 0.5, seed 1", a.predictions().method());
    assertThrows(IllegalArgumentException.class, () -> SyntheticPredictions.attach(profile, -1, 1));
  }
}
