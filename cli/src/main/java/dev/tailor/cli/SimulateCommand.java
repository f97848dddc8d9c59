package dev.tailor.cli;

import dev.tailor.load.report.Report;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.HindsightOracle;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.LogNormalProfile;
import dev.tailor.sim.model.SyntheticPredictions;
import dev.tailor.studies.SimulatedSweep;
import dev.tailor.studies.Workloads;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tailor simulate}: a sweep in the discrete-event simulator, with the same report. */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate a sweep of policies and loads on N cores, with the same report as a replay; in a"
          + " policy, {rps} stands for the point's load."
    })
final class SimulateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  static final class Source {
    @Option(
        names = "--profile",
        paramLabel = "FILE",
        description = "A demand profile (./tailor profile).")
    Path profile;

    @Option(
        names = "--parametric",
        paramLabel = "N",
        description = "N requests of the paper-shaped parametric profile.")
    Integer parametric;

    @Option(
        names = "--lognormal",
        paramLabel = "MEAN,SD[,SERIAL]",
        description = "--requests requests of tail-control's log-normal work, e.g. 10ms,13ms.")
    String lognormal;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  @Option(
      names = "--synthetic-error",
      paramLabel = "SIGMA",
      description = "Attach synthetic predictions: each true time times exp(SIGMA*Z), Z normal.")
  Double syntheticError;

  @Mixin SweepOptions sweep;

  @Mixin CalibrationOption calibration;

  @Mixin SimulatedCores simulated;

  @Option(
      names = "--requests",
      defaultValue = "20000",
      description = "Requests per point, 10%% of them warm-up (default ${DEFAULT-VALUE}).")
  int requests;

  @Mixin Quantum quantum;

  @Option(
      names = "--model",
      defaultValue = "fluid",
      description =
          "Work model: fluid (Few-to-Many's) or units (the runtime's; needs unit times). Default"
              + " ${DEFAULT-VALUE}.")
  Simulator.WorkModel model;

  @Option(
      names = "--save-profile",
      paramLabel = "FILE",
      description = "Also write the profile simulated, scaled if --time-scale says so.")
  Path saveProfile;

  @Option(
      names = "--time-scale",
      defaultValue = "1",
      paramLabel = "F",
      description =
          "Multiply every profiled time by F before simulating (default ${DEFAULT-VALUE}).")
  double timeScale;

  @Option(
      names = "--seeds",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "Repeat every point with seeds --seed, --seed + 1, ... (default ${DEFAULT-VALUE}).")
  int seeds;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    List<String> policies = sweep.policies();
    if (seeds < 1) {
      throw new ParameterException(spec.commandLine(), "--seeds must be >= 1, got " + seeds);
    }
    if (sweep.repetitions() > 1) {
      throw new ParameterException(
          spec.commandLine(),
          "a simulation repeats exactly: use --seeds N to repeat every point with other arrivals");
    }
    LogNormalProfile.Shape shape =
        source.lognormal == null
            ? null
            : Usage.check(
                spec, "--lognormal: ", () -> LogNormalProfile.Shape.parse(source.lognormal));
    int maxCores = simulated.cores;
    DemandProfile read =
        source.profile != null
            ? DemandProfile.read(source.profile)
            : shape != null
                ? Workloads.lognormal(source.lognormal, requests, maxCores, sweep.seed)
                : Workloads.synthetic("parametric", source.parametric, maxCores, sweep.seed);
    DemandProfile scaled =
        timeScale == 1 ? read : Usage.check(spec, "--time-scale: ", () -> read.scaled(timeScale));
    DemandProfile profile =
        syntheticError == null
            ? scaled
            : Usage.check(
                spec,
                "--synthetic-error: ",
                () -> SyntheticPredictions.attach(scaled, syntheticError, 1));
    if (saveProfile != null) {
      profile.write(saveProfile);
    }
    String corpus =
        source.profile != null
            ? "profile "
                + source.profile.getFileName()
                + " of "
                + profile.environment().indexLabel()
            : shape != null
                ? shape.describe() + " (synthetic)"
                : "parametric profile shaped like the FM paper's Lucene workload (synthetic)";
    if (timeScale != 1) {
      corpus += String.format(Locale.ROOT, ", every time x%s", timeScale);
    }
    if (model == Simulator.WorkModel.UNITS && source.parametric != null) {
      throw new ParameterException(
          spec.commandLine(),
          "--model units needs unit times: a measured profile (--profile) or --lognormal; the"
              + " parametric profile's requests are one unit each");
    }
    int cap = sweep.degreeCap();
    SimulatedSweep simulation =
        new SimulatedSweep(
            profile,
            corpus,
            Workloads.counted(
                maxCores,
                Usage.duration(spec, "--quantum", quantum.quantum),
                requests,
                sweep.targetNanos(),
                model,
                calibration.load(profile, err)),
            SweepPlan.counted(sweep.arrivals, sweep.seed, requests),
            sweep.rps,
            policies,
            seeds,
            sweep.seed,
            cap);
    Progress.Points progress = new Progress.Points(simulation.size());
    List<PointResult> points =
        simulation.run(
            new SimulatedSweep.Listener() {
              @Override
              public void tuned(PointPlan point, HindsightOracle.Tuned tuned) {
                err.printf(
                    "  oracle at %.1f rps, seed %d, budgets tried: %s%n",
                    point.offeredRps(), point.seed(), tuned.describe());
              }

              @Override
              public void done(PointPlan point, PointResult p) {
                err.printf(
                    "  %-16s %8.1f rps%s: p50 %8.2f ms  p99 %8.2f ms%s  (%s)%n",
                    Report.displayName(p.policy()),
                    point.offeredRps(),
                    seeds > 1 ? ", seed " + point.seed() : "",
                    p.latencyAt("p50") / 1e6,
                    p.latencyAt("p99") / 1e6,
                    p.saturated() ? "  SATURATED" : "",
                    progress.pointDone());
                err.flush();
              }
            });
    Path dir = sweep.reportDir("simulate");
    String summary =
        Report.write(
            dir,
            points,
            sweep.cdfLoad(),
            ReportedWorkload.of(
                source.profile != null
                    ? "profile " + source.profile.getFileName()
                    : shape != null
                        ? "the " + shape.describe() + " workload (synthetic)"
                        : "the parametric profile (synthetic)",
                profile),
            null,
            new Report.Conditions(cap, simulation.order()).withTarget(sweep.latencyTarget()));
    PrintWriter o = spec.commandLine().getOut();
    o.println(summary);
    o.printf("report: %s%n", dir);
    o.flush();
    return 0;
  }
}
