package dev.tailor.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RobustTimeTest {

  @Test
  void lowerHalfMeanIgnoresSlowOutliers() {
    // Seven samples of a 1,000 ns query; three were hit by interference (GC, the other core).
    long[] samples = {1_000, 1_010, 990, 50_000, 1_005, 9_000, 20_000};
    // The fastest four: 990, 1000, 1005, 1010.
    assertEquals((990 + 1_000 + 1_005 + 1_010) / 4.0, RobustTime.estimate(samples), 1e-9);
  }

  @Test
  void estimateOfOneOrTwoSamples() {
    assertEquals(500, RobustTime.estimate(new long[] {500}), 1e-9);
    assertEquals(400, RobustTime.estimate(new long[] {900, 400}), 1e-9);
    assertEquals(0, RobustTime.spread(new long[] {500}), 1e-9);
  }

  @Test
  void spreadIsTheInterquartileRangeOverTheEstimate() {
    long[] samples = {100, 200, 300, 400, 500}; // q25 = 200, q75 = 400, estimate = 200
    assertEquals(1.0, RobustTime.spread(samples), 1e-9);
    assertEquals(0, RobustTime.spread(new long[] {7, 7, 7, 7}), 1e-9);
  }

  @Test
  void agreesAcrossRepeatedNoisySamplingBetterThanTheMean() {
    // A query of 1 ms measured 7 times, twice over; each sample has a 30% chance of an outlier that
    // adds 1-10 ms. The lower-half mean of the two repetitions stays within 5% of the truth.
    SplittableRandom random = new SplittableRandom(42);
    int worseMean = 0;
    for (int trial = 0; trial < 200; trial++) {
      long[] samples = new long[7];
      double sum = 0;
      for (int i = 0; i < samples.length; i++) {
        long t = 1_000_000 + random.nextLong(20_000);
        if (random.nextDouble() < 0.3) {
          t += 1_000_000 + random.nextLong(9_000_000);
        }
        samples[i] = t;
        sum += t;
      }
      double estimate = RobustTime.estimate(samples);
      assertTrue(
          Math.abs(estimate / 1_010_000 - 1) < 0.05 || countOutliers(samples) > 3,
          "estimate " + estimate);
      if (Math.abs(sum / samples.length / 1_010_000 - 1) > 0.05) {
        worseMean++;
      }
    }
    assertTrue(worseMean > 100, "the plain mean should be off on most trials: " + worseMean);
  }

  @Test
  void rejectsNoSamples() {
    assertThrows(IllegalArgumentException.class, () -> RobustTime.estimate(new long[0]));
  }

  private static int countOutliers(long[] samples) {
    int n = 0;
    for (long s : samples) {
      if (s > 1_500_000) {
        n++;
      }
    }
    return n;
  }
}
