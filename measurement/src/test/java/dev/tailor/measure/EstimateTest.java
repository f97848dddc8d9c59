package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EstimateTest {

  @Test
  void aRatioIsJudgedByWhetherItsIntervalHoldsOne() {
    assertEquals(Estimate.Verdict.BETTER, new Estimate(0.7, 0.6, 0.86).verdict());
    assertEquals(Estimate.Verdict.WORSE, new Estimate(1.3, 1.1, 1.6).verdict());
    assertEquals(Estimate.Verdict.SAME, new Estimate(0.92, 0.78, 1.02).verdict());
    assertEquals(Estimate.Verdict.SAME, new Estimate(1, 1, 1).verdict());
    assertEquals(Estimate.Verdict.NONE, new Estimate(0.5, Double.NaN, Double.NaN).verdict());
    assertEquals(Estimate.Verdict.NONE, Estimate.NONE.verdict());
  }

  @Test
  void intervalsOverlapWhereTheyShareAValue() {
    Estimate a = new Estimate(40, 37.7, 42.5);
    assertTrue(a.overlaps(new Estimate(42, 42.5, 47)));
    assertFalse(a.overlaps(new Estimate(45.6, 43.6, 47.7)));
    assertFalse(a.overlaps(new Estimate(40, Double.NaN, Double.NaN)));
  }

  @Test
  void halfWidthIsAShareOfTheValue() {
    assertEquals(0.1, new Estimate(20, 18, 22).relativeHalfWidth(), 1e-12);
    assertTrue(Double.isNaN(new Estimate(20, Double.NaN, Double.NaN).relativeHalfWidth()));
  }

  @Test
  void formatsWithAndWithoutAnInterval() {
    assertEquals("0.71 [0.61-0.86]", new Estimate(0.71, 0.61, 0.86).format("%.2f"));
    assertEquals("28.0", new Estimate(28, Double.NaN, Double.NaN).format("%.1f"));
    assertEquals("-", Estimate.NONE.format("%.1f"));
    assertEquals("28.0 [27.0-29.0]", new Estimate(28e6, 27e6, 29e6).times(1e-6).format("%.1f"));
  }
}
