package dev.tailor.cli;

import picocli.CommandLine.Option;

/** The threads a simulated machine (in {@code aggregate}, each shard) has. */
final class SimulatedCores {

  @Option(
      names = "--cores",
      defaultValue = "16",
      description = "Simulated threads (default ${DEFAULT-VALUE}).")
  int cores;
}
