package dev.tailor.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.table.ThresholdTable;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ThresholdCalculationTest {

  private static final long MS = 1_000_000L;

  /**
   * Three bins: half the requests take 1 ms, 40% take 2 ms, 10% take 10 ms; w̄ = 2.3 ms. At 1000
   * rps on 4 cores U = 2.3. Target 4 ms.
   */
  private static final WorkDistribution THREE =
      new WorkDistribution(new double[] {0.5, 0.4, 0.1}, new long[] {MS, 2 * MS, 10 * MS}, 10, "t");

  private static final ThresholdCalculation CALC = new ThresholdCalculation(THREE, 4 * MS, 1000, 4);

  @Test
  void utilizationIsMeanWorkTimesRate() {
    assertEquals(2.3e6, CALC.meanWorkNanos(), 1e-3);
    assertEquals(2.3, CALC.utilization(), 1e-12);
  }

  @Test
  void candidateByHandWithoutSmallMisses() {
    // l = 2 ms, q = 5: p_l = 0.1; w̄_s = 0.5 / 0.9 = 0.5556 ms; w̄_e = 1.3 + 0.1·2 = 1.5 ms;
    // w̄_f = 0.1·8 / 0.1 = 8 ms. T = max((8 + 2 + 4·2.3) / (4 - 2.3), 2/4 + 8) = 19.2/1.7 ms.
    // miss_l = 0.1·(1000·0.0112941 + 4) + 1 = 2.52941. m_s = 4 - 2.52941·8/11.2941 = 2.20833.
    // x = (4·2.20833 - 0.5556 - 2) / 1.5 = 4.18519 >= q - 1 = 4, so miss_s = 0.
    ThresholdCalculation.Candidate c = CALC.evaluate(5, 1);
    assertEquals(2 * MS, c.thresholdNanos());
    assertEquals(19.2 / 1.7 / 1000, c.pileupSeconds(), 1e-12);
    assertEquals(0.1 * (1000 * 19.2 / 1.7 / 1000 + 4) + 1, c.largeMisses(), 1e-9);
    assertEquals(0, c.smallMisses(), 0);
  }

  @Test
  void candidateByHandWithSmallMisses() {
    // l = 10 ms (nothing is large), q = 5: p_l = 0, w̄_f = 0; w̄_s = (0.5 + 0.8) / 1 = 1.3 ms;
    // w̄_e = 2.3 ms. T = max((0 + 10 + 4·2.3) / 1.7, 10/4 + 0) = 19.2/1.7 ms; miss_l = 1; m_s = 4.
    // x = (4·4 - 1.3 - 10) / 2.3 = 2.04348; rate out m_s/w̄_e = 1739.13/s, minus 1000 = 739.13/s.
    // miss_s = (4 - 2.04348)·1739.13 / 739.13·1 = 4.60358.
    ThresholdCalculation.Candidate c = CALC.evaluate(5, 2);
    assertEquals(1, c.largeMisses(), 1e-12);
    double x = (16 - 1.3 - 10) / 2.3;
    double out = 4 / 2.3e-3;
    assertEquals((4 - x) * out / (out - 1000), c.smallMisses(), 1e-9);
    assertEquals(4.603580562659845, c.misses() - 1, 1e-9);
  }

  @Test
  void bestTakesTheFewestMissesAndFallsWithLoad() {
    // q = 1: l = 10 ms (1 miss) beats 2 ms (1.85) and 1 ms (2.425): nothing is serialized.
    assertEquals(10 * MS, CALC.best(1).thresholdNanos());
    assertEquals(1.0, CALC.best(1).misses(), 1e-12);
    // q = 5: 2 ms (2.53) beats 10 ms (5.60) and 1 ms (6.76).
    assertEquals(2 * MS, CALC.best(5).thresholdNanos());
    assertEquals(2 * MS, CALC.best(20).thresholdNanos());
  }

  @Test
  void overloadIsRefusedWithTheFigures() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new ThresholdCalculation(THREE, MS, 2000, 4));
    assertTrue(e.getMessage().contains("4.60 cores"), e.getMessage());
  }

  @Test
  void thresholdsFallAsLoadRisesAndRiseWithALongerTarget() {
    // The paper's Fig. 4 on its log-normal workload: mean 10 ms, sd 13 ms, 16 cores.
    long[] works = logNormal(20_000, 10, 13, 7);
    WorkDistribution d = WorkDistribution.of(works, 100);
    ThresholdTable shorter =
        TcTableBuilder.build(d, new TcTableBuilder.Source("test", null), 15 * MS, 1000, 16, 0);
    ThresholdTable longer =
        TcTableBuilder.build(d, new TcTableBuilder.Source("test", null), 30 * MS, 1000, 16, 0);
    assertEquals(64, shorter.inputs().qMax());
    for (int q = 2; q <= 64; q++) {
      assertTrue(shorter.thresholdNanos(q) <= shorter.thresholdNanos(q - 1), "falls at q=" + q);
      assertTrue(longer.thresholdNanos(q) >= shorter.thresholdNanos(q), "rises at q=" + q);
    }
    assertTrue(shorter.thresholdNanos(64) < shorter.thresholdNanos(1));
    assertTrue(longer.thresholdNanos(32) > shorter.thresholdNanos(32));
  }

  @Test
  void binsAreExactWhenFewAndLogOtherwise() {
    WorkDistribution exact = WorkDistribution.of(new long[] {3, 1, 3, 2}, 10);
    assertEquals("exact", exact.binning());
    assertEquals(3, exact.bins());
    assertEquals(0.5, exact.probabilities()[2], 1e-12);
    assertEquals(3, exact.maxWorkNanos()[2]);
    WorkDistribution log = WorkDistribution.of(logNormal(5_000, 10, 13, 1), 50);
    assertEquals("log", log.binning());
    assertTrue(log.bins() <= 50);
    long[] sorted = logNormal(5_000, 10, 13, 1);
    java.util.Arrays.sort(sorted);
    assertEquals(sorted[sorted.length - 1], log.maxWorkNanos()[log.bins() - 1]);
  }

  /** Log-normal works of the given mean and sd in ms. */
  static long[] logNormal(int n, double meanMs, double sdMs, long seed) {
    double s2 = Math.log(1 + (sdMs * sdMs) / (meanMs * meanMs));
    double mu = Math.log(meanMs) - s2 / 2;
    SplittableRandom r = new SplittableRandom(seed);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      double z =
          Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
      out[i] = Math.max(1, Math.round(Math.exp(mu + Math.sqrt(s2) * z) * 1e6));
    }
    return out;
  }
}
