package dev.tailor.cli;

import dev.tailor.cluster.ClusterLoad;
import dev.tailor.cluster.IndexShape;
import dev.tailor.core.Durations;
import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.fetch.Dataset;
import dev.tailor.load.Sweep;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tailor cluster load}: load an index into the running cluster and sweep the load through
 * it.
 */
@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    description = {
      "Load a corpus into an index of the running cluster, then sweep the open-loop load"
          + " through it for OpenSearch's own seq (concurrent search off), opensearch (mode"
          + " all, its default slice count) and opensearch-auto (mode auto), each Tailor policy"
          + " of --policies (mode all) and each of --decider (mode auto, Tailor's decider"
          + " choosing per shard request), interleaved point by point on the same nodes, and"
          + " write the usual sweep report.",
      "Each request is a match query of one trace text on the body field, top 10 hits, sent to"
          + " the nodes in turn."
    })
final class ClusterLoadCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DataOptions data;

  @Mixin SweepOptions sweep;

  @Mixin PointLength length;

  @Option(
      names = "--decider",
      paramLabel = "POLICIES",
      description =
          "Tailor policies to run through Tailor's decider under OpenSearch's mode auto, named"
              + " decider:POLICY in the report (comma-separated; default: none).")
  String decider;

  @Option(
      names = "--corpus",
      defaultValue = "wikipedia-summaries",
      description = "A corpus file or the name of a fetchable one (default ${DEFAULT-VALUE}).")
  String corpus;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Only the corpus's first N documents (default: all).")
  Long limit;

  @Option(
      names = "--index",
      defaultValue = "tailor",
      description = "The index's name (default ${DEFAULT-VALUE}).")
  String index;

  @Option(
      names = "--shards",
      defaultValue = "4",
      description = "The index's primary shards (default ${DEFAULT-VALUE}).")
  int shards;

  @Option(
      names = "--replicas",
      defaultValue = "1",
      description = "Replicas of each shard (default ${DEFAULT-VALUE}).")
  int replicas;

  @Option(
      names = "--refresh-every",
      paramLabel = "N",
      defaultValue = "" + IndexShape.DEFAULT_REFRESH_EVERY,
      description =
          "Documents per bulk request, each followed by a refresh: a segment per shard per"
              + " request, as far as merges leave them (default ${DEFAULT-VALUE}).")
  int refreshEvery;

  @Option(
      names = "--segments-per-tier",
      paramLabel = "N",
      description =
          "The merge policy's segments per tier (index.merge.policy.segments_per_tier; default:"
              + " OpenSearch's, 10, which merges a small corpus down to 2 or 3 segments per"
              + " shard); 50 keeps some 40 per shard of the default corpus, so that slices have"
              + " segments to divide.")
  Integer segmentsPerTier;

  @Option(
      names = "--reload",
      description = "Load the index again even if it holds these documents already.")
  boolean reload;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description = "The query trace (default: the Natural Questions test questions, fetched).")
  Path trace;

  @Option(names = "--queries", paramLabel = "N", description = "Only the first N queries.")
  Integer queries;

  @Option(
      names = "--slices",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "search.concurrent.max_slice_count for Tailor's policies (default ${DEFAULT-VALUE}:"
              + " OpenSearch's default, as opensearch runs).")
  int slices;

  @Option(
      names = "--max-backlog",
      defaultValue = "" + ReplayCommand.DEFAULT_MAX_BACKLOG,
      description =
          "Requests in flight beyond which a point counts as saturated (default"
              + " ${DEFAULT-VALUE}).")
  int maxBacklog;

  @Option(
      names = "--timeout",
      defaultValue = "180s",
      description = "How long a restart may take to reach green (default ${DEFAULT-VALUE}).")
  String timeout;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    if (sweep.maxDegree != null) {
      throw new ParameterException(
          spec.commandLine(), "--max-degree caps the in-process scheduler; a cluster runs its own");
    }
    Usage.check(
        spec,
        "",
        () -> {
          sweep.resolveLoads(null, 0);
          return null;
        });
    IndexShape shape = new IndexShape(shards, replicas, refreshEvery, segmentsPerTier);
    Duration wait = Duration.ofNanos(Durations.parseNanos(timeout));
    ClusterLoad.Settings settings =
        new ClusterLoad.Settings(
            index, shape, limit == null ? Long.MAX_VALUE : limit, reload, queries, slices, wait);
    long durationNanos = length.durationNanos();
    Sweep.Plan plan =
        new Sweep.Plan(
                ClusterLoad.configurations(sweep.policyList, decider),
                sweep.rps,
                SweepPlan.timed(sweep.arrivals, sweep.seed, durationNanos, length.warmupNanos()),
                maxBacklog,
                ReplayCommand.drainNanos(durationNanos),
                sweep.targetNanos())
            .withRepetitions(sweep.repetitions());
    ClusterLoad load =
        new ClusterLoad(
            ClusterCommand.recorded(data, err), settings, plan, ClusterCommand.printer(err));
    Corpus docs = data.corpus(corpus, false, null, err, ClusterCommand.printer(err));
    Path dir = sweep.reportDir("cluster");
    String summary =
        load.run(
            docs,
            traceFile(err),
            ReplayCommand.pointPrinter(err, plan.size()),
            dir,
            sweep.cdfLoad(),
            sweep.latencyTarget());
    PrintWriter out = spec.commandLine().getOut();
    out.println(summary);
    out.printf("report: %s (summary.md, results.csv, p99.png, p999.png, cdf.png, points/)%n", dir);
    out.flush();
    return 0;
  }

  /** The trace: the one given, else the Natural Questions test questions, fetched if need be. */
  private Path traceFile(PrintWriter err) throws IOException {
    if (trace != null) {
      return trace;
    }
    Path file = DemoWorkload.NQ.trace(data.dataDir());
    if (!Files.isRegularFile(file)) {
      data.fetcher(err).fetch(Dataset.NQ);
    }
    return file;
  }
}
