package dev.tailor.sim.model;

import dev.tailor.core.model.DemandProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The synthetic workloads of tail-control's evaluation (Li et al., PPoPP'16, §5): log-normal work
 * of a given mean and standard deviation (its "log-normal" workload has a mean of 10 ms and a
 * standard deviation of 13 ms), every request with the same Amdahl speedup {@code s(d) = 1 / (f +
 * (1 - f)/d)}, {@code f} the serial fraction of each request: 0.01 for the paper's near-linear
 * requests, 0.1 for its sub-linear ones ("10% of each request serial"). Deterministic for a seed.
 *
 * <p>The parameters of the normal under the log are {@code σ² = ln(1 + sd²/mean²)} and {@code μ =
 * ln(mean) - σ²/2}, so that the work has exactly the mean and deviation asked for; works are
 * floored at 1 µs.
 */
public final class LogNormalProfile {

  /** The serial fraction of the paper's near-linear requests. */
  public static final double NEAR_LINEAR = 0.01;

  private LogNormalProfile() {}

  /**
   * The parameters: mean and standard deviation of the work, and the serial fraction.
   *
   * @param meanNanos the mean work
   * @param sdNanos its standard deviation
   * @param serialFraction {@code f}, in {@code [0, 1]}
   */
  public record Shape(long meanNanos, long sdNanos, double serialFraction) {

    /**
     * Checks the shape.
     *
     * @throws IllegalArgumentException if the mean or deviation is not positive or the fraction is
     *     outside {@code [0, 1]}
     */
    public Shape {
      if (meanNanos <= 0 || sdNanos <= 0 || !(serialFraction >= 0 && serialFraction <= 1)) {
        throw new IllegalArgumentException(
            "need a positive mean and deviation and a serial fraction in [0, 1], got "
                + meanNanos
                + " ns, "
                + sdNanos
                + " ns, "
                + serialFraction);
      }
    }

    /** How reports name it, e.g. {@code log-normal mean 10ms sd 13ms, 1% serial}. */
    public String describe() {
      return String.format(
          Locale.ROOT,
          "log-normal mean %s sd %s, %s%% serial",
          millis(meanNanos),
          millis(sdNanos),
          new java.math.BigDecimal(serialFraction * 100).stripTrailingZeros().toPlainString());
    }

    private static String millis(long nanos) {
      return new java.math.BigDecimal(nanos / 1e6).stripTrailingZeros().toPlainString() + "ms";
    }
  }

  /**
   * A profile of {@code requests} requests of the given shape, with speedups up to {@code
   * maxDegree}.
   *
   * @throws IllegalArgumentException if {@code requests < 1} or {@code maxDegree < 1}
   */
  public static DemandProfile generate(Shape shape, int requests, int maxDegree, long seed) {
    if (requests < 1 || maxDegree < 1) {
      throw new IllegalArgumentException(
          "requests and maxDegree must be >= 1, got " + requests + ", " + maxDegree);
    }
    double mean = shape.meanNanos();
    double sd = shape.sdNanos();
    double s2 = Math.log(1 + (sd * sd) / (mean * mean));
    double mu = Math.log(mean) - s2 / 2;
    double sigma = Math.sqrt(s2);
    double[] speedup = new double[maxDegree];
    double f = shape.serialFraction();
    for (int d = 1; d <= maxDegree; d++) {
      speedup[d - 1] = 1 / (f + (1 - f) / d);
    }
    SplittableRandom random = new SplittableRandom(seed);
    List<DemandProfile.Request> out = new ArrayList<>(requests);
    for (int i = 0; i < requests; i++) {
      long nanos =
          Math.max(1_000, Math.round(Math.exp(mu + sigma * ParametricProfile.gaussian(random))));
      out.add(
          new DemandProfile.Request(
              Integer.toString(i),
              null,
              "lognormal-" + i,
              nanos,
              new long[] {nanos},
              speedup.clone(),
              new double[0],
              new DemandProfile.Features("lognormal", 0, new long[0], 0)));
    }
    return DemandProfile.of(
        new DemandProfile.Environment(
            "lognormal",
            shape.describe(),
            0,
            "seed=" + seed,
            maxDegree,
            Runtime.version().toString(),
            System.getProperty("os.name") + " " + System.getProperty("os.arch"),
            "generated"),
        new DemandProfile.Settings(1, 1, maxDegree, maxDegree),
        true,
        out);
  }
}
