package dev.tailor.cli;

import dev.tailor.sweep.PointProgress;
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

  /** A sweep's finished points and the time left ({@link PointProgress}). */
  static final class Points {
    private final PointProgress progress;

    Points(int total) {
      this.progress = new PointProgress(total);
    }

    /** Notes one more point done; returns e.g. {@code point 3 of 12, about 1m20s left}. */
    String pointDone() {
      return progress.pointDone();
    }
  }
}
