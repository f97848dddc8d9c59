package dev.tailor.cli;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PolicySpec;
import dev.tailor.core.policy.ProgressPolicy;
import dev.tailor.core.table.Digests;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TargetTable;
import dev.tailor.load.Sweep;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sweep.Workloads;
import dev.tailor.tables.FmRuleCandidates;
import dev.tailor.tables.FmTableTuner;
import dev.tailor.tables.ProgressTableTuner;
import dev.tailor.tables.TableText;
import dev.tailor.tables.TpcTableBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tables tune KIND}: a table's inputs chosen by simulation, then the table. */
@Command(
    name = "tune",
    mixinStandardHelpOptions = true,
    description = "Choose a table's inputs by simulation, then build it.",
    subcommands = {TablesTuneCommand.Fm.class, TablesTuneCommand.Progress.class})
final class TablesTuneCommand extends GroupCommand {

  /** A usage error naming {@code option} unless the work model can run on the profile. */
  static void checkModel(
      CommandSpec spec, String option, Simulator.WorkModel model, DemandProfile demand) {
    if (model == Simulator.WorkModel.UNITS && !demand.requests().get(0).hasUnitTimes()) {
      throw new ParameterException(
          spec.commandLine(), option + " units needs a profile with unit times");
    }
  }

  /** {@code tables tune fm}: the Few-to-Many rule's inputs, tuned and checked, then the table. */
  @Command(
      name = "fm",
      mixinStandardHelpOptions = true,
      description = {
        "Choose the rule's inputs of a Few-to-Many table (utilization and queue factor under the"
            + " throughput rule, target parallelism under the paper's) by simulating each"
            + " candidate's table on half the profile at the given loads against the baselines,"
            + " checking the best on the other half with another seed, then build the table"
            + " from the whole profile with the chosen inputs, which it records."
      })
  static final class Fm implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin FmTableOptions grid;

    @Mixin CalibrationOption calibration;

    @Option(
        names = "--rps",
        split = ",",
        required = true,
        description = "The loads to tune at, requests per second, e.g. 20,40,60.")
    List<Double> rps;

    @Option(
        names = "--utilizations",
        split = ",",
        defaultValue = "0.8,0.9,1.0",
        description = "Throughput mode: the utilizations to try (default ${DEFAULT-VALUE}).")
    List<Double> utilizations;

    @Option(
        names = "--queue-factors",
        split = ",",
        defaultValue = "1.0,1.2,1.4,1.6",
        description = "Throughput mode: the queue factors to try (default ${DEFAULT-VALUE}).")
    List<Double> queueFactors;

    @Option(
        names = "--target-parallelisms",
        split = ",",
        description = "Paper mode: the target parallelisms to try (default: 0.75-2 x cores).")
    List<Double> targets;

    @Option(
        names = "--policy",
        defaultValue = "fm-wc",
        description = "The policy that reads the table: fm-wc or fm (default ${DEFAULT-VALUE}).")
    String policy;

    @Option(
        names = "--baselines",
        defaultValue = "seq,fixed:2,adaptive,wq-linear",
        description = "The baselines to beat (default ${DEFAULT-VALUE}).")
    String baselines;

    @Option(
        names = "--requests",
        defaultValue = "20000",
        description = "Simulated requests per point (default ${DEFAULT-VALUE}).")
    int requests;

    @Option(
        names = "--seed",
        defaultValue = "1",
        description = "The split's and the tuning arrivals' seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--model",
        defaultValue = "fluid",
        description = "The simulator's work model: fluid or units (default ${DEFAULT-VALUE}).")
    Simulator.WorkModel model;

    @Option(
        names = "--quantum",
        defaultValue = "5ms",
        description = "The policies' tick in the simulation (default ${DEFAULT-VALUE}).")
    String quantum;

