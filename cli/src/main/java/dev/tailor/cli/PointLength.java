package dev.tailor.cli;

import dev.tailor.core.Durations;
import picocli.CommandLine.Option;

/**
 * How long each point of a timed sweep runs, and how much of it is warm-up ({@code replay}, {@code
 * cluster load}).
 */
final class PointLength {

  @Option(
      names = "--duration",
      defaultValue = SweepOptions.DEFAULT_DURATION,
      description = "Each point's length, warm-up included (default ${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--warmup",
      defaultValue = SweepOptions.DEFAULT_WARMUP,
      description = "Left out of each point's figures (default ${DEFAULT-VALUE}).")
  String warmup;

  /** The point's length in nanoseconds. */
  long durationNanos() {
    return Durations.parseNanos(duration);
  }

  /** The warm-up in nanoseconds. */
  long warmupNanos() {
    return Durations.parseNanos(warmup);
  }
}
