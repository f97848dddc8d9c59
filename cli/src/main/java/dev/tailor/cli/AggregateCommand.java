package dev.tailor.cli;

import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.Simulator;
import dev.tailor.studies.Clusters;
import dev.tailor.studies.ShardQuantiles;
import dev.tailor.studies.StudyRunner;
import dev.tailor.studies.SustainedLoads;
import dev.tailor.studies.cluster.ShardWork;
import dev.tailor.sweep.Workloads;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tailor aggregate}: the partition-aggregate study in the simulator: (a) the aggregator's
 * P99 against a shard's high quantiles ({@link ShardQuantiles}), (b) for each number of shards, the
 * highest load at which each policy keeps the aggregator's P99 within a target ({@link
 * SustainedLoads}).
 */
@Command(
    name = "aggregate",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    defaultValueProvider = AggregateCommand.Defaults.class,
    description =
        "Simulate a partition-aggregate cluster of N shards: (a) the aggregator's P99 against a"
            + " shard's high quantiles, (b) the highest load each policy sustains within"
            + " --target-p99 (docs/results/partition-aggregate.md).")
final class AggregateCommand implements Callable<Integer> {

  /** A query fans out to every shard, so a point runs fewer queries than another study's. */
  static final class Defaults implements IDefaultValueProvider {
    @Override
    public String defaultValue(ArgSpec arg) {
      return arg instanceof OptionSpec o && o.longestName().equals("--requests") ? "10000" : null;
    }
  }

  @Spec CommandSpec spec;

  @Option(
      names = "--shards",
      split = ",",
      defaultValue = "1,5,10,40",
      description = "Shard counts.")
  int[] shards;

  @Mixin SimulatedCores simulated;

  @Option(
      names = "--policies",
      defaultValue = "seq,fixed:4,adaptive,steal-first",
      description = "The policies every shard runs in turn.")
  String policies;

  @Option(
      names = "--target-p99",
      defaultValue = "10ms",
      converter = LatencyTarget.class,
      description = "The aggregator P99 of table (b).")
  long targetNanos;

  @Option(
      names = "--workload",
      paramLabel = "SPEC",
      description = "lognormal:MEAN,SD[,SERIAL] or parametric; default lognormal:10ms,13ms.")
  String workload;

  @Option(names = "--profile", paramLabel = "FILE", description = "A demand profile instead.")
  Path profile;

  @Option(names = "--utilization", defaultValue = "0.5", description = "The load of table (a).")
  double utilization;

  @Option(
      names = "--shard-noise",
      paramLabel = "SD",
      defaultValue = "0.3",
      description = "Standard deviation of a shard's log-normal work factor.")
  double shardNoise;

  @Option(
      names = "--shard-work",
      split = ",",
      defaultValue = "correlated,independent",
      description = "correlated and/or independent; table (b) runs the first.")
  List<String> shardWork;

  @Option(names = "--merge", defaultValue = "0ms", description = "The aggregator's cost per query.")
  String merge;

  @Option(names = "--model", defaultValue = "fluid", description = "Work model: fluid or units.")
  Simulator.WorkModel model;

  @Option(names = "--tolerance", defaultValue = "0.01", description = "Bisection precision.")
  double tolerance;

  @Mixin SimulatedPoints points;

  @Mixin TableOutput output;

  @Mixin CalibrationOption calibration;

  @Override
  public Integer call() throws Exception {
    checkRanges();
    List<ShardWork> works =
        shardWork.stream()
            .map(m -> Usage.check(spec, "--shard-work: ", () -> ShardWork.of(m, shardNoise)))
            .toList();
    long mergeNanos = Usage.nonNegative(spec, "--merge", merge);
    List<String> policyList =
        Usage.check(spec, "--policies: ", () -> PolicyRegistry.standard().splitList(policies));
    Usage.require(spec, !policyList.isEmpty(), "--policies: no policy given");
    DemandProfile base = workload();
    // A shard's work is a share of a query's: only the machine part of a calibration applies.
    Calibration charged = calibration.load(base, spec.commandLine().getErr());
    Clusters clusters =
        new Clusters(
            base,
            simulated.cores,
            mergeNanos,
            model,
            points.requests,
            points.seed,
            charged == null ? null : charged.machineOnly());
    ShardQuantiles quantiles = new ShardQuantiles(clusters, works, shards, policyList, utilization);
    SustainedLoads sustained =
        new SustainedLoads(clusters, works.get(0), shards, policyList, targetNanos, tolerance);
    StudyRunner runner =
        output
            .runner(spec)
            .logging(
                spec.commandLine().getErr(), quantiles.points().size() + sustained.points().size());
    runner.line(
        clusters.describe(
            shards,
            profile != null
                ? "profile " + profile.getFileName()
                : base.environment().indexLabel()));
    Usage.check(spec, () -> runner.run(quantiles));
    Usage.check(spec, () -> runner.run(sustained));
    return 0;
  }

  private void checkRanges() {
    int cores = simulated.cores;
    Usage.require(
        spec,
        shardNoise >= 0 && !Double.isInfinite(shardNoise),
        "--shard-noise must be a standard deviation >= 0 such as 0.3, got " + shardNoise);
    Usage.require(spec, !shardWork.isEmpty(), "--shard-work: give correlated, independent or both");
    Usage.require(spec, shards.length > 0, "--shards: give at least one number");
    for (int n : shards) {
      Usage.require(spec, n >= 1, "--shards: each must be >= 1, got " + n);
    }
    Usage.require(spec, cores >= 1, "--cores must be >= 1, got " + cores);
    Usage.require(
        spec,
        utilization > 0 && !Double.isInfinite(utilization),
        "--utilization must be above 0 such as 0.5, got " + utilization);
    Usage.require(
        spec,
        tolerance > 0 && tolerance < 1,
        "--tolerance must be a utilization in (0, 1) such as 0.01, got " + tolerance);
    Usage.require(
        spec,
        points.requests >= 10,
        "--requests must be >= 10 (a tenth is warm-up), got " + points.requests);
  }

  private DemandProfile workload() throws java.io.IOException {
    if (profile != null) {
      Usage.require(
          spec,
          workload == null,
          "give --workload or --profile, not both (got --workload " + workload + ")");
      return DemandProfile.read(profile);
    }
    String w = workload == null ? "lognormal:" + Workloads.DEFAULT_LOGNORMAL : workload.trim();
    String prefix = w.startsWith("lognormal:") ? "--workload '" + w + "': " : "--workload: ";
    return Usage.check(
        spec, prefix, () -> Workloads.synthetic(w, points.requests, simulated.cores, points.seed));
  }
}