    @Override
    public Integer call() throws IOException {
      PrintWriter err = spec.commandLine().getErr();
      PrintWriter o = spec.commandLine().getOut();
      List<IntervalTable.Rule> candidates;
      try {
        candidates =
            grid.paper(spec)
                ? FmRuleCandidates.paper(targets, grid.cores)
                : FmRuleCandidates.throughput(utilizations, queueFactors);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage(), e);
      }
      DemandProfile demand = DemandProfile.read(grid.profile);
      checkModel(spec, "--model", model, demand);
      Simulator.Config sim =
          Workloads.counted(
              grid.cores,
              FmTableOptions.duration(spec, "--quantum", quantum),
              requests,
              List.of(),
              model,
              calibration.load(demand, err));
      FmTableTuner.Plan plan;
      try {
        plan =
            new FmTableTuner.Plan(
                grid.options(spec, candidates.get(0)),
                candidates,
                policy,
                PolicyRegistry.standard().splitList(baselines),
                rps,
                sim,
                requests,
                seed);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage(), e);
      }
      err.printf(
          "tuning %s on %d candidates x %d loads, %d cores, degree cap %d, %s model%n",
          policy, candidates.size(), rps.size(), grid.cores, grid.maxDegree, model);
      err.flush();
      o.println("P99 over the best baseline, per load, on the tuning half:");
      FmTableTuner.Tuned tuned =
          new FmTableTuner(plan)
              .tune(
                  demand,
                  grid.profile.toString(),
                  Digests.sha256(grid.profile),
                  t -> {
                    o.println("  " + t.describe());
                    o.flush();
                  });
      o.println("chosen:   " + tuned.chosen().describe());
      o.println("on the other half, another seed:");
      o.println("  " + tuned.check().describe());
      tuned.table().write(grid.out);
      TableText.print(tuned.table(), o);
      o.printf("wrote %s%n", grid.out);
      o.flush();
      return 0;
    }
  }

  /**
   * {@code tables tune progress}: the progress-aware policy's table inputs, tuned and checked, then
   * the tables.
   */
  @Command(
      name = "progress",
      mixinStandardHelpOptions = true,
      description = {
        "Choose the inputs of the progress-aware policy's tables (the target table's load metric,"
            + " and the latency target its threshold tables are built for, or none) by building"
            + " each candidate's tables from half the profile and simulating its policy there at"
            + " the --rps loads against the baselines, checking the best on the other half with"
            + " another seed, then build the tables from the whole profile with the chosen"
            + " inputs.",
        "Writes PREFIX.targets.json, PREFIX.thresholds-RPS.json per load unless the choice is"
            + " none, and PREFIX.tuning.json (the candidates' scores and the choice); prints the"
            + " policy to run."
      })
  static final class Progress implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--profile", required = true, paramLabel = "FILE", description = "The profile.")
    Path profile;

    @Option(
        names = "--out",
        required = true,
        paramLabel = "PREFIX",
        description = "The files' prefix: PREFIX.targets.json and so on.")
    String out;

    @Mixin TpcTableOptions tpc;

    @Mixin CalibrationOption calibration;

    @Option(
        names = "--load-metrics",
        split = ",",
        defaultValue = "long-threads,all-threads",
        paramLabel = "METRIC",
        description = "The target table's load metrics to try (default ${DEFAULT-VALUE}).")
    List<String> loadMetrics;

    @Option(
        names = "--serialize-targets",
        split = ",",
        defaultValue = "none,3x,5x,10x",
        paramLabel = "TARGET",
        description =
            "The serialization latency targets to try: durations, none, or multiples of the"
                + " tuning half's median sequential time such as 3x (default ${DEFAULT-VALUE}).")
    List<String> serializeTargets;

    @Option(
        names = "--baselines",
        defaultValue = "seq,fixed:2,adaptive,wq-linear,steal-first",
        paramLabel = "POLICIES",
        description = "The baselines to beat (default ${DEFAULT-VALUE}).")
    String baselines;

    @Option(
        names = "--requests",
        defaultValue = "20000",
        paramLabel = "N",
        description = "Simulated requests per scored point (default ${DEFAULT-VALUE}).")
    int requests;

    @Option(
        names = "--build-requests",
        defaultValue = "4000",
        paramLabel = "N",
        description =
            "Simulated requests per point while building a target table (default"
                + " ${DEFAULT-VALUE}).")
    int buildRequests;

    @Option(
        names = "--seed",
        defaultValue = "1",
        paramLabel = "S",
        description =
            "The split's, the tuning arrivals' and the builds' seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() throws IOException {
      PrintWriter err = spec.commandLine().getErr();
      PrintWriter o = spec.commandLine().getOut();
      DemandProfile demand = DemandProfile.read(profile);
      checkModel(spec, "--model-of-work", tpc.workModel, demand);
      Simulator.Config sim =
          Workloads.counted(
              tpc.cores,
              Scheduler.DEFAULT_QUANTUM_NANOS,
              requests,
              List.of(),
              tpc.workModel,
              calibration.load(demand, err));
      TpcTableBuilder.Options targets =
          tpc.options(spec, buildRequests, seed, TargetTable.LoadMetric.LONG_THREADS);
      ProgressTableTuner.Plan plan =
          Usage.check(
              spec,
              () ->
                  new ProgressTableTuner.Plan(
                      targets,
                      loadMetrics,
                      serializeTargets,
                      PolicyRegistry.standard().splitList(baselines),
                      sim,
                      requests,
                      seed));
      demand = tpc.predicted(spec, demand);
      TpcTableBuilder.Sources sources = tpc.sources(profile, demand);
      err.printf(
          "tuning progress on %d load metrics x %d serialization targets x %d loads, %d cores,"
              + " degree cap %d, %s model%n",
          loadMetrics.size(),
          serializeTargets.size(),
          plan.rps().size(),
          tpc.cores,
          tpc.maxDegree,
          tpc.workModel);
      err.flush();
      o.println("P99 over the best baseline, per load, on the tuning half:");
      ProgressTableTuner.Tuned tuned =
          new ProgressTableTuner(plan)
              .tune(
                  demand,
                  sources,
                  t -> {
                    o.println("  " + t.describe());
                    o.flush();
                  });
      o.println("chosen:   " + tuned.tuning().chosen().describe());
      o.println("on the other half, another seed:");
      o.println("  " + tuned.tuning().check().describe());
      Path targetsFile = Path.of(out + ".targets.json");
      String thresholds = out + ".thresholds-" + Sweep.LOAD + ".json";
      Path tuningFile = Path.of(out + ".tuning.json");
      tuned.write(targetsFile, rps -> Path.of(Sweep.atLoad(thresholds, rps)), tuningFile);
      TableText.print(tuned.targets(), o);
      o.printf("wrote %s%n", targetsFile);
      if (!tuned.thresholds().isEmpty()) {
        for (double rps : plan.rps()) {
          o.printf("wrote %s%n", Sweep.atLoad(thresholds, rps));
        }
      }
      o.printf("wrote %s%n", tuningFile);
      PolicySpec policy =
          tuned.thresholds().isEmpty()
              ? PolicySpec.ofTables(ProgressPolicy.NAME, targetsFile)
              : PolicySpec.ofTables(ProgressPolicy.NAME, targetsFile, Path.of(thresholds));
      o.printf("policy:   %s%n", policy);
      o.flush();
      return 0;
    }
  }
}
