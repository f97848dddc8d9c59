package dev.tailor.cli;

import picocli.CommandLine.Option;

/** How many requests each point of a simulated study runs, and the seed of its randomness. */
final class SimulatedPoints {

  @Option(
      names = "--requests",
      defaultValue = "20000",
      description = "Requests per point, 10%% of them warm-up (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "Seed of arrivals, request order and workload (default ${DEFAULT-VALUE}).")
  long seed;
}
