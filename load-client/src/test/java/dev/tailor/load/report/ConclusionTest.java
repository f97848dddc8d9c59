package dev.tailor.load.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.PointResult;
import dev.tailor.measure.PointResultBuilder;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ConclusionTest {

  private static final long MS = 1_000_000;

  private static PointResult point(String policy, double rps, int repetition, double ms) {
    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
    h.recordValueWithCount((long) (ms * MS), 100);
    return new PointResultBuilder(policy, h)
        .labels(rps, "poisson(" + rps + "/s)", 42, "measured on this machine (2 cores)", "test")
        .repetition(repetition)
        .outcome(1_000 * MS, 100, 100, 0, false)
        .build();
  }

  private static void add(List<PointResult> out, String policy, double rps, double... ms) {
    for (int r = 0; r < ms.length; r++) {
      out.add(point(policy, rps, r + 1, ms[r]));
    }
  }

  @Test
  void aWinBeyondNoiseIsStatedWithItsShareOfTheOraclesHeadroom() {
    List<PointResult> points = new ArrayList<>();
    add(points, "seq", 100, 10, 11, 12);
    add(points, "fixed:2", 100, 13, 14, 15);
    add(points, "oracle:5ms,2", 100, 6, 6.5, 7);
    add(points, "fm-wc:t.json", 100, 8, 8.5, 9); // beyond seq's range: better
    add(points, "adaptive", 100, 5, 5, 5); // a baseline, never the "Tailor policy"
    Conclusion c = new Conclusion(points, null);
    Conclusion.AtLoad at = c.atLoads().get(0);
    assertEquals("seq", at.baseline().policy());
    assertEquals("fm-wc:t.json", at.best().policy());
    assertTrue(at.oracleWins());
    assertTrue(at.bestWins());
    // (11 - 8.5) / (11 - 6.5) of the headroom.
    assertEquals(2.5 / 4.5, at.share(), 0.01);
    String text = c.paragraph();
    assertTrue(text.contains("fm-wc:t.json at 100 rps"), text);
    assertTrue(text.contains("56% of the oracle's headroom"), text);
  }

  @Test
  void whereNothingWinsTheBreakdownOfTheBaselineIsGiven() {
    List<PointResult> points = new ArrayList<>();
    add(points, "seq", 50, 10, 11, 12);
    add(points, "oracle", 50, 10.5, 11, 11.5);
    add(points, "fm-wc:t.json", 50, 9, 10.5, 13); // overlaps: within noise
    Conclusion c = new Conclusion(points, p -> "run 9 ms P99 (" + p.policy() + ")");
    Conclusion.AtLoad at = c.atLoads().get(0);
    assertFalse(at.oracleWins());
    assertFalse(at.bestWins());
    String text = c.paragraph();
    assertTrue(
        text.contains("oracle beats the best static baseline (seq or fixed) at no load"), text);
    assertTrue(text.contains("No Tailor policy beats"), text);
    assertTrue(text.contains("at 50 rps seq's served time is run 9 ms P99 (seq)"), text);
  }

  @Test
  void aSingleRunGivesNoVerdict() {
    List<PointResult> points = new ArrayList<>();
    add(points, "seq", 50, 10);
    add(points, "fm-wc:t.json", 50, 5);
    assertTrue(new Conclusion(points, null).paragraph().startsWith("One run per point"));
  }
}
