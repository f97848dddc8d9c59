package dev.tailor.auto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ShiftDetectorTest {

  private static long[] logNormal(int n, double medianNanos, double sigma, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      double u = 1 - r.nextDouble();
      double g = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
      out[i] = Math.round(medianNanos * Math.exp(sigma * g));
    }
    Arrays.sort(out);
    return out;
  }

  @Test
  void statisticIsTheLargestGapOfTheDistributions() {
    long[] a = {1, 2, 3, 4};
    assertEquals(0, ShiftDetector.statistic(a, a.clone()));
    assertEquals(1, ShiftDetector.statistic(new long[] {1, 2}, new long[] {3, 4}));
    assertEquals(0.5, ShiftDetector.statistic(new long[] {1, 2, 3, 4}, new long[] {3, 4}));
  }

  @Test
  void aSyntheticShiftIsFoundAndTheSameMixIsNot() {
    long[] reference = logNormal(4096, 400_000, 1.0, 1);
    long[] same = logNormal(ShiftDetector.WINDOW, 400_000, 1.0, 2);
    long[] heavier = logNormal(ShiftDetector.WINDOW, 1_200_000, 1.0, 3);
    long[] narrower = logNormal(ShiftDetector.WINDOW, 400_000, 0.3, 4);
    assertFalse(ShiftDetector.shifted(reference, same));
    assertTrue(ShiftDetector.shifted(reference, heavier), "three times the median");
    assertTrue(ShiftDetector.shifted(reference, narrower), "the same median, a narrower spread");
  }

  @Test
  void nothingToCompareIsNoShift() {
    assertFalse(ShiftDetector.shifted(new long[0], new long[] {1}));
  }

  @Test
  void falseAlarmsAreRareOnTheSameMix() {
    long[] reference = logNormal(4096, 400_000, 1.0, 11);
    int alarms = 0;
    for (int seed = 100; seed < 300; seed++) {
      if (ShiftDetector.shifted(reference, logNormal(ShiftDetector.WINDOW, 400_000, 1.0, seed))) {
        alarms++;
      }
    }
    assertTrue(alarms <= 2, alarms + " alarms in 200 windows of the same mix, at the 0.1% level");
  }
}
