package dev.tailor.load.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.PointResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgreementTest {

  private static List<PointResult> sweep(double seqAt100) {
    List<PointResult> points = new ArrayList<>();
    for (int r = 1; r <= 3; r++) {
      points.add(ConclusionTest.point("seq", 100, r, seqAt100 * (1 + r / 10.0), 200, false));
      points.add(ConclusionTest.point("wq-linear", 100, r, 8 * (1 + r / 10.0), 200, false));
      points.add(ConclusionTest.point("seq", 300, r, 50, 200, r == 2));
    }
    return points;
  }

  @Test
  void theSameSweepTwiceAgreesAndAShiftedOneDoesNot() {
    Agreement same = new Agreement(sweep(10), sweep(10));
    assertEquals(3, same.rows().size());
    assertEquals(2, same.comparable(), "the saturated point is left out");
    assertEquals(2, same.overlapping());
    assertTrue(same.meetsOverlapGoal());
    // Round 1 to 3 of seq at 100 rps: 11-13 ms against 22-26 ms; the intervals are disjoint.
    Agreement shifted = new Agreement(sweep(10), sweep(20));
    assertEquals(1, shifted.overlapping());
    assertFalse(shifted.meetsOverlapGoal());
    String text = shifted.text();
    assertTrue(text.contains("intervals overlap at 1 of 2 unsaturated points"), text);
    assertTrue(text.contains("missed"), text);
    assertTrue(text.contains("NO"), text);
  }
}
