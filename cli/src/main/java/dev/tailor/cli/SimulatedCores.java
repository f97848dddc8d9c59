package dev.tailor.cli;

import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/** The threads a simulated machine (in {@code aggregate}, each shard) has. */
final class SimulatedCores {

  @Option(
      names = "--cores",
      defaultValue = "16",
      showDefaultValue = Visibility.ALWAYS,
      description = "Simulated threads.")
  int cores;
}
