package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.DegreeCap;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.load.Sweep;
import dev.tailor.load.report.Report;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.HindsightOracle;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.LogNormalProfile;
import dev.tailor.sim.model.ParametricProfile;
import dev.tailor.sim.model.SyntheticPredictions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
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
      "Simulate a sweep of policies and loads on N cores from a demand profile (or the"
          + " parametric profile shaped like the Few-to-Many paper's Lucene workload), with the"
          + " same policy objects and the same report as a real replay.",
      "In a policy, {rps} stands for the point's load: tc:t-{rps}.json reads the table built for"
          + " each rate."
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
        description =
            "Tail-control's synthetic workload (Li et al., PPoPP'16, §5): --requests requests of"
                + " log-normal work, e.g. 10ms,13ms, each with Amdahl speedup for a serial"
                + " fraction SERIAL (default 0.01, near-linear; the paper's sub-linear is 0.1).")
    String lognormal;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  @Option(
      names = "--synthetic-error",
      paramLabel = "SIGMA",
      description =
          "Attach synthetic predictions to the profile: each true time times exp(SIGMA*Z), Z"
              + " standard normal, seed 1 (for a profile without queries to predict"
              + " from, such as the parametric one; 0.1 is about TPC's predictor on it).")
  Double syntheticError;

  @Mixin SweepOptions sweep;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--cores",
      defaultValue = "16",
      description = "Simulated threads (default ${DEFAULT-VALUE}).")
  int cores;

  @Option(
      names = "--requests",
      defaultValue = "20000",
      description = "Requests per point, 10%% of them warm-up (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--quantum",
      defaultValue = "5ms",
      description = "The policies' tick (default ${DEFAULT-VALUE}).")
  String quantum;

  @Option(
      names = "--model",
      defaultValue = "fluid",
      description =
          "Work model: fluid (Few-to-Many's: speedup curves, threads held to the end; the tables'"
              + " model) or units (the runtime's: units taken one at a time, helpers leave when"
              + " none is left; needs a measured profile). Default ${DEFAULT-VALUE}.")
  Simulator.WorkModel model;

  @Option(
      names = "--save-profile",
      paramLabel = "FILE",
      description =
          "Also write the profile simulated, scaled if --time-scale says so (e.g. the parametric"
              + " one, to build tables from; a scaled one for ./tailor fidelity).")
  Path saveProfile;

  @Option(
      names = "--time-scale",
      defaultValue = "1",
      paramLabel = "F",
      description =
          "Multiply every profiled time by F before simulating, as if every request did F times"
              + " the work it did alone (a diagnostic: on the TB05 demo the served P50 at light"
              + " load is twice the profiled one, but the extra time holds no core, so F = 2"
              + " saturates the simulation where the real run does not). Default"
              + " ${DEFAULT-VALUE}.")
  double timeScale;

  @Option(
      names = "--seeds",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "Simulate every point with N seeds (--seed, --seed + 1, ...: other arrivals and query"
              + " orders) as its repetitions; the summary gives the median and range over them"
              + " (default ${DEFAULT-VALUE}).")
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
    LogNormalProfile.Shape shape = null;
    if (source.lognormal != null) {
      try {
        shape = LogNormalProfile.Shape.parse(source.lognormal);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--lognormal: " + e.getMessage(), e);
      }
    }
    DemandProfile profile =
        source.profile != null
            ? DemandProfile.read(source.profile)
            : shape != null
                ? LogNormalProfile.generate(shape, requests, Math.max(cores, 16), sweep.seed)
                : ParametricProfile.generate(source.parametric, Math.max(cores, 16), sweep.seed);
    if (timeScale != 1) {
      try {
        profile = profile.scaled(timeScale);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--time-scale: " + e.getMessage(), e);
      }
    }
    if (syntheticError != null) {
      try {
        profile = SyntheticPredictions.attach(profile, syntheticError, 1);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--synthetic-error: " + e.getMessage(), e);
      }
    }
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
    Simulator.Config config =
        new Simulator.Config(
            cores,
            Durations.parseNanos(quantum),
            Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
            requests / SweepPlan.COUNTED_WARMUP_DIVISOR,
            Math.max(1_000, requests),
            sweep.targetNanos(),
            model,
            calibration.load(profile, err));
    SweepPlan plan = SweepPlan.counted(sweep.arrivals, sweep.seed, requests);
    int cap = sweep.degreeCap();
    Progress.Points progress = new Progress.Points(sweep.rps.size() * policies.size() * seeds);
    List<PointResult> points = new ArrayList<>();
    for (double rate : sweep.rps) {
      for (int s = 0; s < seeds; s++) {
        PointPlan point = plan.withSeed(sweep.seed + s).point(rate, profile.requests().size());
        for (String policy : policies) {
          PointResult p = simulate(profile, policy, config, point, corpus, cap, err);
          p = p.withRepetition(s + 1);
          points.add(p);
          err.printf(
              "  %-16s %8.1f rps%s: p50 %8.2f ms  p99 %8.2f ms%s  (%s)%n",
              Report.displayName(p.policy()),
              rate,
              seeds > 1 ? ", seed " + point.seed() : "",
              p.latencyAt("p50") / 1e6,
              p.latencyAt("p99") / 1e6,
              p.saturated() ? "  SATURATED" : "",
              progress.pointDone());
          err.flush();
        }
      }
    }
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
            new Report.Conditions(cap, seeds > 1 ? order(sweep.seed, seeds) : null)
                .withTarget(sweep.latencyTarget()));
    PrintWriter o = spec.commandLine().getOut();
    o.println(summary);
    o.printf("report: %s%n", dir);
    o.flush();
    return 0;
  }

  /**
   * Simulates one point of a policy under the sweep's degree cap; a bare {@value
   * HindsightOracle#SPEC} is tuned on the point (its trials printed), capped at the cap or else at
   * the simulated cores.
   */
  private static PointResult simulate(
      DemandProfile profile,
      String policy,
      Simulator.Config config,
      PointPlan point,
      String corpus,
      int cap,
      PrintWriter err) {
    if (HindsightOracle.isTuned(policy)) {
      HindsightOracle.Tuned tuned =
          HindsightOracle.tune(profile, config, point, corpus, cap > 0 ? cap : config.workers());
      err.printf(
          "  oracle at %.1f rps, seed %d, budgets tried: %s%n",
          point.offeredRps(), point.seed(), tuned.describe());
      return tuned.result();
    }
    String concrete = Sweep.atLoad(policy, point.offeredRps());
    Policy created = PolicyRegistry.of(concrete);
    try (Policy simulated = cap > 0 ? DegreeCap.of(created, cap) : created) {
      PointResult p = new Simulator(profile, simulated, config).run(point, corpus);
      // Reported as listed, so that one column holds the policy at every load.
      return concrete.equals(policy) ? p : p.withPolicy(p.policy().replace(concrete, policy));
    }
  }

  /** How the summary describes a simulation's repetitions. */
  static String order(long seed, int seeds) {
    return "the repetitions are seeds "
        + seed
        + "-"
        + (seed + seeds - 1)
        + " (each its own arrivals and query order); simulated points do not share a machine,"
        + " so the order they ran in does not matter";
  }
}
