package dev.tailor.measure;

import java.util.Locale;

/**
 * A figure with its 95% confidence interval: a pooled percentile, or the ratio of two ({@link
 * PooledLatency}). The interval is NaN at both ends where the runs cannot give one (a single run);
 * the value itself is NaN where there is no figure at all (no request, or too few for the
 * percentile, see {@link PooledLatency#MIN_REQUESTS_ABOVE_P90}).
 *
 * @param value the point estimate: of a pooled percentile, the merged histogram's; of a ratio, the
 *     ratio of the two pooled percentiles
 * @param low the interval's lower end, or NaN
 * @param high the interval's upper end, or NaN
 */
public record Estimate(double value, double low, double high) {

  /** No figure at all. */
  public static final Estimate NONE = new Estimate(Double.NaN, Double.NaN, Double.NaN);

  /** How a ratio compares with 1, beyond its interval or not. */
  public enum Verdict {
    /** The whole interval lies below 1: the numerator is lower (faster). */
    BETTER("better"),
    /** The whole interval lies above 1. */
    WORSE("worse"),
    /** The interval holds 1: nothing can be said. */
    SAME("~"),
    /** No interval to judge by. */
    NONE("");

    private final String mark;

    Verdict(String mark) {
      this.mark = mark;
    }

    /** How tables mark it: {@code better}, {@code worse}, {@code ~} or nothing. */
    public String mark() {
      return mark;
    }
  }

  /** Whether there is a figure. */
  public boolean known() {
    return !Double.isNaN(value);
  }

  /** Whether there is an interval. */
  public boolean hasInterval() {
    return !Double.isNaN(low) && !Double.isNaN(high);
  }

  /** Whether the interval holds {@code x}; false without an interval. */
  public boolean holds(double x) {
    return hasInterval() && low <= x && x <= high;
  }

  /** Whether this interval and {@code other} share a value; false where either has none. */
  public boolean overlaps(Estimate other) {
    return hasInterval() && other.hasInterval() && low <= other.high && other.low <= high;
  }

  /**
   * Half the interval's width as a fraction of the value ({@code (high - low) / 2 / value}), or NaN
   * without an interval.
   */
  public double relativeHalfWidth() {
    return hasInterval() && value != 0 ? (high - low) / 2 / value : Double.NaN;
  }

  /**
   * As a ratio: better or worse where the interval excludes 1, the same ({@code ~}) where it holds
   * it, none without an interval.
   */
  public Verdict verdict() {
    if (!known() || !hasInterval()) {
      return Verdict.NONE;
    }
    if (high < 1) {
      return Verdict.BETTER;
    }
    if (low > 1) {
      return Verdict.WORSE;
    }
    return Verdict.SAME;
  }

  /** The same estimate with every figure multiplied by {@code factor} (a unit's change). */
  public Estimate times(double factor) {
    return new Estimate(value * factor, low * factor, high * factor);
  }

  /**
   * The estimate as text, each figure with {@code format} ({@code "%.2f"}): {@code 12.30
   * [11.80-13.10]}, just the value without an interval, {@code -} without a value.
   */
  public String format(String format) {
    if (!known()) {
      return "-";
    }
    String v = String.format(Locale.ROOT, format, value);
    if (!hasInterval()) {
      return v;
    }
    return v
        + " ["
        + String.format(Locale.ROOT, format, low)
        + "-"
        + String.format(Locale.ROOT, format, high)
        + "]";
  }
}
