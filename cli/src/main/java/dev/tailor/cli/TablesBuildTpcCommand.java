package dev.tailor.cli;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.model.SyntheticPredictions;
import dev.tailor.tables.TableText;
import dev.tailor.tables.TpcTableBuilder;
import dev.tailor.tables.TpcTableInputs;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tailor tables build tpc}: TPC's target table, by Algorithm 1 over the simulator. */
@Command(
    name = "tpc",
    mixinStandardHelpOptions = true,
    description = {
      "Build a TPC target table (Jeon et al., ASPLOS'16, Algorithm 1): for each load (threads on"
          + " long requests), the target completion time. From small targets, raise one entry by"
          + " the step at a time, keeping the step that lowers the weighted tail most over the"
          + " arrival rates of --rps, simulated with the very tpc policy that reads the table;"
          + " stop when no step helps.",
      "With --guard CURRENT the table is written only if its weighted tail is no worse than the"
          + " current one's; otherwise the command exits 3 (docs/operating.md)."
    })
final class TablesBuildTpcCommand implements Callable<Integer> {

  /** The exit code when the guard keeps the current table. */
  static final int KEPT = 3;

  @Spec CommandSpec spec;

  @Option(names = "--profile", required = true, paramLabel = "FILE", description = "The profile.")
  Path profile;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The table JSON.")
  Path out;

  @Option(
      names = "--model",
      paramLabel = "FILE",
      description = "The model whose predictions the profile carries, checked against them.")
  Path model;

  @Option(
      names = "--synthetic-error",
      paramLabel = "SIGMA",
      description = "Attach predictions first: each true time times exp(SIGMA*Z), seed 1.")
  Double syntheticError;

  @Option(
      names = "--known",
      description = "Simulate the true sequential times as predictions: a table for tpc-oracle.")
  boolean known;

  @Option(
      names = "--cores",
      defaultValue = "16",
      paramLabel = "N",
      description = "Threads of the simulated server (default ${DEFAULT-VALUE}).")
  int cores;

  @Option(
      names = "--max-degree",
      defaultValue = "6",
      paramLabel = "P",
      description = "The highest degree, P (default ${DEFAULT-VALUE}, the paper's).")
  int maxDegree;

  @Option(
      names = "--rps",
      required = true,
      paramLabel = "RATES",
      description = "The load range: LOW..HIGH (--points rates) or a list of rates.")
  String rps;

  @Option(
      names = "--points",
      defaultValue = "5",
      paramLabel = "N",
      description = "Rates in a LOW..HIGH range (default ${DEFAULT-VALUE}).")
  int points;

  @Option(
      names = "--weights",
      split = ",",
      paramLabel = "W",
      description = "Each rate's weight in the weighted tail (default: equal).")
  List<Double> weights;

  @Option(
      names = "--tail",
      defaultValue = "p99",
      paramLabel = "Q",
      description = "The tail quantile, p99 or p99.9 (default ${DEFAULT-VALUE}).")
  String tail;

  @Option(
      names = "--step",
      paramLabel = "DURATION",
      description =
          "The search's step, delta (default: the long threshold / 80, the paper's 1 ms).")
  String step;

  @Option(
      names = "--load-metric",
      defaultValue = "long-threads",
      paramLabel = "METRIC",
      description =
          "What a row's load counts: long-threads or all-threads (default ${DEFAULT-VALUE}).")
  String loadMetric;

  @Option(
      names = "--loads",
      defaultValue = "9",
      paramLabel = "N",
      description = "Rows for loads 0..N-1, then one for more (default 9).")
  int loads;

  @Option(
      names = "--requests",
      defaultValue = "4000",
      paramLabel = "N",
      description = "Requests per simulated point (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--seeds",
      defaultValue = "1",
      paramLabel = "N",
      description = "Seeds per rate, their tails averaged (default ${DEFAULT-VALUE}).")
  int seeds;

  @Option(
      names = "--seed",
      defaultValue = "1",
      paramLabel = "S",
      description = "The first seed (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--model-of-work",
      defaultValue = "fluid",
      paramLabel = "MODEL",
      description = "The simulator's work model: fluid or units (default ${DEFAULT-VALUE}).")
  Simulator.WorkModel workModel;

