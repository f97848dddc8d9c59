package dev.tailor.predictor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The report on a crafted profile of 40 requests of 16 windows, no serial part: 36 fast ones of 1
 * us windows (16 us), two decoys whose first window takes 50 us and the rest 1 us (65 us), and the
 * two slow ones: A of 10 us windows (160 us) and B whose first window takes 1 us and the rest 20 us
 * (301 us). The long threshold is the 2nd slowest time, A's 160 us; the median is 16 us.
 */
class ProjectionReportTest {

  static final double TOTAL = 36 * 16_000 + 2 * 65_000 + 160_000 + 301_000;

  static DemandProfile crafted() {
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < 36; i++) {
      requests.add(request("fast" + i, 1_000, 1_000));
    }
    requests.add(request("decoy1", 50_000, 1_000));
    requests.add(request("decoy2", 50_000, 1_000));
    requests.add(request("A", 10_000, 10_000));
    requests.add(request("B", 1_000, 20_000));
    return DemandProfile.of(
        new DemandProfile.Environment("idx", "crafted", 1000, "trace.txt", 1, "25", "linux", "t"),
        new DemandProfile.Settings(1, 16, 1, 16),
        true,
        requests);
  }

  /** A request of 16 windows: the first takes {@code first}, the other 15 {@code rest} each. */
  static DemandProfile.Request request(String id, long first, long rest) {
    long[] units = new long[16];
    Arrays.fill(units, rest);
    units[0] = first;
    return new DemandProfile.Request(
        id,
        null,
        id,
        first + 15 * rest,
        units,
        new double[] {1},
        new double[0],
        new DemandProfile.Features("TermQuery", 1, new long[] {1}, 1));
  }

  @Test
  void withTheMedianAsPriorTheDecoysAreFlaggedFirstAndBOnlyAtAQuarter() {
    ProjectionReport.Result r = ProjectionReport.score(crafted(), null, null);
    assertEquals(40, r.requests());
    assertEquals(160_000, r.thresholdNanos());
    assertEquals(16_000, r.priorNanos());
    assertTrue(r.arrival().startsWith("the profile's median sequential time, 0.016 ms"));

    // 1/16, w = 1/2: the decoys 50 + (750 + 0) / 2 = 425, A 10 + (150 + 6) / 2 = 88, B 16.
    assertScore(r.rows().get(0).projected(), 0, 2, (2 * 360_000 + 72_000 + 285_000) / TOTAL);
    // 1/8, w = 2/3: the decoys 51 + 2/3 x 357 = 289, A 20 + 2/3 x 140 = 113.3, B 21 + 2/3 x 147.
    assertScore(r.rows().get(1).projected(), 0, 2, (2 * 224_000 + 46_667 + 182_000) / TOTAL);
    // 1/4, w = 4/5: the decoys 53 + 4/5 x 159 = 180.2, A 40 + 4/5 x 120 = 136, B 61 + 4/5 x 183.
    assertScore(r.rows().get(2).projected(), 1, 3, (2 * 115_200 + 24_000 + 93_600) / TOTAL);

    // The median flags nothing; its error is the decoys' 49, A's 144 and B's 285 us.
    for (ProjectionReport.Row row : r.rows()) {
      assertScore(row.arrival(), 0, 0, (2 * 49_000 + 144_000 + 285_000) / TOTAL);
      assertTrue(Double.isNaN(row.arrival().metrics().precision()));
    }
  }

  @Test
  void anExactArrivalModelIsPerfectAndItsProjectionMissesBAfterOneWindow() {
    DemandProfile p = crafted();
    long[] exact =
        p.requests().stream().mapToLong(DemandProfile.Request::sequentialNanos).toArray();
    ProjectionReport.Result r = ProjectionReport.score(p, exact, "exact");
    assertEquals("exact", r.arrival());
    assertScore(r.rows().get(0).arrival(), 2, 2, 0);
    // 1/16: A exact (160, flagged), the decoys 50 + (750 + 15) / 2 = 432.5, B 1 + (15 + 300) / 2.
    assertScore(r.rows().get(0).projected(), 1, 3, (2 * 367_500 + 142_500) / TOTAL);
  }

  @Test
  void theSerialPartIsDoneBeforeTheFirstWindow() {
    DemandProfile.Request r = request("r", 1_000, 1_000);
    DemandProfile.Request withSerial =
        new DemandProfile.Request(
            "r", null, "r", 26_000, r.unitNanos(), new double[] {1}, new double[0], r.features());
    assertEquals(26_000, ProjectionReport.project(withSerial, 16, -1));
    assertEquals(26_000, ProjectionReport.project(withSerial, 4, 26_000));
  }

  @Test
  void thePrintedTableSaysTheRuleAndGivesTheCounts() {
    StringWriter s = new StringWriter();
    ProjectionReport.print(
        ProjectionReport.score(crafted(), null, null), "crafted.json", new PrintWriter(s));
    String out = s.toString();
    assertTrue(out.startsWith("projection on crafted.json: 40 requests, 16 windows each"), out);
    for (String said :
        List.of(
            "measured sequential time >= 0.160 ms (2 requests)",
            "flagged = projected (or predicted) time >= that same threshold",
            "  1/4      0.50 (1/2)    0.33 (1/3)    0.298",
            "0.00 (0/2)    - (0/0)")) {
      assertTrue(out.contains(said), out);
    }
  }

  @Test
  void profilesWithoutUnitTimesAndMismatchedPredictionsAreRejected() {
    DemandProfile p = crafted();
    List<DemandProfile.Request> requests = new ArrayList<>(p.requests());
    requests.set(3, new DemandProfile.Request("q3", null, "q3", 5, null, null, null, null));
    DemandProfile noUnits = DemandProfile.of(p.environment(), p.settings(), true, requests);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> ProjectionReport.score(noUnits, null, null));
    assertTrue(
        e.getMessage().startsWith("requests[3].unitNanos: request q3 has no unit times"),
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> ProjectionReport.score(p, new long[3], "three"));
    assertEquals("3 predictions for the profile's 40 requests", e.getMessage());
  }

  private static void assertScore(
      ProjectionReport.Score s, int truePositives, int flagged, double relativeL1) {
    Metrics m = s.metrics();
    assertEquals(2, m.actualLong(), "slow");
    assertEquals(truePositives, m.truePositives(), "flagged slow");
    assertEquals(flagged, m.predictedLong(), "flagged");
    assertEquals(relativeL1, s.relativeL1(), 1e-6);
  }
}
