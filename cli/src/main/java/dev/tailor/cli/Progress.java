package dev.tailor.cli;

import java.util.Locale;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * Progress on standard error: bars redrawn in place on a terminal, one line every ten seconds
 * otherwise (in CI logs and pipes), with the rate in documents per second; and for sweeps, which
 * point of how many has finished and about how long the rest will take.
 */
final class Progress {

  private Progress() {}

  static ProgressBar docs(String task, long total) {
    ProgressBarBuilder b =
        new ProgressBarBuilder()
            .setTaskName(task)
            .setInitialMax(total)
            .setUnit(" docs", 1)
            .showSpeed()
            .continuousUpdate();
    if (System.console() == null) {
      b.setConsumer(new DelegatingProgressBarConsumer(System.err::println))
          .setUpdateIntervalMillis(10_000);
    }
    return b.build();
  }

  /**
   * Counts a sweep's finished points and estimates the time left from the mean time per point so
   * far (points at higher loads may take longer; the estimate is a guide, not a promise).
   */
  static final class Points {
    private final int total;
    private final LongSupplier clock;
    private final long start;
    private int done;

    /** A count of {@code total} points, timed from now on the system's nanosecond clock. */
    Points(int total) {
      this(total, System::nanoTime);
    }

    Points(int total, LongSupplier clock) {
      this.total = total;
      this.clock = clock;
      this.start = clock.getAsLong();
    }

    /** Notes one more point done; returns e.g. {@code point 3 of 12, about 1m20s left}. */
    String pointDone() {
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
}
