package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.sim.arrival.SweepPlan;
import picocli.CommandLine.Option;

/**
 * How long each point of a timed sweep runs, and how much of it is warm-up ({@code replay}, {@code
 * fidelity}, {@code cluster load}). A replay's points are sized by answered requests by default
 * ({@code --requests-per-point}), so that a point's P99 rests on as many requests at every load; a
 * {@code --duration} makes every point last that long instead.
 */
final class PointLength {

  /**
   * The measured requests a point gets over its runs by default: a P99 then rests on 20 slower
   * requests, an interval of a few percent rather than the slowest two or three of a short run.
   */
  static final int DEFAULT_REQUESTS_PER_POINT = 2_000;

  @Option(
      names = "--duration",
      description =
          "Each run's length, warm-up included; default: sized by --requests-per-point ("
              + SweepOptions.DEFAULT_DURATION
              + " for cluster load).")
  String duration;

  @Option(
      names = "--requests-per-point",
      paramLabel = "N",
      defaultValue = "" + DEFAULT_REQUESTS_PER_POINT,
      description =
          "Measured requests each point gets over its runs, split evenly between them, unless"
              + " --duration is given (default ${DEFAULT-VALUE}: a P99 on 20 slower requests).")
  int requestsPerPoint;

  @Option(
      names = "--warmup",
      defaultValue = SweepOptions.DEFAULT_WARMUP,
      description = "Left out of each run's figures (default ${DEFAULT-VALUE}).")
  String warmup;

  /** Whether points last a given time ({@code --duration}) rather than a number of requests. */
  boolean timed() {
    return duration != null;
  }

  /** A timed point's length in nanoseconds: {@code --duration}, else the default length. */
  long durationNanos() {
    return Durations.parseNanos(duration != null ? duration : SweepOptions.DEFAULT_DURATION);
  }

  /** The warm-up in nanoseconds. */
  long warmupNanos() {
    return Durations.parseNanos(warmup);
  }

  /**
   * The measured requests of each run of a point: {@code --requests-per-point} split between {@code
   * repetitions} runs, rounded up.
   *
   * @throws IllegalArgumentException if {@code --requests-per-point} is below 1
   */
  int requestsPerRun(int repetitions) {
    if (requestsPerPoint < 1) {
      throw new IllegalArgumentException(
          "--requests-per-point must be >= 1, got " + requestsPerPoint);
    }
    return (requestsPerPoint + repetitions - 1) / repetitions;
  }

  /** The plan of every point: timed with {@code --duration}, else sized by requests. */
  SweepPlan plan(String arrivals, long seed, int repetitions) {
    return timed()
        ? SweepPlan.timed(arrivals, seed, durationNanos(), warmupNanos())
        : SweepPlan.sized(arrivals, seed, requestsPerRun(repetitions), warmupNanos());
  }

  /** How the plan's length reads in a progress line, e.g. {@code 400 requests per run}. */
  String describe(int repetitions) {
    return timed()
        ? duration + " each (" + warmup + " warm-up)"
        : requestsPerRun(repetitions)
            + " measured requests per run ("
            + requestsPerPoint
            + " per point) after "
            + warmup
            + " warm-up";
  }
}
