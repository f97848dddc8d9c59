package dev.tailor.sim.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParametricProfileTest {

  private static final DemandProfile PROFILE = ParametricProfile.generate(10_000, 8, 1);

  @Test
  void demandHasThePapersShape() {
    double[] ms = PROFILE.requests().stream().mapToDouble(r -> r.sequentialNanos() / 1e6).toArray();
    Arrays.sort(ms);
    double median = ms[ms.length / 2];
    assertTrue(median > 176 && median < 196, "median " + median);
    assertTrue(ms[ms.length - 1] <= 1000 && ms[ms.length - 1] > 900, "max " + ms[ms.length - 1]);
    int[] bins = new int[50]; // 20 ms bins, as the paper's Fig. 2 draws them
    for (double m : ms) {
      bins[Math.min(49, (int) (m / 20))]++;
    }
    int mode = 0;
    for (int b = 1; b < bins.length; b++) {
      mode = bins[b] > bins[mode] ? b : mode;
    }
    double modeMs = mode * 20 + 10;
    assertTrue(modeMs >= 70 && modeMs <= 130, "mode bin around " + modeMs);
  }

  @Test
  void speedupsHaveThePapersShape() {
    List<DemandProfile.Request> rs = PROFILE.requests();
    assertEquals(1.9, mean(rs, 2, 0, 1), 0.05);
    assertEquals(3.0, mean(rs, 4, 0, 1), 0.1);
    assertEquals(mean(rs, 5, 0, 1), mean(rs, 8, 0, 1), 0.1, "flat beyond 5");
    assertTrue(mean(rs, 4, 0.95, 1) > mean(rs, 4, 0, 1) + 0.3, "the longest 5% scale better");
    assertTrue(mean(rs, 4, 0, 0.05) < mean(rs, 4, 0, 1) - 0.5, "the shortest 5% scale worse");
  }

  @Test
  void isDeterministicAndAValidProfile(@TempDir Path dir) throws IOException {
    DemandProfile again = ParametricProfile.generate(10_000, 8, 1);
    for (int i = 0; i < 100; i++) {
      assertEquals(
          PROFILE.requests().get(i).sequentialNanos(), again.requests().get(i).sequentialNanos());
      assertEquals(
          PROFILE.requests().get(i).speedupCurve(), again.requests().get(i).speedupCurve());
    }
    Path file = dir.resolve("p.json");
    ParametricProfile.generate(50, 4, 2).write(file);
    assertEquals(50, DemandProfile.read(file).requests().size());
  }

  /** The mean speedup at d of the requests between two demand quantiles. */
  private static double mean(List<DemandProfile.Request> rs, int d, double from, double to) {
    List<DemandProfile.Request> sorted =
        rs.stream()
            .sorted((a, b) -> Long.compare(a.sequentialNanos(), b.sequentialNanos()))
            .toList();
    int lo = (int) (from * sorted.size());
    int hi = (int) (to * sorted.size());
    double sum = 0;
    for (int i = lo; i < hi; i++) {
      sum += sorted.get(i).speedupCurve().at(d);
    }
    return sum / (hi - lo);
  }
}