  @Option(
      names = "--long-from",
      paramLabel = "DURATION",
      description = "The long group's threshold (default: the profile's 96th percentile).")
  String longFrom;

  @Option(
      names = "--medium-from",
      paramLabel = "DURATION",
      description = "The medium group's threshold (default: 30/80 of the long one).")
  String mediumFrom;

  @Option(
      names = "--max-iterations",
      defaultValue = "2000",
      paramLabel = "N",
      description = "A bound on the search's steps (default ${DEFAULT-VALUE}).")
  int maxIterations;

  @Option(
      names = "--step-doublings",
      defaultValue = "6",
      paramLabel = "N",
      description = "When no step helps, try steps up to 2^N as large (default ${DEFAULT-VALUE}).")
  int stepDoublings;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Threads measuring tables (default: the processors).")
  Integer threads;

  @Option(
      names = "--guard",
      paramLabel = "CURRENT",
      description = "Write the new table only if it is no worse than this one on the profile.")
  Path guard;

  @Mixin CalibrationOption calibration;

  @Option(
      names = "--for",
      paramLabel = "POLICY",
      defaultValue = "tpc",
      description = "The policy the search simulates, which will read the table: tpc or progress.")
  String reader;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    DemandProfile demand = DemandProfile.read(profile);
    TpcTableBuilder builder = new TpcTableBuilder(options(), calibration.load(demand, err));
    if (reader.equals("progress")) {
      builder = builder.forProgress();
    } else if (!reader.equals("tpc")) {
      throw new ParameterException(
          spec.commandLine(), "--for: expected tpc or progress, got '" + reader + "'");
    }
    if (syntheticError != null) {
      try {
        demand = SyntheticPredictions.attach(demand, syntheticError, 1);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--synthetic-error: " + e.getMessage(), e);
      }
    }
    TargetTable table =
        builder.build(demand, TpcTableInputs.sources(profile, demand, model, known));
    PrintWriter o = spec.commandLine().getOut();
    TableText.print(table, o);
    o.flush();
    if (guard != null) {
      TargetTable current = TargetTable.read(guard);
      double now = builder.weightedTail(current, demand);
      double next = table.search().finalTailNanos();
      err.printf(
          Locale.ROOT,
          "guard: weighted %s tail %.3f ms for the new table, %.3f ms for %s%n",
          tail,
          next / 1e6,
          now / 1e6,
          guard);
      if (next > now) {
        err.printf("guard: kept %s; %s not written%n", guard, out);
        err.flush();
        return KEPT;
      }
    }
    table.write(out);
    err.printf(
        Locale.ROOT,
        "built %s: %d rows from %d requests in %.1f s (%d steps, %d tables simulated)%n",
        out,
        table.rows().size(),
        demand.requests().size(),
        table.buildSeconds(),
        table.search().iterations(),
        table.search().measurements());
    err.flush();
    return 0;
  }

  private TpcTableBuilder.Options options() {
    try {
      return new TpcTableBuilder.Options(
          cores,
          maxDegree,
          TpcTableInputs.rates(rps, points),
          weights,
          tail,
          step == null ? 0 : FmTableOptions.duration(spec, "--step", step),
          loads,
          requests,
          seeds,
          seed,
          workModel,
          Scheduler.DEFAULT_QUANTUM_NANOS,
          mediumFrom == null ? 0 : FmTableOptions.duration(spec, "--medium-from", mediumFrom),
          longFrom == null ? 0 : FmTableOptions.duration(spec, "--long-from", longFrom),
          maxIterations,
          stepDoublings,
          threads != null ? threads : Runtime.getRuntime().availableProcessors(),
          known ? TpcPolicy.Variant.TPC_ORACLE : TpcPolicy.Variant.TPC,
          metric());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  private TargetTable.LoadMetric metric() {
    TargetTable.LoadMetric m = TargetTable.LoadMetric.of(loadMetric);
    if (m == null) {
      throw new ParameterException(
          spec.commandLine(),
          "--load-metric: expected long-threads or all-threads, got " + loadMetric);
    }
    return m;
  }
}
