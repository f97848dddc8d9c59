package dev.tailor.cli;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.table.Digests;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.tables.FmRuleCandidates;
import dev.tailor.tables.FmTableTuner;
import dev.tailor.tables.TableText;
import java.io.IOException;
import java.io.PrintWriter;
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
    subcommands = {TablesTuneCommand.Fm.class})
final class TablesTuneCommand extends GroupCommand {

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
      if (model == Simulator.WorkModel.UNITS && !demand.requests().get(0).hasUnitTimes()) {
        throw new ParameterException(
            spec.commandLine(), "--model units needs a profile with unit times");
      }
      Simulator.Config sim =
          new Simulator.Config(
              grid.cores,
              FmTableOptions.duration(spec, "--quantum", quantum),
              Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
              requests / SweepPlan.COUNTED_WARMUP_DIVISOR,
              Math.max(1_000, requests),
              List.of(),
              model,
              calibration.load(demand, spec.commandLine().getErr()));
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
}
