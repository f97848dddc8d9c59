package dev.tailor.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.cli.cluster.Cluster;
import dev.tailor.cli.cluster.ClusterLayout;
import dev.tailor.cli.cluster.Configuration;
import dev.tailor.cli.cluster.IndexLoader;
import dev.tailor.cli.cluster.RestClient;
import dev.tailor.core.Durations;
import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.fetch.Dataset;
import dev.tailor.corpora.trace.QueryTrace;
import dev.tailor.corpora.trace.TraceFormat;
import dev.tailor.corpora.trace.TraceQuery;
import dev.tailor.load.OpenSearchTarget;
import dev.tailor.load.Sweep;
import dev.tailor.load.report.ReplayedTrace;
import dev.tailor.load.report.Report;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
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
          + " through it for seq (concurrent search off), opensearch (OpenSearch's own"
          + " concurrent search at its default slice count, the nodes restarted without"
          + " Tailor's plugin) and each Tailor policy of --policies, and write the usual sweep"
          + " report.",
      "Each request is a match query of one trace text on the body field, top 10 hits, sent to"
          + " the nodes in turn."
    })
final class ClusterLoadCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DataOptions data;

  @Mixin SweepOptions sweep;

  @Mixin PointLength length;

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
      defaultValue = "" + IndexLoader.DEFAULT_REFRESH_EVERY,
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
    if (slices < 0) {
      throw new ParameterException(spec.commandLine(), "--slices: " + slices + " (expected >= 0)");
    }
    Duration wait = Duration.ofNanos(Durations.parseNanos(timeout));
    long durationNanos = length.durationNanos();
    List<Configuration> configs = Configuration.parse(sweep.policyList);
    Cluster cluster = ClusterCommand.recorded(data, null, err);
    ClusterLayout layout = cluster.layout();
    List<String> tailorPolicies =
        configs.stream().filter(Configuration::needsPlugin).map(Configuration::name).toList();
    if (!tailorPolicies.isEmpty() && !layout.plugin()) {
      throw new ParameterException(
          spec.commandLine(),
          "Tailor's policies "
              + tailorPolicies
              + " need the plugin, but the cluster was started with --no-plugin; give"
              + " --policies seq,opensearch or start it with the plugin");
    }
    if (cluster.running().size() != layout.nodes()) {
      throw new IOException(
          "the cluster is not running (running: "
              + cluster.running()
              + "); start it with ./tailor cluster up");
    }
    IndexLoader.Shape shape =
        new IndexLoader.Shape(shards, replicas, refreshEvery, segmentsPerTier);
    RestClient client = cluster.client(1, Duration.ofSeconds(60));
    Corpus docs = data.corpus(corpus, false, null, err, ClusterCommand.printer(err));
    long count =
        new IndexLoader(client, ClusterCommand.printer(err))
            .load(index, docs, limit == null ? Long.MAX_VALUE : limit, shape, reload);
    List<String> texts = queryTexts(err);
    Sweep.Plan plan =
        new Sweep.Plan(
                configs.stream().map(Configuration::name).toList(),
                sweep.rps,
                SweepPlan.timed(sweep.arrivals, sweep.seed, durationNanos, length.warmupNanos()),
                maxBacklog,
                ReplayCommand.drainNanos(durationNanos),
                sweep.targetNanos())
            .withRepetitions(sweep.repetitions());
    String environment =
        String.format(
            "measured through a %d-node OpenSearch %s cluster on this machine (%d cores), index"
                + " %s: %d documents, %d shards x %d copies",
            layout.nodes(),
            layout.version(),
            Runtime.getRuntime().availableProcessors(),
            index,
            count,
            shards,
            replicas + 1);
    err.printf(
        "sweeping %d queries through %d nodes: %s x %d loads x %d repetitions, %s each (%s"
            + " warm-up)%n",
        texts.size(),
        layout.nodes(),
        plan.policies(),
        sweep.rps.size(),
        plan.repetitions(),
        length.duration,
        length.warmup);
    err.flush();
    ClusterSweep run =
        new ClusterSweep(
            cluster, client, plan, index, texts, slices, wait, environment, docs.label(), err);
    List<PointResult> points = run.run(configs);
    Path dir = sweep.reportDir("cluster");
    String summary =
        Report.write(
            dir,
            points,
            sweep.cdfLoad(),
            ReportedWorkload.unprofiled(texts.size()),
            ReplayedTrace.of(traceFile(err), texts.size()),
            new Report.Conditions(0, ClusterSweep.ORDER).withTarget(sweep.latencyTarget()));
    PrintWriter out = spec.commandLine().getOut();
    out.println(summary);
    out.printf("report: %s (summary.md, results.csv, p99.png, p999.png, cdf.png, points/)%n", dir);
    out.flush();
    return 0;
  }

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

  /** The trace's query texts (those with a term left after English analysis), the first N. */
  private List<String> queryTexts(PrintWriter err) throws IOException {
    Path file = traceFile(err);
    if (!Files.isRegularFile(file)) {
      throw new IOException(file + ": no such trace file");
    }
    QueryTrace parsed =
        QueryTrace.read(file, TraceFormat.detect(file), new EnglishAnalyzer(), false);
    List<String> texts = parsed.queries().stream().map(TraceQuery::text).toList();
    if (queries != null) {
      if (queries < 1) {
        throw new ParameterException(spec.commandLine(), "--queries: " + queries + " (>= 1)");
      }
      texts = texts.subList(0, Math.min(queries, texts.size()));
    }
    if (texts.isEmpty()) {
      throw new IOException(file + ": no query to run");
    }
    return texts;
  }

  /**
   * A sweep through the cluster in two parts: the configurations that run OpenSearch as it ships on
   * nodes without Tailor's plugin, and Tailor's policies on the same nodes restarted with it;
   * within each part the points interleave as every sweep's do. The plugin is left as it was found.
   */
  static final class ClusterSweep {

    static final String ORDER =
        Sweep.ORDER
            + "; in two parts, each so ordered: seq and opensearch on the nodes without Tailor's"
            + " plugin, Tailor's policies on the same nodes restarted with it";

    private final Cluster cluster;
    private final RestClient client;
    private final Sweep.Plan plan;
    private final String index;
    private final List<String> texts;
    private final int slices;
    private final Duration wait;
    private final String environment;
    private final String corpusLabel;
    private final PrintWriter err;

    ClusterSweep(
        Cluster cluster,
        RestClient client,
        Sweep.Plan plan,
        String index,
        List<String> texts,
        int slices,
        Duration wait,
        String environment,
        String corpusLabel,
        PrintWriter err) {
      this.cluster = cluster;
      this.client = client;
      this.plan = plan;
      this.index = index;
      this.texts = texts;
      this.slices = slices;
      this.wait = wait;
      this.environment = environment;
      this.corpusLabel = corpusLabel;
      this.err = err;
    }

    List<PointResult> run(List<Configuration> configs) throws IOException, InterruptedException {
      List<Configuration> stock = configs.stream().filter(c -> !c.needsPlugin()).toList();
      List<Configuration> tailor = configs.stream().filter(Configuration::needsPlugin).toList();
      boolean installed = cluster.layout().plugin();
      boolean enabledAtStart = installed && cluster.pluginEnabled();
      Consumer<PointResult> printer =
          ReplayCommand.pointPrinter(
              err, plan.withPolicies(configs.stream().map(Configuration::name).toList()).size());
      List<PointResult> points = new ArrayList<>();
      if (enabledAtStart) {
        points.addAll(part(tailor, true, printer));
        printStats();
        restart(false);
      }
      points.addAll(part(stock, false, printer));
      if (installed) {
        restart(true); // back as it was found, or for Tailor's policies
        if (!enabledAtStart) {
          points.addAll(part(tailor, true, printer));
          printStats();
        }
      }
      client.put("/_cluster/settings", Configuration.reset(installed));
      // The report's columns in the order of the configurations: seq, opensearch, Tailor's.
      List<String> order = configs.stream().map(Configuration::name).toList();
      points.sort(Comparator.comparingInt(p -> order.indexOf(p.policy())));
      return points;
    }

    private List<PointResult> part(
        List<Configuration> configs, boolean pluginLoaded, Consumer<PointResult> printer)
        throws IOException, InterruptedException {
      if (configs.isEmpty()) {
        return List.of();
      }
      List<String> names = configs.stream().map(Configuration::name).toList();
      err.printf(
          "%s: %s; warming up: every query once under %s%n",
          pluginLoaded ? "with Tailor's plugin" : "OpenSearch as it ships", names, names.get(0));
      err.flush();
      client.put("/_cluster/settings", configs.get(0).settings(pluginLoaded, slices));
      try (OpenSearchTarget target =
          new OpenSearchTarget(
              cluster.layout().httpAddresses(), index, IndexLoader.FIELD, texts, names.get(0))) {
        warmUp(target, texts.size());
      }
      return Sweep.run(
          plan.withPolicies(names),
          name -> {
            Configuration c = configs.get(names.indexOf(name));
            client.put("/_cluster/settings", c.settings(pluginLoaded, slices));
            return new OpenSearchTarget(
                cluster.layout().httpAddresses(), index, IndexLoader.FIELD, texts, name);
          },
          texts.size(),
          environment,
          corpusLabel,
          printer);
    }

    /**
     * Sends every query once, {@value #WARM_UP_IN_FLIGHT} at a time, nothing recorded: nodes just
     * started (or restarted for this part) have compiled nothing and cached nothing, and the
     * sweep's own warm-up, a tenth of its first point, is too short for that.
     */
    static void warmUp(OpenSearchTarget target, int queries)
        throws IOException, InterruptedException {
      Semaphore inFlight = new Semaphore(WARM_UP_IN_FLIGHT);
      for (int q = 0; q <= queries; q++) {
        int permits = q < queries ? 1 : WARM_UP_IN_FLIGHT; // at the end: every answer in
        if (!inFlight.tryAcquire(permits, WARM_UP_PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
          throw new IOException(
              "warming up: no answer from the cluster within "
                  + WARM_UP_PATIENCE.toSeconds()
                  + " s");
        }
        if (q < queries) {
          target.send(q).whenComplete((r, e) -> inFlight.release()); // failures warm up too
        }
      }
    }

    /** How long the warm-up waits for a free slot before it calls the cluster unresponsive. */
    static final Duration WARM_UP_PATIENCE = Duration.ofMinutes(2);

    /** Requests in flight while warming up. */
    static final int WARM_UP_IN_FLIGHT = 4;

    /**
     * Prints what Tailor's plugin reports of each node ({@code GET /_tailor/stats}): its policy,
     * requests, units forked and run on helpers, degrees.
     */
    private void printStats() {
      try {
        JsonNode nodes = client.get("/_tailor/stats").path("nodes");
        for (JsonNode n : nodes) {
          err.printf(
              "Tailor's plugin on %s: policy %s, %s requests completed (%s failed), %s units"
                  + " forked (%s on helpers), degrees %s, threads %s%n",
              n.path("name").asText(),
              n.path("policy").asText(),
              n.path("requests").path("completed").asText(),
              n.path("requests").path("failed").asText(),
              n.path("units").path("forked").asText(),
              n.path("units").path("on_helpers").asText(),
              n.path("degree"),
              n.path("threads"));
        }
      } catch (IOException e) {
        err.println("Tailor's plugin: no stats (" + e.getMessage() + ")");
      }
      err.flush();
    }

    private void restart(boolean withPlugin) throws IOException {
      err.println("restarting the nodes " + (withPlugin ? "with" : "without") + " Tailor's plugin");
      err.flush();
      client.put("/_cluster/settings", Configuration.reset(cluster.pluginEnabled()));
      cluster.stop(Duration.ofSeconds(60)).forEach(err::println);
      cluster.setPluginEnabled(withPlugin);
      cluster.start(wait);
    }
  }
}
