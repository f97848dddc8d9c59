package dev.tailor.predictor;

import static dev.tailor.predictor.ProjectionReportTest.TOTAL;
import static dev.tailor.predictor.ProjectionReportTest.crafted;
import static dev.tailor.predictor.ProjectionReportTest.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The noise bound on {@link ProjectionReportTest}'s crafted profile (slow: A at 160 us and B at 301
 * us), against second profiles of the same requests.
 */
class NoiseBoundTest {

  @Test
  void aSecondRunSlowerThroughoutFindsTheSameSlowRequests() {
    NoiseBound b = NoiseBound.of(crafted(), crafted().scaled(1.1));
    assertEquals(40, b.requests());
    assertEquals(160_000, b.thresholdNanos());
    assertEquals(176_000, b.secondThresholdNanos());
    assertEquals(1.0, b.recall());
    assertEquals(1.0, b.precision());
    assertEquals(0.1, b.relativeL1(), 1e-9);
  }

  @Test
  void aDecoyMeasuredSlowAgainTakesASlowRequestsPlace() {
    // decoy1 measured at 200 us instead of 65: the second profile's slowest 5% is B and decoy1.
    NoiseBound b = NoiseBound.of(crafted(), with(crafted(), request("decoy1", 50_000, 10_000)));
    assertEquals(200_000, b.secondThresholdNanos());
    assertEquals(2, b.slow());
    assertEquals(2, b.flagged());
    assertEquals(1, b.flaggedSlow());
    assertEquals(0.5, b.recall());
    assertEquals(0.5, b.precision());
    assertEquals(135_000 / TOTAL, b.relativeL1(), 1e-9);

    // A measured at 150 us too: still below the second's threshold, and 10 us more error.
    NoiseBound both =
        NoiseBound.of(
            crafted(),
            with(with(crafted(), request("decoy1", 50_000, 10_000)), request("A", 15_000, 9_000)));
    assertEquals(1, both.flaggedSlow());
    assertEquals((135_000 + 10_000) / TOTAL, both.relativeL1(), 1e-9);
  }

  @Test
  void theRowEndsTheTableAndNamesTheSecondProfile() {
    StringWriter s = new StringWriter();
    ProjectionReport.printNoiseBound(
        NoiseBound.of(crafted(), with(crafted(), request("decoy1", 50_000, 10_000))),
        "again.json",
        new PrintWriter(s, true));
    assertEquals(
        "  noise    0.50 (1/2)    0.50 (1/2)    0.116       noise bound: again.json's measured"
            + " times, flagged at its own slowest 5% (>= 0.200 ms)\n",
        s.toString());
  }

  @Test
  void profilesOfOtherRequestsAreRejectedNamingTheFirstMissingId() {
    DemandProfile p = crafted();
    List<DemandProfile.Request> fewer = new ArrayList<>(p.requests());
    fewer.remove(3);
    fewer.remove(3);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NoiseBound.of(p, profile(p, fewer)));
    assertEquals(
        "has no request with id fast3, which the first profile has: not a profile of the same"
            + " queries",
        e.getMessage());

    List<DemandProfile.Request> more = new ArrayList<>(p.requests());
    more.add(request("C", 1_000, 1_000));
    e = assertThrows(IllegalArgumentException.class, () -> NoiseBound.of(p, profile(p, more)));
    assertTrue(
        e.getMessage().startsWith("has a request with id C, which the first"), e.getMessage());
  }

  /** {@code p} with the request of {@code r}'s id replaced by {@code r}. */
  private static DemandProfile with(DemandProfile p, DemandProfile.Request r) {
    List<DemandProfile.Request> requests = new ArrayList<>(p.requests());
    requests.replaceAll(q -> q.id().equals(r.id()) ? r : q);
    return profile(p, requests);
  }

  private static DemandProfile profile(DemandProfile p, List<DemandProfile.Request> requests) {
    return DemandProfile.of(p.environment(), p.settings(), true, requests);
  }
}
