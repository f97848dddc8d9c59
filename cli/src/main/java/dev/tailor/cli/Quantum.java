package dev.tailor.cli;

import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/** The simulated policies' tick, as the runtime scheduler's quantum. */
final class Quantum {

  @Option(
      names = "--quantum",
      defaultValue = FidelityCommand.DEFAULT_QUANTUM,
      showDefaultValue = Visibility.ALWAYS,
      description = "The policies' tick, as the scheduler's.")
  String quantum;
}
