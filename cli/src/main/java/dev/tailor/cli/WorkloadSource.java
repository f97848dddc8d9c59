package dev.tailor.cli;

import dev.tailor.sweep.SweepWorkload;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * What a simulating command runs, exactly one of: a measured profile, the Few-to-Many paper's
 * parametric requests, or tail-control's log-normal work ({@code simulate}, {@code plan}).
 */
final class WorkloadSource {
  @Option(names = "--profile", paramLabel = "FILE", description = "A demand profile.")
  Path profile;

  @Option(names = "--parametric", paramLabel = "N", description = "N paper-shaped requests.")
  Integer parametric;

  @Option(
      names = "--lognormal",
      paramLabel = "MEAN,SD[,SERIAL]",
      description = "Tail-control's log-normal work.")
  String lognormal;

  /**
   * The workload: the profile read, or the generated requests ({@code requests} of them for the
   * log-normal work, seeded), with speedup curves up to {@code maxCores}.
   *
   * @throws IOException naming the file if the profile does not read
   */
  SweepWorkload read(CommandSpec spec, int requests, int maxCores, long seed) throws IOException {
    if (profile != null) {
      return SweepWorkload.measured(profile);
    }
    if (lognormal != null) {
      return Usage.check(
          spec,
          "--lognormal: ",
          () -> SweepWorkload.lognormal(lognormal, requests, maxCores, seed));
    }
    return SweepWorkload.parametric(parametric, maxCores, seed);
  }
}
