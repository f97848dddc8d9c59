package dev.tailor.cli;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.model.LogNormalProfile;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The workload of a simulated study ({@code classes}, {@code budget}): a measured demand profile
 * with unit times, or tail-control's synthetic log-normal workload.
 */
final class StudyWorkload {

  @Option(
      names = "--profile",
      paramLabel = "FILE",
      description = "A demand profile with unit times (./tailor profile); default: --lognormal.")
  Path profile;

  @Option(
      names = "--lognormal",
      paramLabel = "MEAN,SD[,SERIAL]",
      defaultValue = "10ms,13ms",
      description =
          "Tail-control's synthetic workload (Li et al., PPoPP'16, §5) when no --profile is"
              + " given (default ${DEFAULT-VALUE}).")
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
      return LogNormalProfile.generate(
          LogNormalProfile.Shape.parse(lognormal), requests, Math.max(maxCores, 16), seed);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(cli, "--lognormal: " + e.getMessage(), e);
    }
  }
}
