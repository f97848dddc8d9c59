package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.Scheduler;
import dev.tailor.core.model.DemandProfile;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.table.Digests;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.arrival.SweepPlan;
import dev.tailor.sim.model.Workload;
import dev.tailor.tables.FmTableBuilder;
import dev.tailor.tables.FmTableTuner;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.DoubleStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tailor tables}: build, show and validate the policies' tables. */
@Command(
    name = "tables",
    mixinStandardHelpOptions = true,
    description = "Build, show and validate the tables the table-driven policies read.",
    subcommands = {
      TablesCommand.Build.class,
      TablesCommand.Tune.class,
      TablesCommand.Show.class,
      TablesCommand.Validate.class
    })
final class TablesCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code tables build KIND}. */
  @Command(
      name = "build",
      mixinStandardHelpOptions = true,
      description = "Build a table from a demand profile.",
      subcommands = {BuildFm.class})
  static final class Build implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
      spec.commandLine().usage(spec.commandLine().getOut());
    }
  }

  /**
   * The profile, the output and the Few-to-Many grid and mode that {@code build fm} and {@code tune
   * fm} share.
   */
  static final class FmGrid {
    @Option(names = "--profile", required = true, paramLabel = "FILE", description = "The profile.")
    Path profile;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The table JSON.")
    Path out;

    @Option(
        names = "--cores",
        required = true,
        paramLabel = "C",
        description = "Cores of the machine the table is for.")
    int cores;

    @Option(
        names = "--max-degree",
        defaultValue = "4",
        paramLabel = "N",
        description = "Highest degree (default ${DEFAULT-VALUE}).")
    int maxDegree;

    @Option(
        names = "--degrees",
        split = ",",
        paramLabel = "D",
        description = "Only these degrees, e.g. 1,3 (default: 1..N).")
    int[] degrees;

    @Option(
        names = "--step",
        defaultValue = "10ms",
        paramLabel = "DURATION",
        description = "The grid's step (default ${DEFAULT-VALUE}).")
    String step;

    @Option(
        names = "--horizon",
        paramLabel = "DURATION",
        description = "The largest interval (default: the longest request's time).")
    String horizon;

    @Option(
        names = "--phi",
        defaultValue = "0.99",
        description = "The tail's quantile (default ${DEFAULT-VALUE}).")
    double phi;

    @Option(
        names = "--loads",
        defaultValue = "1..32",
        paramLabel = "1..Q",
        description = "The rows: loads 1 to Q (default ${DEFAULT-VALUE}).")
    String loads;

    @Option(
        names = "--bin",
        defaultValue = "0",
        paramLabel = "N",
        description = "Search over N demand bins instead of every request (default: every one).")
    int bins;

    @Option(
        names = "--threads",
        paramLabel = "N",
        description = "Search threads (default: this machine's processors).")
    Integer threads;

    @Option(
        names = "--mode",
        defaultValue = "throughput",
        paramLabel = "MODE",
        description =
            "throughput (default): each row for the arrival rate that produces its load, no waits;"
                + " paper: the paper's Fig. 7 search, which delays requests under load and"
                + " saturates a capped pool early.")
    String mode;

    /** The grid's options under a rule. */
    FmTableBuilder.Options options(CommandSpec spec, IntervalTable.Rule rule) {
      try {
        return new FmTableBuilder.Options(
            cores,
            rule,
            maxDegree,
            degrees,
            duration(spec, "--step", step),
            horizon == null ? 0 : duration(spec, "--horizon", horizon),
            phi,
            loads(spec),
            bins,
            threads != null ? threads : Runtime.getRuntime().availableProcessors());
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage(), e);
      }
    }

    /** Whether {@code --mode} names the paper's rule; any other value but throughput fails. */
    boolean paper(CommandSpec spec) {
      return switch (mode) {
        case IntervalTable.Rule.PAPER -> true;
        case IntervalTable.Rule.THROUGHPUT -> false;
        default ->
            throw new ParameterException(
                spec.commandLine(), "--mode: expected throughput or paper, got '" + mode + "'");
      };
    }

    /** {@code 1..Q} or {@code Q}. */
    private int loads(CommandSpec spec) {
      String t = loads.trim();
      String q = t.startsWith("1..") ? t.substring(3) : t;
      try {
        int v = Integer.parseInt(q);
        if (v >= 1) {
          return v;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new ParameterException(
          spec.commandLine(), "--loads: expected 1..Q or Q with Q >= 1, got '" + loads + "'");
    }
  }

  static long duration(CommandSpec spec, String option, String text) {
    try {
      return Durations.parseNanos(text);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage(), e);
    }
  }

  /** {@code tables build fm}: the Few-to-Many interval table. */
  @Command(
      name = "fm",
      mixinStandardHelpOptions = true,
      description = {
        "Build a Few-to-Many interval table: for each load, the schedule (the time at each degree)"
            + " with the lowest tail that the load allows. Under the throughput rule (default) a"
            + " row is built for the arrival rate that produces its load and keeps the busy"
            + " thread time within --utilization of the cores; under --mode paper, the paper's"
            + " Fig. 7 search keeps q*A(S) within --target-parallelism.",
        "The table records its inputs and the profile's SHA-256; the file is replaced atomically,"
            + " so a running policy watching it swaps to it."
      })
  static final class BuildFm implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin FmGrid grid;

    @Option(
        names = "--target-parallelism",
        paramLabel = "T",
        description =
            "Paper mode: threads the requests may keep busy on average (slightly above the"
                + " cores).")
    Double targetParallelism;

    @Option(
        names = "--utilization",
        defaultValue = "1.0",
        paramLabel = "RHO",
        description =
            "Throughput mode: the share of the cores the busy thread time may fill (default"
                + " ${DEFAULT-VALUE}).")
    double utilization;

    @Option(
        names = "--queue-factor",
        defaultValue = "1.3",
        paramLabel = "QS",
        description =
            "Throughput mode: requests in the system per request in service, >= 1 (default"
                + " ${DEFAULT-VALUE}; ./tailor tables tune chooses it).")
    double queueFactor;

    @Override
    public Integer call() throws IOException {
      PrintWriter err = spec.commandLine().getErr();
      IntervalTable.Rule rule;
      try {
        if (grid.paper(spec)) {
          if (targetParallelism == null) {
            throw new ParameterException(
                spec.commandLine(), "--mode paper needs --target-parallelism");
          }
          rule = IntervalTable.Rule.paper(targetParallelism);
        } else {
          if (targetParallelism != null) {
            throw new ParameterException(
                spec.commandLine(),
                "--target-parallelism is the paper's rule: add --mode paper, or use"
                    + " --utilization and --queue-factor");
          }
          rule = IntervalTable.Rule.throughput(utilization, queueFactor);
        }
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage(), e);
      }
      FmTableBuilder.Options options = grid.options(spec, rule);
      // A bad profile or grid propagates to TailorCommand, which prints its message (naming the
      // file and the field) after "tailor tables build:".
      DemandProfile demand = DemandProfile.read(grid.profile);
      IntervalTable table =
          new FmTableBuilder(options)
              .build(Workload.of(demand), grid.profile.toString(), Digests.sha256(grid.profile));
      table.write(grid.out);
      PrintWriter o = spec.commandLine().getOut();
      Show.print(table, o);
      o.flush();
      err.printf(
          "built %s: %d rows from %d requests%s in %.1f s%n",
          grid.out,
          table.rows().size(),
          demand.requests().size(),
          grid.bins > 0 ? " in " + grid.bins + " bins" : "",
          table.buildSeconds());
      err.flush();
      return 0;
    }
  }

  /** {@code tables tune KIND}. */
  @Command(
      name = "tune",
      mixinStandardHelpOptions = true,
      description = "Choose a table's inputs by simulation, then build it.",
      subcommands = {TuneFm.class})
  static final class Tune implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
      spec.commandLine().usage(spec.commandLine().getOut());
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
            + " from the whole profile with the chosen inputs, which it records.",
        "Every policy runs under one degree cap, --max-degree."
      })
  static final class TuneFm implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin FmGrid grid;

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
        description =
            "Paper mode: the target parallelisms to try (default: 0.75, 1, 1.25, 1.5 and 2 times"
                + " the cores).")
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
        description =
            "The split's and the tuning arrivals' seed; the check uses the next (default"
                + " ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--model",
        defaultValue = "fluid",
        description = "The simulator's work model: fluid or units (default ${DEFAULT-VALUE}).")
    Simulator.WorkModel model;

    @Option(
        names = "--quantum",
        defaultValue = "5ms",
        description =
            "The policies' tick in the simulation (default ${DEFAULT-VALUE}); keep it near the"
                + " table's step, or ramps finer than a tick never happen.")
    String quantum;

    @Override
    public Integer call() throws IOException {
      PrintWriter err = spec.commandLine().getErr();
      PrintWriter o = spec.commandLine().getOut();
      List<IntervalTable.Rule> candidates = new ArrayList<>();
      try {
        if (grid.paper(spec)) {
          List<Double> ts =
              targets != null
                  ? targets
                  : DoubleStream.of(0.75, 1, 1.25, 1.5, 2)
                      .map(f -> f * grid.cores)
                      .boxed()
                      .toList();
          for (double t : ts) {
            candidates.add(IntervalTable.Rule.paper(t));
          }
        } else {
          for (double u : utilizations) {
            for (double q : queueFactors) {
              candidates.add(IntervalTable.Rule.throughput(u, q));
            }
          }
        }
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
              duration(spec, "--quantum", quantum),
              Scheduler.DEFAULT_LONG_THRESHOLD_NANOS,
              true,
              requests / SweepPlan.COUNTED_WARMUP_DIVISOR,
              Math.max(1_000, requests),
              List.of(),
              model);
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
      Show.print(tuned.table(), o);
      o.printf("wrote %s%n", grid.out);
      o.flush();
      return 0;
    }
  }

  /** {@code tables show FILE}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print a table's inputs and rows readably.")
  static final class Show implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The table.")
    Path file;

    @Override
    public Integer call() throws IOException {
      IntervalTable table = IntervalTable.read(file);
      PrintWriter out = spec.commandLine().getOut();
      out.printf("%s%n", file);
      print(table, out);
      out.flush();
      return 0;
    }

    static void print(IntervalTable t, PrintWriter out) {
      IntervalTable.Inputs in = t.inputs();
      IntervalTable.Rule rule = in.rule();
      out.printf(
          "fm-interval table built %s in %.1f s from %s (%s)%n",
          t.builtAt(), t.buildSeconds(), in.profile(), in.profileDigest());
      out.printf(
          "  %d requests%s; %d cores; rule: %s; degrees %s; step %s, horizon %s; phi %s%n",
          in.requests(),
          in.bins() > 0 ? " in " + in.bins() + " bins" : "",
          in.cores(),
          rule,
          Arrays.toString(in.degrees()),
          Durations.format(in.stepNanos()),
          Durations.format(in.horizonNanos()),
          trim(in.phi()));
      if (in.tuning() != null) {
        out.printf("  %s%n", in.tuning());
      }
      if (rule.isPaper()) {
        out.printf(
            "%n  %5s  %-56s %10s %10s %6s %7s%n", "load", "schedule", "tail", "mean", "A", "q*A");
      } else {
        out.printf(
            "%n  %5s  %-56s %10s %10s %6s %9s %6s%n",
            "load", "schedule", "tail", "mean", "A", "rate", "util");
      }
      for (IntervalTable.Row r : t.rows()) {
        if (rule.isPaper()) {
          out.printf(
              "  %5d  %-56s %8.1fms %8.1fms %6.2f %7.2f%s%n",
              r.load(),
              r.schedule().pairs(),
              r.tailNanos() / 1e6,
              r.meanNanos() / 1e6,
              r.parallelism(),
              r.load() * r.parallelism(),
              r.load() * r.parallelism() > rule.targetParallelism() * (1 + 1e-9)
                  ? "  (over target: nothing fits)"
                  : "");
        } else {
          // The share of the cores the row's busy time fills at its rate: <= the utilization,
          // except where no schedule keeps up (the leanest, and the queue grows).
          double util = r.arrivalRate() * r.parallelism() * r.meanNanos() / 1e9 / in.cores();
          out.printf(
              "  %5d  %-56s %8.2fms %8.2fms %6.2f %7.1f/s %5.0f%%%n",
              r.load(),
              r.schedule().pairs(),
              r.tailNanos() / 1e6,
              r.meanNanos() / 1e6,
              r.parallelism(),
              r.arrivalRate(),
              100 * util);
        }
      }
      out.printf("  loads above %d read the last row%n", t.rows().size());
    }

    private static String trim(double v) {
      return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
  }

  /** {@code tables validate FILE}. */
  @Command(
      name = "validate",
      mixinStandardHelpOptions = true,
      description = {
        "Check a table file; on a problem, name the field and exit 1.",
        "With --profile, also check that the table was built from that profile (its SHA-256)."
      })
  static final class Validate implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The table.")
    Path file;

    @Option(
        names = "--profile",
        paramLabel = "FILE",
        description = "The profile the table should have been built from.")
    Path profile;

    @Override
    public Integer call() throws IOException {
      IntervalTable t = IntervalTable.read(file);
      if (profile != null) {
        String digest = Digests.sha256(profile);
        if (!digest.equals(t.inputs().profileDigest())) {
          throw new IOException(
              file
                  + ": inputs.profileDigest: built from "
                  + t.inputs().profileDigest()
                  + ", but "
                  + profile
                  + " is "
                  + digest);
        }
      }
      spec.commandLine()
          .getOut()
          .printf(
              "%s: valid %s table, %d rows, built %s from %s%n",
              file, IntervalTable.KIND, t.rows().size(), t.builtAt(), t.inputs().profileDigest());
      spec.commandLine().getOut().flush();
      return 0;
    }
  }
}
