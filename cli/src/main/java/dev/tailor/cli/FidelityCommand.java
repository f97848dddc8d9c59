package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.load.fidelity.FidelityReport;
import dev.tailor.load.fidelity.FidelityTable;
import dev.tailor.load.fidelity.MeasuredReport;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tailor fidelity}: how far to trust the simulator ({@link FidelityReport}): every measured
 * point of a replay's report simulated as it was replayed, beside what was measured.
 */
@Command(
    name = "fidelity",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate every measured point of a replay's report as it was replayed, and print simulated"
          + " beside measured P50 and P99 (also the report's fidelity.md), each cell's pooled"
          + " figures against the measured interval, and the rank agreement over the pairs the"
          + " replay resolves; --duration (or --requests-per-point) and --warmup must be the"
          + " replay's."
    })
final class FidelityCommand implements Callable<Integer> {

  /** The policies' default tick, the runtime scheduler's. */
  static final String DEFAULT_QUANTUM = "5ms";

  @Spec CommandSpec spec;

  @Mixin ReplayedRun replayed;

  @Mixin PointLength length;

  @Option(
      names = "--arrivals",
      defaultValue = SweepOptions.DEFAULT_ARRIVALS,
      description = "The replay's arrival process (default ${DEFAULT-VALUE}).")
  String arrivals;

  @Option(
      names = "--cores",
      description =
          "Simulated threads (default: the worker count of a report from a sweep of worker counts,"
              + " else the profile's cores).")
  Integer cores;

  @Mixin Quantum quantum;

  @Option(
      names = "--target",
      paramLabel = "DURATION",
      converter = LatencyTarget.class,
      description = "A latency target the replay recorded: the table adds its miss ratios.")
  Long target;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--seeds",
      defaultValue = "" + DEFAULT_SEEDS,
      paramLabel = "N",
      description =
          "Arrival seeds each cell is simulated with, the replay's first (default"
              + " ${DEFAULT-VALUE}).")
  int seeds;

  @Option(
      names = "--at-run-speed",
      defaultValue = "on",
      paramLabel = "on|off",
      description =
          "Carry the calibration to the machine's speed when each run ran, by the speed probes the"
              + " runs and the calibration carry (default ${DEFAULT-VALUE}); off uses it as"
              + " measured.")
  ReplayCommand.Switch atRunSpeed;

  /** The arrival seeds a cell is simulated with unless {@code --seeds} says otherwise. */
  static final int DEFAULT_SEEDS = 5;

  @Override
  public Integer call() throws Exception {
    // A replay sized by requests split them between its runs: as many runs as its points say.
    int repetitions =
        length.timed()
            ? 1
            : MeasuredReport.read(replayed.report).points().stream()
                .mapToInt(PointResult::repetition)
                .max()
                .orElse(1);
    SweepPlan plan = Usage.check(spec, "", () -> length.plan(arrivals, 0, repetitions));
    long quantumNanos = Usage.duration(spec, "--quantum", quantum.quantum);
    Usage.require(spec, seeds >= 1, "--seeds must be >= 1, got " + seeds);
    PrintWriter err = spec.commandLine().getErr();
    FidelityReport.Written written;
    try {
      // The profile is read here only to check a calibration against it; without one, the report
      // directory is checked first, so that an empty directory is named before a missing profile.
      Calibration charged =
          calibration.given() ? calibration.load(DemandProfile.read(replayed.profile), err) : null;
      written =
          FidelityReport.write(
              replayed.report,
              replayed.profile,
              plan,
              cores,
              quantumNanos,
              target == null ? 0 : target,
              charged,
              atRunSpeed == ReplayCommand.Switch.ON,
              seeds);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    Optional.ofNullable(FidelityReport.mismatchWarning(written.comparison()))
        .ifPresent(err::println);
    if (target != null && !FidelityTable.recordsTarget(written.comparison(), target)) {
      err.printf(
          "warning: the report's points did not record misses at %s, so the table has none;"
              + " replay with --target %s%n",
          Durations.format(target), Durations.format(target));
    }
    err.flush();
    spec.commandLine()
        .getOut()
        .printf("%swritten to %s%n", written.table(), written.file())
        .flush();
    return 0;
  }
}
