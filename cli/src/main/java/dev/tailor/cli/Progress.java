package dev.tailor.cli;

import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * Progress bars on standard error: redrawn in place on a terminal, one line every ten seconds
 * otherwise (in CI logs and pipes), with the rate in documents per second.
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
}
