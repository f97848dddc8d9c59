package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.corpora.index.IndexManifest;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.TailorSearchers;
import dev.tailor.lucene.Windowing;
import dev.tailor.predictor.ModelPredictor;
import dev.tailor.profiler.IndexingBeside;
import dev.tailor.server.AdmissionLimits;
import dev.tailor.server.SearchServer;
import dev.tailor.server.ServerTimings;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tailor serve}: an HTTP JSON search server over an index, scheduled by a policy, with its
 * admission limits fitted together by {@link AdmissionLimits}. {@link SearchServer} describes what
 * a client sees.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve an index over HTTP JSON (GET/POST /search, GET /stats, GET /policy) and Prometheus"
          + " metrics (GET /metrics), every search scheduled by the policy. Stops gracefully on"
          + " Ctrl-C or SIGTERM.",
      "Overload is refused fast with a 503 (docs/operating.md); the limits' defaults, with W"
          + " workers: --queue 4W, --max-in-flight W + queue, --http-threads max-in-flight +"
          + " max(8, W), --accept-queue http-threads.",
      ""
    })
final class ServeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin BudgetOptions budget;

  @Option(
      names = "--total-hits",
      paramLabel = "exact|N",
      defaultValue = "1000",
      converter = TotalHitsThreshold.class,
      description =
          "How far each search counts its hits: "
              + TotalHitsThreshold.VALUES
              + ", as the replayed profile did.")
  int totalHits;

  @Option(names = "--index", required = true, paramLabel = "DIR", description = "A Tailor index.")
  Path index;

  @Option(
      names = "--policy",
      defaultValue = Scheduler.DEFAULT_POLICY,
      description = "The scheduling policy (./tailor policies; default ${DEFAULT-VALUE}).")
  String policy;

  @Option(
      names = "--workers",
      description = "The parallelism budget (default: this machine's processors).")
  Integer workers;

  @Option(
      names = "--queue",
      paramLabel = "N",
      description = "Searches that may wait in the scheduler's queue (default: 4 per worker).")
  Integer queue;

  @Option(
      names = "--max-in-flight",
      paramLabel = "N",
      description = "Searches admitted at once, running or queued (default: workers + queue).")
  Integer maxInFlight;

  @Option(
      names = "--http-threads",
      paramLabel = "N",
      description = "Request threads (default: max-in-flight + max(8, workers)).")
  Integer httpThreads;

  @Option(
      names = "--accept-queue",
      paramLabel = "N",
      description = "Connections that may wait for a request thread (default: the threads).")
  Integer acceptQueue;

  @Option(
      names = "--client-timeout",
      defaultValue = "10s",
      paramLabel = "DURATION",
      description =
          "How long a client may take to send, and to receive (default ${DEFAULT-VALUE}).")
  String clientTimeout;

  @Option(
      names = "--prompt-bound",
      defaultValue = "1ms",
      paramLabel = "DURATION",
      description =
          "The most a helper's claim takes before an arriving search may have its thread (default"
              + " ${DEFAULT-VALUE}); positive, and no longer than --client-timeout.")
  String promptBound;

  @Option(
      names = "--idle-timeout",
      defaultValue = "30s",
      paramLabel = "DURATION",
      description = "How long an idle keep-alive connection is kept (default ${DEFAULT-VALUE}).")
  String idleTimeout;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description = "Open connections at most (default: http-threads + accept-queue + 200).")
  Integer maxConnections;

  @Option(
      names = "--labels",
      split = ",",
      paramLabel = "LABEL",
      description = "Request labels that always have a metrics group of their own.")
  List<String> labels = List.of();

  @Option(
      names = "--max-labels",
      defaultValue = "32",
      paramLabel = "N",
      description = "Distinct labels with a metrics group of their own (default ${DEFAULT-VALUE}).")
  int maxLabels;

  @Option(
      names = "--bind",
      defaultValue = "127.0.0.1",
      description = "Address to bind (default ${DEFAULT-VALUE}).")
  String bind;

  @Option(
      names = "--port",
      defaultValue = "8080",
      description = "Port (default ${DEFAULT-VALUE}; 0 for any free one).")
  int port;

  @Option(
      names = "--units-per-query",
      description = "Units each query is cut into (default: four per thread of the budget).")
  Integer unitsPerQuery;

  @Option(
      names = "--model",
      paramLabel = "FILE",
      description = "A predictor model, watched: each search's sequential time is predicted.")
  Path model;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    Duration bound = promptBound();
    if (!Files.isDirectory(index)) {
      throw new IllegalArgumentException(index + ": no such index directory");
    }
    IndexManifest manifest = IndexManifest.read(index);
    AdmissionLimits limits =
        AdmissionLimits.of(
            workers != null ? workers : Runtime.getRuntime().availableProcessors(),
            queue,
            maxInFlight,
            httpThreads,
            acceptQueue);
    SearchServer.Options options =
        limits.serverOptions(
            bind, port, duration("--client-timeout", clientTimeout), maxLabels, labels, totalHits);
    // Before the JDK's server classes load: they read these once.
    limits.setJvmWide(
        (duration("--idle-timeout", idleTimeout).toMillis() + 999) / 1000, maxConnections);
    // Each answer says what its served time was made of (Server-Timing), for a replay's breakdown.
    ServerTimings timings = new ServerTimings();
    Scheduler.Builder builder =
        SchedulerInternals.policy(Scheduler.builder(), policy)
            .workers(limits.workers())
            .tuning(Tuning.defaults().withQueueCapacity(limits.queue()).withPromptBound(bound))
            .listener(timings);
    budget.apply(builder);
    CountDownLatch stopped = new CountDownLatch(1);
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(index));
        ModelPredictor predictor = model == null ? null : ModelPredictor.watch(reader, model);
        Scheduler scheduler = builder.build();
        IndexingBeside beside = budget.startBeside(scheduler, manifest.analyzer(), err)) {
      SearchServer server =
          new SearchServer(
              unitsPerQuery == null
                  ? new TailorSearcher(reader, scheduler)
                  : TailorSearchers.create(
                      reader, scheduler, Windowing.windowsPerQuery(unitsPerQuery)),
              manifest.analyzer(),
              "body",
              options,
              predictor,
              timings);
      if (beside != null) {
        server.addCounter("documentsIndexedBeside", beside::indexed);
      }
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    server.stop(Duration.ofSeconds(5)); // running searches finish
                    try {
                      if (beside != null) {
                        beside.close();
                      }
                    } catch (Exception e) {
                      err.println("background indexing: " + e);
                    }
                    scheduler.close();
                    stopped.countDown();
                  }));
      err.printf(
          "serving %s (%s, %d docs) on http://%s:%d with policy %s, %s; Ctrl-C stops%n",
          index,
          manifest.sourceLabel(),
          reader.maxDoc(),
          server.address().getHostString(),
          server.address().getPort(),
          scheduler.policy().spec(),
          predictor == null ? "no predictor" : "predictor: " + predictor);
      err.printf(
          "admitting %d searches at once (%d workers, %d queued), %d request threads;"
              + " beyond, 503 with Retry-After; worker budget: %s%n",
          limits.maxInFlight(),
          limits.workers(),
          limits.queue(),
          limits.threads(),
          budget.budget == null ? "static" : budget.budget);
      err.flush();
      stopped.await();
    }
    return 0;
  }

  /**
   * {@code --prompt-bound}, refused when not positive or longer than {@code --client-timeout}: a
   * client would give up on a search before an arrival could have a helper's thread.
   */
  private Duration promptBound() {
    Duration bound = duration("--prompt-bound", promptBound);
    Duration client = duration("--client-timeout", clientTimeout);
    if (bound.isZero() || bound.isNegative() || bound.compareTo(client) > 0) {
      throw new IllegalArgumentException(
          "--prompt-bound: expected a positive duration no longer than --client-timeout ("
              + clientTimeout
              + "), got "
              + promptBound);
    }
    return bound;
  }

  private static Duration duration(String option, String text) {
    try {
      return Duration.ofNanos(Durations.parseNanos(text));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
    }
  }
}
