package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.load.fidelity.FidelityReport;
import dev.tailor.load.fidelity.FidelityTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tailor fidelity}: how far to trust the simulator. For every measured point of a replay's
 * report it simulates the same profile, policy, rate, arrival sequence and query order, and prints
 * the simulated P50 and P99 beside the measured ones, with their relative error, and given a
 * latency target the replay recorded, the miss ratio at it.
 */
@Command(
    name = "fidelity",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate every measured point of a replay's report with the same profile, policy, rate,"
          + " arrival seed and query order, and print simulated and measured P50 and P99 side"
          + " by side with their error (also written to the report as fidelity.md); with"
          + " --target, the share of requests slower than it too.",
      "The profile must be of the replayed queries (the same trace and --limit), as the demo's"
          + " is: a profile of another trace is refused. --duration and --warmup must be the"
          + " replay's."
    })
final class FidelityCommand implements Callable<Integer> {

  /** The policies' default tick, the runtime scheduler's. */
  static final String DEFAULT_QUANTUM = "5ms";

  @Spec CommandSpec spec;

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

  @Option(
      names = "--duration",
      defaultValue = SweepOptions.DEFAULT_DURATION,
      description = "The replay's point length, as replay's default (${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--warmup",
      defaultValue = SweepOptions.DEFAULT_WARMUP,
      description = "The replay's warm-up, as replay's default (${DEFAULT-VALUE}).")
  String warmup;

  @Option(
      names = "--arrivals",
      defaultValue = SweepOptions.DEFAULT_ARRIVALS,
      description = "The replay's arrival process (default ${DEFAULT-VALUE}).")
  String arrivals;

  @Option(
      names = "--cores",
      description = "Simulated threads (default: the cores the profile was taken on).")
  Integer cores;

  @Option(
      names = "--quantum",
      defaultValue = DEFAULT_QUANTUM,
      description =
          "The policies' tick, as the replay's scheduler had it (default ${DEFAULT-VALUE}).")
  String quantum;

  @Option(
      names = "--target",
      paramLabel = "DURATION",
      converter = LatencyTarget.class,
      description =
          "A latency target the replay recorded (replay --target or --targets), e.g. 20ms: the"
              + " table also gives the share of requests slower than it, simulated beside"
              + " measured. Default: none.")
  Long target;

  @Mixin CalibrationOption calibration;

  @Override
  public Integer call() throws Exception {
    SweepPlan plan =
        SweepPlan.timed(arrivals, 0, Durations.parseNanos(duration), Durations.parseNanos(warmup));
    long quantumNanos = Durations.parseNanos(quantum);
    PrintWriter err = spec.commandLine().getErr();
    FidelityReport.Written written;
    try {
      // The profile is read here only to check a calibration against it; without one, the report
      // directory is checked first, so that an empty directory is named before a missing profile.
      Calibration charged =
          calibration.given() ? calibration.load(DemandProfile.read(profile), err) : null;
      written =
          FidelityReport.write(
              report, profile, plan, cores, quantumNanos, target == null ? 0 : target, charged);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    String warning = FidelityReport.mismatchWarning(written.comparison());
    if (warning != null) {
      err.println(warning);
    }
    if (target != null && !FidelityTable.recordsTarget(written.comparison(), target)) {
      err.printf(
          "warning: the report's points did not record misses at %s, so the table has none;"
              + " replay with --target %s%n",
          Durations.format(target), Durations.format(target));
    }
    err.flush();
    PrintWriter out = spec.commandLine().getOut();
    out.print(written.table());
    out.printf("written to %s%n", written.file());
    out.flush();
    return 0;
  }
}
