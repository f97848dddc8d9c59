package dev.tailor.cli;

import dev.tailor.core.Scheduler;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The threads a scheduler, real or simulated, lends helpers beyond its cores under prompt
 * admission, as {@code Scheduler.Builder.slack} sets them.
 */
final class Slack {

  @Option(
      names = "--slack",
      paramLabel = "N",
      defaultValue = "" + Scheduler.DEFAULT_SLACK,
      description =
          "Threads the scheduler lends helpers beyond the cores under prompt admission (default"
              + " ${DEFAULT-VALUE}), time-sliced over them; 0 keeps every thread within the cores.")
  int threads;

  /**
   * The slack, or a usage error naming the option unless it is in [0, {@code most}].
   *
   * @param of what {@code most} counts, for the message ("the cores", say)
   */
  int checked(CommandSpec spec, int most, String of) {
    Usage.require(
        spec,
        threads >= 0 && threads <= most,
        "--slack must be in [0, " + most + "] (" + of + "), got " + threads);
    return threads;
  }
}
