package dev.tailor.cli;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sweep.Workloads;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The workload of a simulated study ({@code classes}, {@code budget}): a measured demand profile
 * with unit times, or tail-control's synthetic log-normal workload.
 */
final class StudyWorkload {

  @Option(names = "--profile", paramLabel = "FILE", description = "A profile with unit times.")
  Path profile;

  @Option(
      names = "--lognormal",
      paramLabel = "MEAN,SD[,SERIAL]",
      defaultValue = Workloads.DEFAULT_LOGNORMAL,
      showDefaultValue = Visibility.ALWAYS,
      description = "Tail-control's log-normal work, without --profile.")
  String lognormal;

  /**
   * The profile, or {@code requests} seeded log-normal requests with speedup curves up to {@code
   * maxCores} threads (at least 16).
   *
   * @throws ParameterException naming {@code --lognormal} if its shape is bad
   */
  DemandProfile demand(CommandLine cli, int requests, int maxCores, long seed) throws IOException {
    if (profile != null) {
      return DemandProfile.read(profile);
    }
    try {
      return Workloads.lognormal(lognormal, requests, maxCores, seed);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(cli, "--lognormal: " + e.getMessage(), e);
    }
  }
}
