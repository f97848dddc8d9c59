package dev.tailor.cli;

import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/** How many requests each point of a simulated study runs, and the seed of its randomness. */
final class SimulatedPoints {

  @Option(
      names = "--requests",
      defaultValue = "20000",
      showDefaultValue = Visibility.ALWAYS,
      description = "Requests per point, 10%% of them warm-up.")
  int requests;

  @Option(
      names = "--seed",
      defaultValue = "1",
      showDefaultValue = Visibility.ALWAYS,
      description = "Seed of arrivals, request order and workload.")
  long seed;
}
