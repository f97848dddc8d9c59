package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.cluster.ShardWork;
import dev.tailor.studies.Cells;
import dev.tailor.studies.Clusters;
import dev.tailor.studies.ShardQuantiles;
import dev.tailor.studies.StudyRunner;
import dev.tailor.studies.SustainedLoads;
import dev.tailor.studies.Workloads;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tailor aggregate}: the partition-aggregate study in the simulator ({@code
 * dev.tailor.sim.cluster}). It prints (a) TPC's cluster observation (Jeon et al., ASPLOS'16, §4.5,
 * Figure 8(b)): the aggregator's P99 next to a shard's P99, P99.8 and P99.9 and the quantile {@code
 * 0.99^(1/N)} that independent shards would put it at; and (b) the what-if: for each number of
 * shards, the highest load at which each policy keeps the aggregator's P99 within a target.
 */
@Command(
    name = "aggregate",
    mixinStandardHelpOptions = true,
    defaultValueProvider = AggregateCommand.Defaults.class,
    description = {
      "Simulate a partition-aggregate cluster of N shards of C cores: (a) the aggregator's P99"
          + " against a shard's high quantiles, (b) the highest load each policy sustains within"
          + " --target-p99 (docs/results/partition-aggregate.md)."
    })
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
      description = "Numbers of shards N, each studied in turn (default ${DEFAULT-VALUE}).")
  int[] shards;

  @Mixin SimulatedCores simulated;

  @Option(
      names = "--policies",
      defaultValue = "seq,fixed:4,adaptive,steal-first",
      description = "The policies every shard runs in turn (default ${DEFAULT-VALUE}).")
  String policies;

  @Option(
      names = "--target-p99",
      defaultValue = "10ms",
      converter = LatencyTarget.class,
      description = "The aggregator P99 the sustained load must keep (default ${DEFAULT-VALUE}).")
  long targetNanos;

  @Option(
      names = "--workload",
      paramLabel = "SPEC",
      description = "lognormal:MEAN,SD[,SERIAL] or parametric (default lognormal:10ms,13ms).")
  String workload;

  @Option(
      names = "--profile",
      paramLabel = "FILE",
      description = "A demand profile whose queries the cluster serves, for --workload.")
  Path profile;

  @Option(
      names = "--utilization",
      defaultValue = "0.5",
      description = "The offered load of table (a) (default ${DEFAULT-VALUE}).")
  double utilization;

  @Option(
      names = "--shard-noise",
      paramLabel = "SD",
      defaultValue = "0.3",
      description =
          "Standard deviation of a shard's log-normal work factor (default ${DEFAULT-VALUE}).")
  double shardNoise;

  @Option(
      names = "--shard-work",
      split = ",",
      defaultValue = "correlated,independent",
      description =
          "correlated and/or independent; table (b) runs the first (default ${DEFAULT-VALUE}).")
  List<String> shardWork;

  @Option(
      names = "--merge",
      paramLabel = "DURATION",
      defaultValue = "0ms",
      description = "The aggregator's network and merge cost per query (default ${DEFAULT-VALUE}).")
  String merge;

  @Option(
      names = "--model",
      defaultValue = "fluid",
      description = "Work model of the shards: fluid or units (default ${DEFAULT-VALUE}).")
  Simulator.WorkModel model;

  @Option(
      names = "--tolerance",
      defaultValue = "0.01",
      description = "The bisection's precision, in utilization (default ${DEFAULT-VALUE}).")
  double tolerance;

  @Mixin SimulatedPoints points;

  @Mixin TableOutput output;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    List<ShardWork> works = shardWorks();
    long mergeNanos = Usage.nonNegative(spec, "--merge", merge);
    List<String> policyList = policyList();
    checkRanges();
    DemandProfile base = workload();
    Clusters clusters =
        new Clusters(base, simulated.cores, mergeNanos, model, points.requests, points.seed);
    Progress.Points progress =
        new Progress.Points(shards.length * policyList.size() * (works.size() + 1));
    StudyRunner runner = output.runner(spec);
    runner.line(
        String.format(
            Locale.ROOT,
            "partition-aggregate cluster: %s shards of %d cores; %s; %s work model; merge %s;"
                + " %d queries a point (10%% warm-up), Poisson, seed %d",
            Arrays.stream(shards).mapToObj(Integer::toString).collect(Collectors.joining(",")),
            simulated.cores,
            profile != null ? "profile " + profile.getFileName() : base.environment().indexLabel(),
            model.name().toLowerCase(Locale.ROOT),
            Durations.format(mergeNanos),
            points.requests,
            points.seed));
    runner.title(
        "(a) The aggregator's P99 against a shard's high quantiles, at utilization "
            + Cells.plain(utilization));
    Usage.check(
        spec,
        () ->
            runner.run(
                new ShardQuantiles(clusters, works, shards, policyList, utilization),
                (p, row) ->
                    progress(
                        "  (a) N=%d %s %s (%s)%n",
                        p.shards(), p.work().mode(), p.policy(), progress.pointDone())));
    ShardWork searched = works.get(0);
    runner.title(
        String.format(
            Locale.ROOT,
            "(b) The highest load at which each policy keeps the aggregator's P99 within %s"
                + " (%s, bisection to %s in utilization)",
            Durations.format(targetNanos),
            searched,
            Cells.plain(tolerance)));
    Usage.check(
        spec,
        () ->
            runner.run(
                new SustainedLoads(clusters, searched, shards, policyList, targetNanos, tolerance),
                (n, row) -> {
                  for (int i = 0; i < policyList.size(); i++) {
                    progress(
                        "  (b) N=%d %s: %s (%s)%n",
                        n, policyList.get(i), row.get(i + 1), progress.pointDone());
                  }
                }));
    err.flush();
    return 0;
  }

  private void progress(String format, Object... args) {
    PrintWriter err = spec.commandLine().getErr();
    err.printf(Locale.ROOT, format, args);
    err.flush();
  }

  private List<ShardWork> shardWorks() {
    if (!(shardNoise >= 0) || Double.isInfinite(shardNoise)) {
      throw new ParameterException(
          spec.commandLine(),
          "--shard-noise must be a standard deviation >= 0 such as 0.3, got " + shardNoise);
    }
    List<ShardWork> out = new ArrayList<>();
    for (String mode : shardWork) {
      out.add(Usage.check(spec, "--shard-work: ", () -> ShardWork.of(mode, shardNoise)));
    }
    if (out.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), "--shard-work: give correlated, independent or both");
    }
    return out;
  }

  private List<String> policyList() {
    List<String> out =
        Usage.check(spec, "--policies: ", () -> PolicyRegistry.standard().splitList(policies));
    if (out.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--policies: no policy given");
    }
    return out;
  }

  private void checkRanges() {
    if (shards.length == 0) {
      throw new ParameterException(spec.commandLine(), "--shards: give at least one number");
    }
    for (int n : shards) {
      if (n < 1) {
        throw new ParameterException(spec.commandLine(), "--shards: each must be >= 1, got " + n);
      }
    }
    if (simulated.cores < 1) {
      throw new ParameterException(
          spec.commandLine(), "--cores must be >= 1, got " + simulated.cores);
    }
    if (!(utilization > 0) || Double.isInfinite(utilization)) {
      throw new ParameterException(
          spec.commandLine(), "--utilization must be above 0 such as 0.5, got " + utilization);
    }
    if (!(tolerance > 0 && tolerance < 1)) {
      throw new ParameterException(
          spec.commandLine(),
          "--tolerance must be a utilization in (0, 1) such as 0.01, got " + tolerance);
    }
    if (points.requests < 10) {
      throw new ParameterException(
          spec.commandLine(),
          "--requests must be >= 10 (a tenth is warm-up), got " + points.requests);
    }
  }

  private DemandProfile workload() throws java.io.IOException {
    if (profile == null) {
      String w = workload == null ? "lognormal:" + Workloads.DEFAULT_LOGNORMAL : workload.trim();
      String prefix = w.startsWith("lognormal:") ? "--workload '" + w + "': " : "--workload: ";
      return Usage.check(
          spec,
          prefix,
          () -> Workloads.synthetic(w, points.requests, simulated.cores, points.seed));
    }
    if (workload != null) {
      throw new ParameterException(
          spec.commandLine(),
          "give --workload or --profile, not both (got --workload " + workload + ")");
    }
    return DemandProfile.read(profile);
  }
}
