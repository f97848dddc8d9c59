package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Simulator;
import dev.tailor.sim.cluster.Cluster;
import dev.tailor.sim.cluster.ClusterPoint;
import dev.tailor.sim.cluster.Observation;
import dev.tailor.sim.cluster.ShardWork;
import dev.tailor.sim.cluster.SustainedLoad;
import dev.tailor.sim.model.LogNormalProfile;
import dev.tailor.sim.model.ParametricProfile;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
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
    description = {
      "Simulate a partition-aggregate cluster: every query fans out to N shards of C cores, each"
          + " running the policy, and the aggregator answers when the slowest shard has. Prints"
          + " (a) the aggregator's P99 against a shard's P99, P99.8, P99.9 and the quantile"
          + " 0.99^(1/N) that N independent shards would put it at (TPC, ASPLOS'16, Fig. 8(b));"
          + " (b) for each N, the highest load at which each policy keeps the aggregator's P99"
          + " within --target-p99, by bisection over the utilization.",
      "A shard's share of a query's work is the query's work / N times a log-normal noise of mean"
          + " 1 (--shard-noise); correlated shards see the same query, independent ones each"
          + " their own draw. Every shard sees the same Poisson arrivals."
    })
final class AggregateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--shards",
      split = ",",
      defaultValue = "1,5,10,40",
      description = "Numbers of shards N, each studied in turn (default ${DEFAULT-VALUE}).")
  int[] shards;

  @Option(
      names = "--cores",
      defaultValue = "16",
      description = "Simulated threads of each shard (default ${DEFAULT-VALUE}).")
  int cores;

  @Option(
      names = "--policies",
      defaultValue = "seq,fixed:4,adaptive,steal-first",
      description =
          "The policies every shard runs in turn, as ./tailor policies lists them (default"
              + " ${DEFAULT-VALUE}).")
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
      description =
          "The queries' work: lognormal:MEAN,SD[,SERIAL] (tail-control's synthetic workload, Li et"
              + " al., PPoPP'16, §5) or parametric (the Few-to-Many paper's Lucene shape), one"
              + " fresh draw per query. Default lognormal:10ms,13ms unless --profile is given.")
  String workload;

  @Option(
      names = "--profile",
      paramLabel = "FILE",
      description = "A demand profile (./tailor profile) whose queries the cluster serves.")
  Path profile;

  @Option(
      names = "--utilization",
      defaultValue = "0.5",
      description =
          "The offered load of table (a): the shards' cores busy this share of the time with the"
              + " queries' sequential work (default ${DEFAULT-VALUE}).")
  double utilization;

  @Option(
      names = "--shard-noise",
      paramLabel = "SD",
      defaultValue = "0.3",
      description =
          "Standard deviation of each shard's log-normal work factor (mean 1). The default is"
              + " where 40 shards put the aggregator's P99 at a shard's P99.8, as TPC measured on"
              + " Bing (Fig. 8(b)); 0.05 is one Lucene index's own unevenness over doc-id windows."
              + " Default ${DEFAULT-VALUE}.")
  double shardNoise;

  @Option(
      names = "--shard-work",
      split = ",",
      defaultValue = "correlated,independent",
      description =
          "correlated (the same query on every shard) and/or independent (each shard its own"
              + " draw: the F^N reference): table (a) shows each, table (b) the first (default"
              + " ${DEFAULT-VALUE}).")
  List<String> shardWork;

  @Option(
      names = "--merge",
      paramLabel = "DURATION",
      defaultValue = "0ms",
      description =
          "The aggregator's fixed network and merge cost per query (default ${DEFAULT-VALUE}).")
  String merge;

  @Option(
      names = "--model",
      defaultValue = "fluid",
      description =
          "Work model of the shards: fluid (Few-to-Many's) or units (the runtime's; needs unit"
              + " times). Default ${DEFAULT-VALUE}.")
  Simulator.WorkModel model;

  @Option(
      names = "--requests",
      defaultValue = "10000",
      description = "Queries per point, 10%% of them warm-up (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--tolerance",
      defaultValue = "0.01",
      description =
          "How narrowly, in utilization, the bisection brackets the sustained load (default"
              + " ${DEFAULT-VALUE}).")
  double tolerance;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "Seed of arrivals, query order, workload and noise (default ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<ShardWork> works = shardWorks();
    long mergeNanos = mergeNanos();
    List<String> policyList = policyList();
    checkRanges();
    DemandProfile base = workload();
    String source =
        profile != null ? "profile " + profile.getFileName() : base.environment().indexLabel();

    Progress.Points progress =
        new Progress.Points(shards.length * policyList.size() * (works.size() + 1));
    out.printf(
        Locale.ROOT,
        "partition-aggregate cluster: %s shards of %d cores; %s; %s work model; merge %s;"
            + " %d queries a point (10%% warm-up), Poisson, seed %d%n",
        joined(shards),
        cores,
        source,
        model.name().toLowerCase(Locale.ROOT),
        Durations.format(mergeNanos),
        requests,
        seed);

    out.printf(
        Locale.ROOT,
        "%n## (a) The aggregator's P99 against a shard's high quantiles, at utilization %s%n%n",
        plain(utilization));
    out.println(
        "| shards | shard work | policy | shard P99 | P99.8 | P99.9 | q = 0.99^(1/N) | shard at q"
            + " | aggregator P99 | slowest / shard at q | sits at shard | independent shards'"
            + " worth |");
    out.println("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    out.flush();
    for (ShardWork work : works) {
      for (int n : shards) {
        for (String policy : policyList) {
          Cluster cluster = cluster(base, n, policy, work, mergeNanos);
          ClusterPoint point = cluster.atUtilization(utilization);
          out.println(observationRow(n, work, policy, point));
          out.flush();
          err.printf(
              Locale.ROOT, "  (a) N=%d %s %s (%s)%n", n, work.mode(), policy, progress.pointDone());
          err.flush();
        }
      }
    }
    out.printf(
        Locale.ROOT,
        "%nThe slowest shard of N independent, identical shards has distribution F^N, so its P99 is"
            + " a shard's 0.99^(1/N) quantile (P99.8 for N = 5): 'slowest / shard at q' is 1 up to"
            + " sampling. Correlated shards see the same query, so the slowest of N sits lower:"
            + " 'sits at shard' is the share of shard latencies at or below it, and 'independent"
            + " shards' worth' the N that would put it there. TPC measured 40 servers' aggregator"
            + " P99 at a server's P99.8 (ASPLOS'16, §4.5, Fig. 8(b)): 5 independent shards' worth."
            + " The merge cost (%s) is left out of the ratio.%n",
        Durations.format(mergeNanos));

    ShardWork searched = works.get(0);
    out.printf(
        Locale.ROOT,
        "%n## (b) The highest load at which each policy keeps the aggregator's P99 within %s"
            + " (%s, bisection to %s in utilization)%n%n",
        Durations.format(targetNanos),
        searched,
        plain(tolerance));
    StringBuilder head = new StringBuilder("| shards |");
    StringBuilder rule = new StringBuilder("|---:|");
    for (String policy : policyList) {
      head.append(' ').append(policy).append(" |");
      rule.append("---:|");
    }
    out.println(head.append(" highest |"));
    out.println(rule.append("---|"));
    out.flush();
    for (int n : shards) {
      StringBuilder row = new StringBuilder("| " + n + " |");
      List<String> best = new ArrayList<>();
      double bestLoad = 0;
      for (String policy : policyList) {
        SustainedLoad.Result r =
            SustainedLoad.find(
                cluster(base, n, policy, searched, mergeNanos), targetNanos, tolerance);
        row.append(' ').append(sustainedCell(r)).append(" |");
        if (r.utilization() > 0 && r.utilization() >= bestLoad) {
          if (r.utilization() > bestLoad) {
            best.clear();
          }
          bestLoad = r.utilization();
          best.add(policy);
        }
        err.printf(
            Locale.ROOT,
            "  (b) N=%d %s: %s (%s)%n",
            n,
            policy,
            sustainedCell(r),
            progress.pointDone());
        err.flush();
      }
      String winners = best.isEmpty() ? "none" : String.join(", ", best);
      out.println(row.append(' ').append(winners).append(" |"));
      out.flush();
    }
    out.printf(
        Locale.ROOT,
        "%nEach cell: the highest utilization found at which the aggregator's P99 is within the"
            + " target (the shards' cores busy that share of the time with the queries' sequential"
            + " work), and the queries per second it is; 'none' if it misses at every utilization"
            + " tried, down to below %s."
            + " The search stays below the capacity, where a queue grows without bound; near it a"
            + " run of %d queries from an empty cluster is optimistic (a longer --requests can"
            + " only lower it).%n",
        plain(tolerance),
        requests);
    out.flush();
    return 0;
  }

  private Cluster cluster(
      DemandProfile base, int n, String policy, ShardWork work, long mergeNanos) {
    try {
      return new Cluster(
          base, new Cluster.Config(n, cores, policy, work, mergeNanos, model, requests, seed));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  private List<ShardWork> shardWorks() {
    if (!(shardNoise >= 0) || Double.isInfinite(shardNoise)) {
      throw new ParameterException(
          spec.commandLine(),
          "--shard-noise must be a standard deviation >= 0 such as 0.3, got " + shardNoise);
    }
    List<ShardWork> out = new ArrayList<>();
    for (String mode : shardWork) {
      try {
        out.add(ShardWork.of(mode, shardNoise));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--shard-work: " + e.getMessage(), e);
      }
    }
    if (out.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), "--shard-work: give correlated, independent or both");
    }
    return out;
  }

  private long mergeNanos() {
    try {
      long n = Durations.parseNanos(merge);
      if (n < 0) {
        throw new IllegalArgumentException("negative");
      }
      return n;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(),
          "--merge must be a duration >= 0 such as 0ms or 2ms, got '" + merge + "'",
          e);
    }
  }

  private List<String> policyList() {
    try {
      List<String> out = PolicyRegistry.standard().splitList(policies);
      if (out.isEmpty()) {
        throw new IllegalArgumentException("no policy given");
      }
      return out;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--policies: " + e.getMessage(), e);
    }
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
    if (cores < 1) {
      throw new ParameterException(spec.commandLine(), "--cores must be >= 1, got " + cores);
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
    if (requests < 10) {
      throw new ParameterException(
          spec.commandLine(), "--requests must be >= 10 (a tenth is warm-up), got " + requests);
    }
  }

  private DemandProfile workload() throws java.io.IOException {
    if (profile != null) {
      if (workload != null) {
        throw new ParameterException(
            spec.commandLine(),
            "give --workload or --profile, not both (got --workload " + workload + ")");
      }
      return DemandProfile.read(profile);
    }
    String w = workload == null ? "lognormal:10ms,13ms" : workload.trim();
    int maxDegree = Math.max(cores, 16);
    try {
      if (w.equals("parametric")) {
        return ParametricProfile.generate(requests, maxDegree, seed);
      }
      if (w.startsWith("lognormal:")) {
        return LogNormalProfile.generate(
            LogNormalProfile.Shape.parse(w.substring("lognormal:".length())),
            requests,
            maxDegree,
            seed);
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(), "--workload '" + w + "': " + e.getMessage(), e);
    }
    throw new ParameterException(
        spec.commandLine(),
        "--workload: unknown workload '"
            + w
            + "'; expected lognormal:MEAN,SD[,SERIAL] (e.g. lognormal:10ms,13ms) or parametric");
  }

  private static String observationRow(int n, ShardWork work, String policy, ClusterPoint p) {
    String lead = String.format(Locale.ROOT, "| %d | %s | %s |", n, work.mode(), policy);
    if (p.saturated()) {
      return lead + " saturated | | | | | | | | |";
    }
    Observation o = Observation.of(p);
    return String.format(
        Locale.ROOT,
        "%s %s | %s | %s | %s | %s | %s | %.2f | %s | %s |",
        lead,
        BalanceCommand.latency(o.shardP99Nanos()),
        BalanceCommand.latency(o.shardP998Nanos()),
        BalanceCommand.latency(o.shardP999Nanos()),
        percentile(o.matchedQuantile()),
        BalanceCommand.latency(o.shardAtMatchedNanos()),
        BalanceCommand.latency(o.aggregatorP99Nanos()),
        o.ratio(),
        percentile(o.sitsAtQuantile()),
        Double.isInfinite(o.effectiveShards())
            ? "more than measured"
            : String.format(Locale.ROOT, "%.1f", o.effectiveShards()));
  }

  private static String sustainedCell(SustainedLoad.Result r) {
    if (r.sustained() == null) {
      return "none";
    }
    return String.format(Locale.ROOT, "%.3f (%,.0f/s)", r.utilization(), r.rps());
  }

  /** A quantile as a percentile, e.g. P99.8, P99.975, to three decimals at most. */
  static String percentile(double q) {
    BigDecimal p = BigDecimal.valueOf(q * 100).setScale(3, java.math.RoundingMode.HALF_EVEN);
    return "P" + p.stripTrailingZeros().toPlainString();
  }

  private static String plain(double v) {
    return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  private static String joined(int[] values) {
    StringBuilder b = new StringBuilder();
    for (int v : values) {
      b.append(b.isEmpty() ? "" : ",").append(v);
    }
    return b.toString();
  }
}
