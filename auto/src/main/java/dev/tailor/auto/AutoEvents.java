package dev.tailor.auto;

import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** The JFR events of {@code auto}: each rebuild, with what it compared and decided. */
final class AutoEvents {

  private AutoEvents() {}

  @Name("dev.tailor.AutoRebuild")
  @Label("Auto Rebuild")
  @Category({"Tailor"})
  static final class Rebuilt extends Event {
    @Label("Samples")
    int samples;

    @Label("Arrival Rate (rps)")
    double rateRps;

    @Label("Chosen")
    String chosen;

    @Label("Swapped")
    boolean swapped;

    @Label("Live Policy After")
    String live;

    @Label("Reason")
    String reason;

    @Label("CPU Time")
    @Timespan
    long cpuNanos;
  }

  @Name("dev.tailor.AutoRebuildFailed")
  @Label("Auto Rebuild Failed")
  @Category({"Tailor"})
  static final class Failed extends Event {
    @Label("Failure")
    String failure;
  }

  static void rebuilt(AutoStatus.Verdict v, String liveAfter) {
    Rebuilt e = new Rebuilt();
    if (e.isEnabled()) {
      e.samples = v.samples();
      e.rateRps = v.rateRps();
      e.chosen = v.chosen();
      e.swapped = v.swapped();
      e.live = liveAfter;
      e.reason = v.reason();
      e.cpuNanos = v.cpuNanos();
      e.commit();
    }
  }

  static void failed(String failure) {
    Failed e = new Failed();
    if (e.isEnabled()) {
      e.failure = failure;
      e.commit();
    }
  }
}
