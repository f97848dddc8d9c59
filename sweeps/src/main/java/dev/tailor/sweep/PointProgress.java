package dev.tailor.sweep;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Counts a sweep's finished points and estimates the time left from the mean time per point so far
 * (points at higher loads may take longer; the estimate is a guide, not a promise).
 */
public final class PointProgress {
  private final int total;
  private final LongSupplier clock;
  private final long start;
  private int done;

  /** A count of {@code total} points, timed from now on the system's nanosecond clock. */
  public PointProgress(int total) {
    this(total, System::nanoTime);
  }

  /** A count of {@code total} points, timed from now on {@code clock}, in nanoseconds. */
  public PointProgress(int total, LongSupplier clock) {
    this.total = total;
    this.clock = clock;
    this.start = clock.getAsLong();
  }

  /** Notes one more point done; returns e.g. {@code point 3 of 12, about 1m20s left}. */
  public String pointDone() {
    done++;
    if (done >= total) {
      return "point " + done + " of " + total + ", the last";
    }
    long perPoint = (clock.getAsLong() - start) / done;
    return "point "
        + done
        + " of "
        + total
        + ", about "
        + left(perPoint * (total - done))
        + " left";
  }

  /** A duration rounded to the second, e.g. {@code 1h02m}, {@code 3m05s}, {@code 12s}. */
  static String left(long nanos) {
    long s = Math.round(nanos / 1e9);
    if (s >= 3600) {
      return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }
    if (s >= 60) {
      return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    return s + "s";
  }
}
