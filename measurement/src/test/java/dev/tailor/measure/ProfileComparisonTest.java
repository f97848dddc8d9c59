package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileComparisonTest {

  private static final double EPS = 1e-9;

  /** A given profile of requests with these ids, query texts and sequential times. */
  static DemandProfile profile(List<String> ids, List<String> queries, long[] nanos) {
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < nanos.length; i++) {
      requests.add(
          new DemandProfile.Request(
              ids.get(i),
              null,
              queries.get(i),
              nanos[i],
              new long[] {nanos[i]},
              new double[] {1.0},
              new double[0],
              new DemandProfile.Features("TermQuery", 1, new long[] {10}, 10)));
    }
    return DemandProfile.of(
        new DemandProfile.Environment("idx", "synthetic", 1000, "trace.txt", 1, "25", "linux", "t"),
        new DemandProfile.Settings(1, 1, 1, 1),
        true,
        requests);
  }

  /** Requests "0".."n-1" with query texts "q0".."q(n-1)". */
  static DemandProfile profile(long... nanos) {
    List<String> ids = new ArrayList<>();
    List<String> queries = new ArrayList<>();
    for (int i = 0; i < nanos.length; i++) {
      ids.add(Integer.toString(i));
      queries.add("q" + i);
    }
    return profile(ids, queries, nanos);
  }

  private static long[] ramp(int n) {
    long[] t = new long[n];
    for (int i = 0; i < n; i++) {
      t[i] = 1_000_000L * (i + 1);
    }
    return t;
  }

  @Test
  void identicalProfilesAgreeCompletely() {
    DemandProfile a = profile(ramp(20));
    ProfileComparison c = ProfileComparison.of(a, profile(ramp(20)));
    assertEquals(20, c.requests());
    assertEquals(0, c.onlyInA());
    assertEquals(0, c.onlyInB());
    assertEquals(1, c.logCorrelation(), EPS);
    assertEquals(0, c.medianDifference());
    assertEquals(0, c.p90Difference());
    assertEquals(1, c.slowestCount());
    assertEquals(1, c.slowestOverlap());
    assertEquals(1, c.meanRatio());
    assertEquals(0, c.worst().difference());
    assertEquals(List.of(), c.shortfalls(ProfileComparison.Goal.DEFAULT));
    assertTrue(c.meets(ProfileComparison.Goal.DEFAULT));
    assertFalse(c.describe().contains("MISSED"), c.describe());
  }

  @Test
  void aProfileTenPercentSlowerEverywhereCorrelatesButMissesTheMeanAndMedian() {
    long[] a = ramp(20);
    long[] b = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      b[i] = a[i] / 10 * 11; // exactly 1.1 times: every time is a multiple of 10
    }
    ProfileComparison c = ProfileComparison.of(profile(a), profile(b));
    assertEquals(1, c.logCorrelation(), EPS);
    assertEquals(0.10, c.medianDifference(), EPS);
    assertEquals(0.10, c.p90Difference(), EPS);
    assertEquals(0.10, c.worst().difference(), EPS);
    assertEquals(1.10, c.meanRatio(), EPS);
    assertEquals(1, c.slowestOverlap());

    List<String> missed = c.shortfalls(ProfileComparison.Goal.DEFAULT);
    assertEquals(2, missed.size(), missed.toString());
    assertTrue(
        missed.get(0).startsWith("median per-query difference 10.0% is above 5.0%"), missed.get(0));
    assertTrue(
        missed.get(1).contains("mean sequential time of B differs from A's by +10.0%"),
        missed.get(1));
    assertTrue(missed.get(1).contains("more than 3.0%"), missed.get(1));
    String report = c.describe();
    assertTrue(report.contains("MISSED"), report);
    assertTrue(report.contains("1.100"), report);
  }

  /**
   * Times that are powers of two, so ln(time) is an affine function of the exponent and the
   * correlation of the logs is the correlation of the exponents: A's are 0..19; B's differ by
   * offsets {@code d} with sum 0 and {@code sum(i * d[i]) = 0}, so cov(x, y) = var(x) and var(y) =
   * var(x) + var(d), hence r = sqrt(Sxx / (Sxx + sum d^2)) = sqrt(665 / (665 + 20)).
   */
  @Test
  void aCraftedPairHasTheFiguresComputedByHand() {
    int[] d = {1, 1, -1, -1, -2, 0, 1, -1, 0, 0, 0, 1, 2, 0, 0, 0, 1, 0, 0, -2};
    long[] a = new long[20];
    long[] b = new long[20];
    for (int i = 0; i < 20; i++) {
      a[i] = 1000L << i;
      b[i] = 1000L << (i + d[i]);
    }
    ProfileComparison c = ProfileComparison.of(profile(a), profile(b));

    assertEquals(Math.sqrt(665.0 / 685.0), c.logCorrelation(), EPS);
    // Offsets |d| of 0, 1 and 2 are relative differences of 0, 1 and 3: nine 0s, eight 1s, three
    // 3s. Nearest rank: the median is the 10th smallest (a 1), the P90 the 18th (a 3).
    assertEquals(1.0, c.medianDifference(), EPS);
    assertEquals(3.0, c.p90Difference(), EPS);
    // k = ceil(5% of 20) = 1: A's slowest is request 19 (2^19), B's is request 18 (2^18, as
    // request 19 dropped to 2^17).
    assertEquals(1, c.slowestCount());
    assertEquals(0, c.slowestOverlap());
    long sumB = 0;
    for (int i = 0; i < 20; i++) {
      sumB += 1L << (i + d[i]);
    }
    assertEquals((double) sumB / ((1 << 20) - 1), c.meanRatio(), EPS);
    // The first request with |d| = 2 is request 4: 2^4 in A, 2^2 in B.
    assertEquals("4", c.worst().id());
    assertEquals(16_000, c.worst().aNanos());
    assertEquals(4_000, c.worst().bNanos());
    assertEquals(3.0, c.worst().difference(), EPS);

    // The correlation meets the default goal; the median, P90, overlap and mean (B's is 30%
    // below A's, mostly because request 19 lost three quarters of its time) do not.
    List<String> missed = c.shortfalls(ProfileComparison.Goal.DEFAULT);
    assertEquals(4, missed.size(), missed.toString());
    assertTrue(missed.get(0).startsWith("median per-query difference 100.0%"), missed.get(0));
    assertTrue(missed.get(1).startsWith("P90 per-query difference 300.0%"), missed.get(1));
    assertTrue(
        missed.get(2).startsWith("0 of the 1 slowest requests are the same in both (0.0%)"),
        missed.get(2));
    assertTrue(missed.get(3).contains("by -29.9%"), missed.get(3));
    ProfileComparison.Goal strict = new ProfileComparison.Goal(0.99, 10, 10, 0, 1);
    assertEquals(
        List.of("correlation of log sequential time 0.985 is below 0.990"), c.shortfalls(strict));
  }

  @Test
  void slowestTiesAreBrokenByTracePosition() {
    // 20 requests, all equal in A: its slowest (k = 1) is the first. In B the first is a bit
    // faster, so B's slowest is the second; the overlap is 0 however close the times are.
    long[] a = new long[20];
    long[] b = new long[20];
    Arrays.fill(a, 1_000_000);
    Arrays.fill(b, 1_000_000);
    b[0] = 999_000;
    ProfileComparison c = ProfileComparison.of(profile(a), profile(b));
    assertEquals(0, c.slowestOverlap());
    // A has no variance and the sides differ: the correlation is defined as 0, not NaN.
    assertEquals(0, c.logCorrelation());
    assertEquals(1, ProfileComparison.of(profile(a), profile(a)).logCorrelation());
  }

  @Test
  void matchesByIdAndQueryAndCountsTheRest() {
    DemandProfile a =
        profile(
            List.of("1", "2", "3", "4", "5", "7", "7"),
            List.of("a", "b", "c", "d", "e", "g", "g"),
            new long[] {10, 20, 30, 40, 50, 70, 80});
    DemandProfile b =
        profile(
            List.of("2", "3", "4", "5", "6", "7"),
            List.of("b", "other c", "d", "e", "f", "g"),
            new long[] {20, 30, 40, 50, 60, 70});
    ProfileComparison c = ProfileComparison.of(a, b);
    // 2, 4, 5 and the first 7 match; 3's query text differs, so it is in neither's matches.
    assertEquals(4, c.requests());
    assertEquals(3, c.onlyInA()); // 1, 3, the second 7
    assertEquals(2, c.onlyInB()); // 3 (other c), 6
    assertEquals(1, c.meanRatio(), EPS);
    assertEquals(0, c.worst().difference());
    assertTrue(
        c.describe().startsWith("4 requests matched by id and query (3 only in A, 2 only in B)"));
  }

  @Test
  void profilesWithNothingInCommonAreRefused() {
    DemandProfile a = profile(List.of("1", "2"), List.of("a", "b"), new long[] {10, 20});
    DemandProfile b = profile(List.of("1", "2"), List.of("x", "y"), new long[] {10, 20});
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ProfileComparison.of(a, b));
    assertTrue(e.getMessage().contains("no request in common"), e.getMessage());
  }
}
