package dev.tailor.cli;

import dev.tailor.load.report.Report;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.IndexLayout;
import dev.tailor.sim.Peer;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sweep.SimulatedSweep;
import dev.tailor.sweep.SweepWorkload;
import dev.tailor.sweep.Workloads;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tailor simulate}: a sweep in the discrete-event simulator, with the same report. */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate a sweep of policies and loads on N cores, with the same report as a replay; in a"
          + " policy, {rps} stands for the point's load. The plain-Lucene peers (lucene,"
          + " lucene-executor:N, elasticsearch:N, opensearch, opensearch:auto) run beside them."
    })
final class SimulateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  WorkloadSource source;

  @Option(
      names = "--synthetic-error",
      paramLabel = "SIGMA",
      description = "Predictions off by exp(SIGMA*Z), Z normal.")
  Double syntheticError;

  @Mixin SweepOptions sweep;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--prompt-admission",
      paramLabel = "on|off",
      defaultValue = "on",
      description =
          "Whether the simulated scheduler admits arrivals promptly, as the runtime does by default"
              + " (default ${DEFAULT-VALUE}); off re-creates results simulated before it.")
  ReplayCommand.Switch promptAdmission;

  @Mixin Slack slack;

  @Mixin SimulatedCores simulated;

  @Mixin IndexSegmentsOption segments;

  @Option(
      names = "--requests",
      defaultValue = "20000",
      description = "Requests per point, 10%% of them warm-up (default ${DEFAULT-VALUE}).")
  int requests;

  @Mixin Quantum quantum;

  @Option(
      names = "--model",
      defaultValue = "fluid",
      description = "fluid or units (default ${DEFAULT-VALUE}).")
  Simulator.WorkModel model;

  @Option(
      names = "--save-profile",
      paramLabel = "FILE",
      description = "Also write the profile simulated.")
  Path saveProfile;

  @Option(
      names = "--time-scale",
      defaultValue = "1",
      paramLabel = "F",
      description = "Scale every time by F (default ${DEFAULT-VALUE}).")
  double timeScale;

  @Option(
      names = "--seeds",
      defaultValue = "1",
      paramLabel = "N",
      description = "Seeds per point (default ${DEFAULT-VALUE}).")
  int seeds;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    Usage.require(spec, seeds >= 1, "--seeds must be >= 1, got " + seeds);
    Usage.require(
        spec,
        sweep.repetitions() == 1,
        "a simulation repeats exactly: use --seeds N to repeat every point with other arrivals");
    int maxCores = simulated.cores;
    int slackThreads = slack.checked(spec, maxCores, "the cores");
    SweepWorkload read = source.read(spec, requests, maxCores, sweep.seed);
    SweepWorkload scaled = Usage.check(spec, "--time-scale: ", () -> read.scaled(timeScale));
    SweepWorkload workload =
        syntheticError == null
            ? scaled
            : Usage.check(spec, "--synthetic-error: ", () -> scaled.predicted(syntheticError));
    DemandProfile profile = workload.profile();
    Usage.check(
        spec,
        "",
        () -> {
          sweep.resolveLoads(profile, maxCores);
          return null;
        });
    List<String> policies = sweep.simulatedPolicies();
    if (saveProfile != null) {
      profile.write(saveProfile);
    }
    Usage.require(
        spec,
        model != Simulator.WorkModel.UNITS || source.parametric == null,
        "--model units needs unit times: a measured profile (--profile) or --lognormal; the"
            + " parametric profile's requests are one unit each");
    int cap = sweep.degreeCap();
    IndexLayout layout =
        policies.stream().anyMatch(Peer::isSpec) ? segments.resolve(spec, profile) : null;
    SimulatedSweep simulation =
        new SimulatedSweep(
            profile,
            workload.corpus(),
            Workloads.counted(
                    maxCores,
                    Usage.duration(spec, "--quantum", quantum.quantum),
                    requests,
                    sweep.targetNanos(),
                    model,
                    calibration.load(profile, err))
                .withPromptAdmission(promptAdmission == ReplayCommand.Switch.ON)
                .withSlack(slackThreads),
            SweepPlan.counted(sweep.arrivals, sweep.seed, requests),
            sweep.rps,
            policies,
            seeds,
            sweep.seed,
            cap,
            layout);
    List<PointResult> points = simulation.run(err);
    Path dir = sweep.reportDir("simulate");
    String summary =
        Report.write(
            dir,
            points,
            sweep.cdfLoad(),
            ReportedWorkload.of(workload.reported(), profile),
            null,
            new Report.Conditions(cap, simulation.order()).withTarget(sweep.latencyTarget()));
    PrintWriter o = spec.commandLine().getOut();
    o.println(summary);
    o.printf("report: %s%n", dir);
    o.flush();
    return 0;
  }
}
