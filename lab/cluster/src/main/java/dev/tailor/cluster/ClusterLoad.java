package dev.tailor.cluster;

import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.trace.QueryTrace;
import dev.tailor.corpora.trace.TraceFormat;
import dev.tailor.corpora.trace.TraceQuery;
import dev.tailor.load.Sweep;
import dev.tailor.load.report.ReplayedTrace;
import dev.tailor.load.report.Report;
import dev.tailor.load.report.ReportedWorkload;
import dev.tailor.measure.PointResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * A sweep through a running {@link Cluster}: a corpus loaded into an index, then the open-loop load
 * of a query trace swept through the nodes in turn for every configuration of the plan, and the
 * usual sweep report written. Each request is a {@code match} query of one trace text on the body
 * field, top 10 hits.
 *
 * <p>The plan's policies are configurations: OpenSearch's own {@code seq} (concurrent segment
 * search off), {@code opensearch} (mode {@code all}) and {@code opensearch-auto} (mode {@code
 * auto}), a Tailor policy (mode {@code all}, run by the plugin's executor) or {@code
 * decider:POLICY} (mode {@code auto}, Tailor's decider choosing per shard request); {@link
 * #configurations} lists them. All run on the same nodes, interleaved; the cluster's plugin is left
 * as it was found.
 */
public final class ClusterLoad {

  private final Cluster cluster;
  private final Settings settings;
  private final Sweep.Plan plan;
  private final List<Configuration> configs;
  private final Consumer<String> log;

  /**
   * What is loaded and how the cluster runs the sweep.
   *
   * @param index the index's name
   * @param shape how the index is laid out and loaded
   * @param limit only the corpus's first {@code limit} documents ({@link Long#MAX_VALUE}: all)
   * @param reload whether to load the index again even if it holds these documents already
   * @param queries only the trace's first {@code queries} queries, or null for all
   * @param slices {@code search.concurrent.max_slice_count} for Tailor's policies, or 0 for
   *     OpenSearch's default
   * @param restartTimeout how long a restart (with or without the plugin) may take to reach green
   */
  public record Settings(
      String index,
      IndexShape shape,
      long limit,
      boolean reload,
      Integer queries,
      int slices,
      Duration restartTimeout) {

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException naming the option if the limit or the queries are below 1 or
     *     the slices below 0
     */
    public Settings {
      if (limit < 1) {
        throw new IllegalArgumentException("--limit: " + limit + " (expected at least 1)");
      }
      if (queries != null && queries < 1) {
        throw new IllegalArgumentException("--queries: " + queries + " (>= 1)");
      }
      if (slices < 0) {
        throw new IllegalArgumentException("--slices: " + slices + " (expected >= 0)");
      }
    }
  }

  /**
   * A sweep of {@code plan} through {@code cluster}, checked before anything is loaded.
   *
   * @param plan the sweep; its policies are configurations, as {@link #configurations} lists them
   * @param log hears what is done, a line at a time
   * @throws IllegalArgumentException if a Tailor policy is planned on a cluster started without the
   *     plugin
   * @throws IOException if the cluster's nodes are not all running
   */
  public ClusterLoad(Cluster cluster, Settings settings, Sweep.Plan plan, Consumer<String> log)
      throws IOException {
    this.cluster = cluster;
    this.settings = settings;
    this.plan = plan;
    this.configs = plan.policies().stream().map(Configuration::of).toList();
    this.log = log;
    ClusterLayout layout = cluster.layout();
    List<String> tailor =
        configs.stream().filter(Configuration::needsPlugin).map(Configuration::name).toList();
    if (!tailor.isEmpty() && !layout.plugin()) {
      throw new IllegalArgumentException(
          "Tailor's policies "
              + tailor
              + " need the plugin, but the cluster was started with --no-plugin; give"
              + " only OpenSearch's own configurations (--policies seq) or start it with the plugin");
    }
    if (cluster.running().size() != layout.nodes()) {
      throw new IOException(
          "the cluster is not running (running: "
              + cluster.running()
              + "); start it with ./tailor cluster up");
    }
  }

  /**
   * The configurations a sweep runs for a {@code --policies} and a {@code --decider} list: {@code
   * seq}, {@code opensearch} and {@code opensearch-auto} always, then every other policy of {@code
   * policies} under mode {@code all}, then each of {@code deciderPolicies} through Tailor's decider
   * under mode {@code auto} (named {@code decider:POLICY}), each once, in the order given.
   *
   * @param deciderPolicies the policies for the decider, or null for none
   * @throws IllegalArgumentException if a policy is unknown or malformed, saying what is expected
   */
  public static List<String> configurations(String policies, String deciderPolicies) {
    return Configuration.parse(policies, deciderPolicies).stream()
        .map(Configuration::name)
        .toList();
  }

  /**
   * Loads the corpus (unless the index holds it already, as the settings say), sweeps the queries
   * of {@code trace} through the nodes and writes the report into {@code reportDir}.
   *
   * @param onPoint hears each point as it finishes
   * @param cdfRps the load whose latency CDF is plotted, or NaN for the highest unsaturated one
   * @param targetNanos the latency target whose misses the report gives, or 0 for none
   * @return the report's Markdown summary
   * @throws IOException if a call to the cluster fails, the trace has no query, or the report
   *     cannot be written
   */
  public String run(
      Corpus corpus,
      Path trace,
      Consumer<PointResult> onPoint,
      Path reportDir,
      double cdfRps,
      long targetNanos)
      throws IOException, InterruptedException {
    ClusterLayout layout = cluster.layout();
    RestClient client = cluster.client(1, Duration.ofSeconds(60));
    long count =
        new IndexLoader(client, log)
            .load(settings.index(), corpus, settings.limit(), settings.shape(), settings.reload());
    List<String> texts = queryTexts(trace, settings.queries());
    String environment =
        String.format(
            "measured through a %d-node OpenSearch %s cluster on this machine (%d cores), index"
                + " %s: %d documents, %d shards x %d copies",
            layout.nodes(),
            layout.version(),
            Runtime.getRuntime().availableProcessors(),
            settings.index(),
            count,
            settings.shape().shards(),
            settings.shape().replicas() + 1);
    log.accept(
        String.format(
            "sweeping %d queries through %d nodes: %s x %d loads x %d repetitions, %s",
            texts.size(),
            layout.nodes(),
            plan.policies(),
            plan.rps().size(),
            plan.repetitions(),
            plan.points()));
    ClusterSweep sweep = new ClusterSweep(cluster, client, settings, texts, log);
    List<PointResult> points =
        sweep.run(configs, plan, new ClusterSweep.Labels(environment, corpus.label(), onPoint));
    return Report.write(
        reportDir,
        points,
        cdfRps,
        ReportedWorkload.unprofiled(texts.size()),
        ReplayedTrace.of(trace, texts.size()),
        new Report.Conditions(0, ClusterSweep.ORDER).withTarget(targetNanos));
  }

  /** The trace's query texts (those with a term left after English analysis), the first N. */
  static List<String> queryTexts(Path file, Integer queries) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException(file + ": no such trace file");
    }
    QueryTrace parsed =
        QueryTrace.read(file, TraceFormat.detect(file), new EnglishAnalyzer(), false);
    List<String> texts = parsed.queries().stream().map(TraceQuery::text).toList();
    if (queries != null) {
      texts = texts.subList(0, Math.min(queries, texts.size()));
    }
    if (texts.isEmpty()) {
      throw new IOException(file + ": no query to run");
    }
    return texts;
  }
}
