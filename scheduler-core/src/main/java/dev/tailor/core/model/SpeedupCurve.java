package dev.tailor.core.model;

import java.util.Arrays;

/**
 * A speedup curve: the speedup {@code s(d)} of a request, or the average of a workload, at each
 * degree {@code d = 1..maxDegree}, with {@code s(1) = 1}. Beyond the last degree the curve is flat.
 * Immutable.
 */
public final class SpeedupCurve {

  private final double[] speedups; // speedups[d - 1] = s(d)

  private SpeedupCurve(double[] speedups) {
    this.speedups = speedups;
  }

  /**
   * A curve from the speedups at degrees 1, 2, ...
   *
   * @throws IllegalArgumentException unless the first value is 1 and every value is finite and at
   *     least 1
   */
  public static SpeedupCurve of(double... speedups) {
    if (speedups.length == 0) {
      throw new IllegalArgumentException("a speedup curve needs at least s(1) = 1");
    }
    if (speedups[0] != 1.0) {
      throw new IllegalArgumentException("s(1) must be 1, got " + speedups[0]);
    }
    for (int i = 0; i < speedups.length; i++) {
      if (!Double.isFinite(speedups[i]) || speedups[i] < 1.0) {
        throw new IllegalArgumentException(
            "s(" + (i + 1) + ") must be a finite number >= 1, got " + speedups[i]);
      }
    }
    return new SpeedupCurve(speedups.clone());
  }

  /**
   * Parses a comma-separated list of speedups, e.g. {@code 1,1.9,2.5,3}.
   *
   * @throws IllegalArgumentException naming the value that does not parse
   */
  public static SpeedupCurve parse(String text) {
    String[] parts = text.split(",");
    double[] values = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        values[i] = Double.parseDouble(parts[i].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "speedup s(" + (i + 1) + ") '" + parts[i].trim() + "' is not a number", e);
      }
    }
    return of(values);
  }

  /** Linear speedup up to {@code maxDegree}: {@code s(d) = d}. */
  public static SpeedupCurve linear(int maxDegree) {
    double[] s = new double[maxDegree];
    for (int d = 1; d <= maxDegree; d++) {
      s[d - 1] = d;
    }
    return new SpeedupCurve(s);
  }

  /** The speedup at degree {@code d >= 1}; flat beyond {@link #maxDegree()}. */
  public double at(int d) {
    if (d < 1) {
      throw new IllegalArgumentException("degree must be >= 1, got " + d);
    }
    return speedups[Math.min(d, speedups.length) - 1];
  }

  /** The highest degree the curve gives a value for. */
  public int maxDegree() {
    return speedups.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SpeedupCurve c && Arrays.equals(speedups, c.speedups);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(speedups);
  }

  /** The curve as {@link #parse(String)} reads it. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < speedups.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      double v = speedups[i];
      sb.append(v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v));
    }
    return sb.toString();
  }
}
