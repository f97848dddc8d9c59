package dev.tailor.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** A replay's report and the demand profile of the queries it replayed. */
final class ReplayedRun {

  @Option(
      names = "--report",
      required = true,
      paramLabel = "DIR",
      description = "A replay's report directory (with points/*.json).")
  Path report;

  @Option(
      names = "--profile",
      required = true,
      paramLabel = "FILE",
      description = "The demand profile of the replayed queries.")
  Path profile;
}
