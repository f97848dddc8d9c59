package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.Scheduler;
import dev.tailor.corpora.index.IndexManifest;
import dev.tailor.lucene.Slicing;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.predictor.ModelPredictor;
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
 * {@code tailor serve}: an HTTP JSON search server over an index, scheduled by a policy.
 *
 * <p>Its limits fit together by default so that overload is refused fast, not queued: with {@code
 * W} workers the scheduler's admission queue holds {@code Q = 4W} searches, the server admits
 * {@code W + Q} at once (each one running, holding a slot, or queued), so it refuses exactly when
 * the scheduler's queue is full, and it has {@code W + Q + max(8, W)} request threads, the ones no
 * search can take left to refuse with a 503 and to answer {@code /stats}. Connections waiting for a
 * thread queue up to the number of threads. {@link SearchServer} describes what a client sees.
 *
 * <p>Two limits of the JDK's HTTP server are JVM-wide system properties, read once when its classes
 * load; {@code serve} sets them before it starts the server, unless the JVM was given them ({@code
 * -D}): {@code sun.net.httpserver.idleInterval} ({@code --idle-timeout}) and {@code
 * jdk.httpserver.maxConnections} ({@code --max-connections}), and it caps request headers at 16 KiB
 * ({@code sun.net.httpserver.maxReqHeaderSize}). It does not set {@code
 * sun.net.httpserver.maxReqTime} or {@code maxRspTime}: their documentation says milliseconds where
 * the JDK reads seconds, and the server bounds both phases itself ({@code --client-timeout}).
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve an index over HTTP JSON (GET/POST /search, GET /stats, GET /policy), every search"
          + " scheduled by the policy. Stops gracefully on Ctrl-C or SIGTERM.",
      "",
      "Overload is refused fast: beyond --max-in-flight searches a request is answered 503 with"
          + " Retry-After: 1 before its body is read. Defaults, with W workers: --queue 4W,"
          + " --max-in-flight W + queue (refusing exactly when the scheduler's queue is full),"
          + " --http-threads max-in-flight + max(8, W), --accept-queue http-threads.",
      ""
    })
final class ServeCommand implements Callable<Integer> {

  /** What {@code serve} caps request headers at: ample for a 1,000-character query, encoded. */
  static final int MAX_HEADER_BYTES = 16 * 1024;

