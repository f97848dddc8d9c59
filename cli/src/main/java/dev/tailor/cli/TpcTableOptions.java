package dev.tailor.cli;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.TpcPolicy;
import dev.tailor.core.table.TargetTable;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.model.SyntheticPredictions;
import dev.tailor.tables.TpcTableBuilder;
import dev.tailor.tables.TpcTableInputs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * How a TPC target table is built, as {@code build tpc} and {@code tune progress} take it: the
 * simulated server, the load range, Algorithm 1's search, and the predictions the policy is told.
 */
final class TpcTableOptions {

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
      names = "--loads",
      defaultValue = "9",
      paramLabel = "N",
      description = "Rows for loads 0..N-1, then one for more (default 9).")
  int loads;

  @Option(
      names = "--seeds",
      defaultValue = "1",
      paramLabel = "N",
      description = "Seeds per rate, their tails averaged (default ${DEFAULT-VALUE}).")
  int seeds;

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

  /**
   * The builder's options.
   *
   * @param requests requests per simulated point
   * @param seed the first seed of arrivals and request order
   * @param metric what the rows' loads count
   * @throws ParameterException naming the first bad option
   */
  TpcTableBuilder.Options options(
      CommandSpec spec, int requests, long seed, TargetTable.LoadMetric metric) {
    long stepNanos = step == null ? 0 : Usage.duration(spec, "--step", step);
    long mediumNanos = mediumFrom == null ? 0 : Usage.duration(spec, "--medium-from", mediumFrom);
    long longNanos = longFrom == null ? 0 : Usage.duration(spec, "--long-from", longFrom);
    return Usage.check(
        spec,
        () ->
            TpcTableBuilder.Options.builder()
                .cores(cores)
                .maxDegree(maxDegree)
                .ratesRps(TpcTableInputs.rates(rps, points))
                .weights(weights)
                .quantile(tail)
                .stepNanos(stepNanos)
                .loads(loads)
                .requests(requests)
                .seeds(seeds)
                .seed(seed)
                .model(workModel)
                .quantumNanos(Scheduler.DEFAULT_QUANTUM_NANOS)
                .mediumFromNanos(mediumNanos)
                .longFromNanos(longNanos)
                .maxIterations(maxIterations)
                .stepDoublings(stepDoublings)
                .threads(threads != null ? threads : Runtime.getRuntime().availableProcessors())
                .variant(known ? TpcPolicy.Variant.TPC_ORACLE : TpcPolicy.Variant.TPC)
                .loadMetric(metric)
                .build());
  }

  /**
   * The profile as the policy sees it: with {@code --synthetic-error}, synthetic predictions
   * attached.
   */
  DemandProfile predicted(CommandSpec spec, DemandProfile demand) {
    if (syntheticError == null) {
      return demand;
    }
    return Usage.check(
        spec, "--synthetic-error: ", () -> SyntheticPredictions.attach(demand, syntheticError, 1));
  }

  /**
   * The table's record of the profile and the model ({@link TpcTableInputs#sources}).
   *
   * @throws IOException if the predictions were not made by {@code --model}
   */
  TpcTableBuilder.Sources sources(Path profile, DemandProfile demand) throws IOException {
    return TpcTableInputs.sources(profile, demand, model, known);
  }
}
