package dev.tailor.sim.arrival;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ArrivalProcessTest {

  private static double[] meanAndVariance(ArrivalProcess p, int n) {
    double sum = 0;
    double sumSq = 0;
    for (int i = 0; i < n; i++) {
      double g = p.nextGapNanos();
      sum += g;
      sumSq += g * g;
    }
    double mean = sum / n;
    return new double[] {mean, sumSq / n - mean * mean};
  }

  @Test
  void poissonHasTheRequestedMeanRateOverManySeeds() {
    for (long seed = 1; seed <= 20; seed++) {
      double[] mv = meanAndVariance(ArrivalProcess.poisson(200, seed), 50_000);
      double rate = 1e9 / mv[0];
      assertEquals(200, rate, 200 * 0.02, "seed " + seed);
      // Exponential gaps: the standard deviation equals the mean.
      assertEquals(1.0, Math.sqrt(mv[1]) / mv[0], 0.05, "seed " + seed);
    }
  }

  @Test
  void logNormalHasTheRequestedMeanAndAHigherVariance() {
    for (long seed = 1; seed <= 20; seed++) {
      ArrivalProcess p = ArrivalProcess.parse("lognormal:1.3", 100, seed);
      double[] mv = meanAndVariance(p, 200_000);
      assertEquals(100, 1e9 / mv[0], 100 * 0.03, "seed " + seed);
      double cv = Math.sqrt(mv[1]) / mv[0];
      assertTrue(cv > 1.1 && cv < 1.5, "cv " + cv + " near 1.3, above Poisson's 1");
    }
  }

  @Test
  void theSameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
    long[] a = ArrivalProcess.poisson(50, 7).schedule(10_000_000_000L);
    long[] b = ArrivalProcess.poisson(50, 7).schedule(10_000_000_000L);
    long[] c = ArrivalProcess.poisson(50, 8).schedule(10_000_000_000L);
    assertArrayEquals(a, b);
    assertTrue(a.length != c.length || a[0] != c[0]);
    for (int i = 1; i < a.length; i++) {
      assertTrue(a[i] >= a[i - 1]);
    }
    assertTrue(a[a.length - 1] < 10_000_000_000L);
  }

  @Test
  void theFirstNArrivalsMatchTheSchedule() {
    long[] first = ArrivalProcess.poisson(50, 7).first(100);
    long[] scheduled = ArrivalProcess.poisson(50, 7).schedule(first[99] + 1);
    assertArrayEquals(first, scheduled);
    assertArrayEquals(new long[] {0, 5}, ArrivalProcess.atOffsets(new long[] {0, 5}).first(3));
  }

  @Test
  void offsetsReplayATracesOwnTimestamps() {
    long[] offsets = {0, 5, 5, 20};
    assertArrayEquals(offsets, ArrivalProcess.atOffsets(offsets).schedule(100));
    assertArrayEquals(new long[] {0, 5, 5}, ArrivalProcess.atOffsets(offsets).schedule(20));
    assertThrows(IllegalArgumentException.class, () -> ArrivalProcess.atOffsets(new long[] {5, 1}));
  }

  @Test
  void badSpecificationsSayWhatIsExpected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ArrivalProcess.parse("uniform", 1, 1));
    assertTrue(e.getMessage().contains("poisson or lognormal:CV"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ArrivalProcess.poisson(0, 1));
  }
}