  /** The idle keep-alive connections the JDK's server keeps at most, by default. */
  private static final int JDK_MAX_IDLE_CONNECTIONS = 200;

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
              + ". Serve as the profile was taken, so that a replay against it searches alike.")
  int totalHits;

  @Option(names = "--index", required = true, paramLabel = "DIR", description = "A Tailor index.")
  Path index;

  @Option(
      names = "--policy",
      defaultValue = "seq",
      description = "The scheduling policy (./tailor policies; default ${DEFAULT-VALUE}).")
  String policy;

  @Option(
      names = "--workers",
      description = "The parallelism budget (default: this machine's processors).")
  Integer workers;

  @Option(
      names = "--queue",
      paramLabel = "N",
      description =
          "Searches that may wait in the scheduler's admission queue for a slot of the budget"
              + " (default: 4 per worker). Each holds a request thread while it waits.")
  Integer queue;

  @Option(
      names = "--max-in-flight",
      paramLabel = "N",
      description =
          "Searches admitted at once, running or queued (default: workers + queue, so that the"
              + " server refuses exactly when the scheduler's queue is full). One more is a fast"
              + " 503 with Retry-After: 1.")
  Integer maxInFlight;

  @Option(
      names = "--http-threads",
      paramLabel = "N",
      description =
          "Request threads (default: max-in-flight + max(8, workers)). The ones beyond"
              + " max-in-flight, which no search can hold, read requests, refuse them and answer"
              + " /stats.")
  Integer httpThreads;

  @Option(
      names = "--accept-queue",
      paramLabel = "N",
      description =
          "Connections that may wait for a request thread (default: as many as threads); beyond,"
              + " a connection is closed unanswered.")
  Integer acceptQueue;

  @Option(
      names = "--client-timeout",
      defaultValue = "10s",
      paramLabel = "DURATION",
      description =
          "How long a client may take to send a request, headers and body, and again to take its"
              + " response; past it the connection is closed (default ${DEFAULT-VALUE}).")
  String clientTimeout;

  @Option(
      names = "--idle-timeout",
      defaultValue = "30s",
      paramLabel = "DURATION",
      description =
          "How long an idle keep-alive connection is kept, in whole seconds (JVM-wide"
              + " sun.net.httpserver.idleInterval; default ${DEFAULT-VALUE}).")
  String idleTimeout;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description =
          "Open connections at most, idle ones included (JVM-wide jdk.httpserver.maxConnections;"
              + " default: http-threads + accept-queue + 200 idle). Beyond, a new connection is"
              + " closed at once.")
  Integer maxConnections;

  @Option(
      names = "--labels",
      split = ",",
      paramLabel = "LABEL",
      description = "Request labels that always have a metrics class of their own.")
  List<String> labels = List.of();

  @Option(
      names = "--max-labels",
      defaultValue = "32",
      paramLabel = "N",
      description =
          "Distinct labels with a metrics class of their own, known ones included, first come;"
              + " later ones are counted as 'other' (default ${DEFAULT-VALUE}).")
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
      description =
          "A predictor model (./tailor predictor train): each search's sequential time is"
              + " predicted for the policy. The file is watched; a new valid model is swapped in,"
              + " a bad one is logged and the current one kept.")
  Path model;

  /**
   * The admission limits, defaults filled in from the budget.
   *
   * @param workers the scheduler's budget
   * @param queue the scheduler's admission queue capacity
   * @param maxInFlight searches the server admits at once
   * @param threads request threads
   * @param acceptQueue connections waiting for a thread
   */
  record Limits(int workers, int queue, int maxInFlight, int threads, int acceptQueue) {

    /**
     * Fills in what was not given.
     *
     * @throws IllegalArgumentException naming the option if the limits do not fit together
     */
    static Limits of(
        int workers, Integer queue, Integer maxInFlight, Integer threads, Integer acceptQueue) {
      int q = queue != null ? queue : 4 * workers;
      int f = maxInFlight != null ? maxInFlight : workers + q;
      int t = threads != null ? threads : f + Math.max(8, workers);
      int a = acceptQueue != null ? acceptQueue : t;
      if (q < 1 || f < 1 || a < 1) {
        throw new IllegalArgumentException(
            "--queue, --max-in-flight and --accept-queue must be >= 1, got "
                + q
                + ", "
                + f
                + ", "
                + a);
      }
      if (t <= f) {
        throw new IllegalArgumentException(
            "--http-threads ("
                + t
                + ") must be more than --max-in-flight ("
                + f
                + "): the threads beyond it refuse requests when searches hold the rest");
      }
      return new Limits(workers, q, f, t, a);
    }
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    if (!Files.isDirectory(index)) {
      throw new IllegalArgumentException(index + ": no such index directory");
    }
    IndexManifest manifest = IndexManifest.read(index);
    Limits limits =
        Limits.of(
            workers != null ? workers : Runtime.getRuntime().availableProcessors(),
            queue,
            maxInFlight,
            httpThreads,
            acceptQueue);
    SearchServer.Options d = SearchServer.Options.defaults();
    SearchServer.Options options =
        new SearchServer.Options(
            bind,
            port,
            limits.threads(),
            limits.maxInFlight(),
            limits.acceptQueue(),
            duration("--client-timeout", clientTimeout),
            d.maxBodyBytes(),
            d.maxQueryChars(),
            d.maxClauses(),
            d.maxHits(),
            maxLabels,
            labels,
            totalHits);
    // Before the JDK's server classes load: they read these once.
    jvmWide(
        "sun.net.httpserver.idleInterval",
        Math.max(1, (duration("--idle-timeout", idleTimeout).toMillis() + 999) / 1000));
    jvmWide(
        "jdk.httpserver.maxConnections",
        maxConnections != null
            ? maxConnections
            : limits.threads() + limits.acceptQueue() + JDK_MAX_IDLE_CONNECTIONS);
    jvmWide("sun.net.httpserver.maxReqHeaderSize", MAX_HEADER_BYTES);
    // Each answer says what its served time was made of (Server-Timing), for a replay's breakdown.
    ServerTimings timings = new ServerTimings();
    Scheduler.Builder builder =
        Scheduler.builder()
            .policy(policy)
            .workers(limits.workers())
            .queueCapacity(limits.queue())
            .listener(timings);
    budget.apply(builder);
    CountDownLatch stopped = new CountDownLatch(1);
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(index));
        ModelPredictor predictor = model == null ? null : ModelPredictor.watch(reader, model);
        Scheduler scheduler = builder.build();
        BudgetOptions.Running beside = budget.startBeside(scheduler, manifest.analyzer(), err)) {
      SearchServer server =
          new SearchServer(
              unitsPerQuery == null
                  ? new TailorSearcher(reader, scheduler)
                  : new TailorSearcher(reader, scheduler, Slicing.unitsPerQuery(unitsPerQuery)),
              manifest.analyzer(),
              "body",
              options,
              predictor,
              timings);
      if (budget.indexesBeside()) {
        server.addCounter("documentsIndexedBeside", beside::indexed);
      }
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    server.stop(Duration.ofSeconds(5)); // running searches finish
                    try {
                      beside.close();
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

  private static Duration duration(String option, String text) {
    try {
      return Duration.ofNanos(Durations.parseNanos(text));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
    }
  }

  /** Sets a JVM-wide property of the JDK's HTTP server unless the JVM was given it. */
  private static void jvmWide(String key, long value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, Long.toString(value));
    }
  }
}
