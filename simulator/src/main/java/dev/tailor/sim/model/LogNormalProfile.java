package dev.tailor.sim.model;

import dev.tailor.core.Durations;
import dev.tailor.measure.DemandProfile;
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
 *
 * <p>For the simulator's unit model, which is how a work-stealing runtime runs such requests, each
 * request is its serial part followed by its parallel part cut into units of about {@value
 * #UNIT_NANOS} ns (at most {@value #MAX_UNITS}), with no hand-off overhead: a thread helps only
 * while a unit is there to take, so parallelism costs no work, as in the paper's TBB runtime where
 * a worker steals only when it has none. The fluid model instead holds every thread for the whole
 * request and charges the Amdahl loss as work.
 */
public final class LogNormalProfile {

  /** The serial fraction of the paper's near-linear requests. */
  public static final double NEAR_LINEAR = 0.01;

  /** The size of a unit of a request's parallel part: fine enough for a late helper to find one. */
  static final long UNIT_NANOS = 250_000;

  /** The most units a request is cut into. */
  static final int MAX_UNITS = 1024;

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

    /**
     * Parses {@code MEAN,SD[,SERIAL]}, e.g. {@code 10ms,13ms} or {@code 10ms,13ms,0.1}; the serial
     * fraction defaults to {@link #NEAR_LINEAR}.
     *
     * @throws IllegalArgumentException naming what is wrong and the expected form
     */
    public static Shape parse(String spec) {
      String[] parts = spec.split(",", -1);
      if (parts.length < 2 || parts.length > 3) {
        throw new IllegalArgumentException(
            "expected MEAN,SD[,SERIAL] such as 10ms,13ms or 10ms,13ms,0.1, got '" + spec + "'");
      }
      double serial;
      try {
        serial = parts.length == 3 ? Double.parseDouble(parts[2].trim()) : NEAR_LINEAR;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "SERIAL must be a fraction such as 0.1, got '" + parts[2].trim() + "'", e);
      }
      return new Shape(
          Durations.parseNanos(parts[0].trim()), Durations.parseNanos(parts[1].trim()), serial);
    }

    /** How reports name it, e.g. {@code log-normal mean 10ms sd 13ms, 1% serial}. */
    public String describe() {
      return String.format(
          Locale.ROOT,
          "log-normal mean %s sd %s, %s%% serial",
          millis(meanNanos),
          millis(sdNanos),
          java.math.BigDecimal.valueOf(serialFraction * 100).stripTrailingZeros().toPlainString());
    }

    private static String millis(long nanos) {
      // Exact decimal millis: new BigDecimal(double) would print the binary expansion
      // (1.3000...444).
      return java.math.BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + "ms";
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
              units(Math.round((1 - f) * nanos)),
              speedup.clone(),
              new double[0],
              new DemandProfile.Features("lognormal", 0, new long[0], 0)));
    }
    return ParametricProfile.generated("lognormal", shape.describe(), seed, maxDegree, out);
  }

  /** A parallel part cut into units of about {@link #UNIT_NANOS}, their sum exactly the part. */
  private static long[] units(long parallelNanos) {
    int n = (int) Math.max(1, Math.min(MAX_UNITS, Math.round((double) parallelNanos / UNIT_NANOS)));
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = parallelNanos * (i + 1) / n - parallelNanos * i / n;
    }
    return out;
  }
}
