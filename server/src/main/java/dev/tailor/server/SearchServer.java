package dev.tailor.server;

import com.sun.net.httpserver.HttpServer;
import dev.tailor.core.Predictor;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.TotalHits;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.Query;

/**
 * A small HTTP JSON search server over a {@link TailorSearcher}, for replaying traces against the
 * scheduler from another process. Built on the JDK's own HTTP server: it needs nothing more, and
 * the request threads it runs searches on are exactly the application threads a drop-in user has.
 *
 * <ul>
 *   <li>{@code GET /search?q=QUERY[&k=10][&timeout=100ms][&label=CATEGORY]}, or {@code POST
 *       /search} with {@code {"q": ..., "k": ..., "timeout": ..., "label": ...}}: the top hits.
 *   <li>{@code GET /stats}: latency and queueing percentiles, the degree distribution per class,
 *       the scheduler's load, the server's own counts ({@code http}), and the application's
 *       counters ({@code counters}, see {@link #addCounter}).
 *   <li>{@code GET /metrics}: the scheduler's metrics in Prometheus' text format ({@link
 *       dev.tailor.micrometer.TailorMetrics}), label groups bounded as on {@code /stats}.
 *   <li>{@code GET /policy}: the policy and its tables.
 * </ul>
 *
 * <p><b>Limits, and what a client sees</b> ({@link Options} sets each one):
 *
 * <ul>
 *   <li>Every exchange runs on one of {@link Options#threads() threads} request threads;
 *       connections waiting for one queue up to {@link Options#acceptQueue() acceptQueue}. A
 *       connection arriving with the queue full is closed without a response (the JDK's server does
 *       so when its executor refuses), and counted as {@code dropped}.
 *   <li>At most {@link Options#maxInFlight() maxInFlight} searches are admitted at once, each
 *       holding its thread from before its body is read until its response is written, whether it
 *       runs or waits in the scheduler's admission queue. A search arriving with that many in is
 *       answered at once {@code 503} with {@code Retry-After: 1}, before its body is read or the
 *       scheduler is asked; so is one the scheduler itself refuses (its queue full, or shutting
 *       down). The {@code threads - maxInFlight} threads no search can take read requests, refuse
 *       them and answer {@code /stats} and {@code /metrics}, so a refusal never waits behind a
 *       search.
 *   <li>A client has {@link Options#clientTimeout() clientTimeout} to send its request, headers and
 *       body, from the moment a thread takes its connection, and again to take its response; past
 *       it the connection is closed without a response. Idle keep-alive connections hold no thread;
 *       the JDK's server closes them after {@code sun.net.httpserver.idleInterval}.
 *   <li>A body over {@link Options#maxBodyBytes() maxBodyBytes} is a {@code 413}: decided from its
 *       {@code Content-Length} before reading it, or after reading one byte past the limit of a
 *       chunked one.
 *   <li>A query longer than {@link Options#maxQueryChars()}, with more than {@link
 *       Options#maxClauses()} leaf clauses, asking more than {@link Options#maxHits()} hits, or
 *       that does not parse, an unknown field, a bad {@code k}, {@code timeout}, {@code label} or
 *       {@code class}: {@code 400}.
 *   <li>{@code class} is the search's priority class, {@code interactive} (the default) or {@code
 *       background}: background searches run on what interactive ones leave, above a floor of
 *       threads ({@link dev.tailor.core.policy.PriorityClass}).
 *   <li>Labels are metrics groups: the {@link Options#labels() known} ones and, first come, others
 *       up to {@link Options#maxLabels()} in all have a group of their own; every later one is
 *       counted as {@code other}. So {@code /stats} holds at most {@code maxLabels + 1} label
 *       groups, besides the work groups of unlabelled requests.
 *   <li>Every error is {@code {"error": "..."}} with a message Tailor wrote: {@code 400}, {@code
 *       404} (unknown path), {@code 405} (with {@code Allow}), {@code 413}, {@code 503}, and {@code
 *       500} for a failure of the server's own, whose detail is only logged. (A request line the
 *       JDK's server cannot parse, such as a malformed {@code %}-escape, it answers itself with a
 *       {@code 400} before any handler runs.)
 * </ul>
 *
 * <p>The server binds to 127.0.0.1 unless told otherwise, and {@link #stop(Duration)} lets running
 * searches finish.
 *
 * <p>With a predictor, each parsed query's sequential time is predicted before it is submitted and
 * travels in its attributes to the policy; the response reports it as {@code predictedMicros}.
 * Without one nothing is predicted (unless the searcher has its own {@linkplain
 * TailorSearcher#setPredictor predictor}).
 */
public final class SearchServer implements AutoCloseable {

  /**
   * The server's address and limits; the class description says what a client sees at each.
   *
   * @param bind the address to bind, {@code 127.0.0.1} by default
   * @param port the port, 0 for any free one
   * @param threads request threads: every exchange runs on one, searches included
   * @param maxInFlight searches admitted at once, running or waiting in the scheduler's queue; less
   *     than {@code threads}, so that threads are left to refuse the next. When it is at most the
   *     scheduler's workers plus its queue capacity, the scheduler never refuses one of them
   * @param acceptQueue connections waiting for a request thread; beyond, a connection is closed
   * @param clientTimeout how long a client may take to send its request, and again to take its
   *     response
   * @param maxBodyBytes the largest POST body
   * @param maxQueryChars the longest query text accepted
   * @param maxClauses the most leaf clauses a parsed query may have
   * @param maxHits the largest {@code k}
   * @param maxLabels the most distinct labels with a metrics group of their own, known ones
   *     included
   * @param labels labels that always have a group of their own
   * @param totalHitsThreshold how far each search counts its hits ({@link TotalHits}): Lucene's
   *     1,000 by default, {@link TotalHits#EXACT} to count every hit and so score every match
   */
  public record Options(
      String bind,
      int port,
      int threads,
      int maxInFlight,
      int acceptQueue,
      Duration clientTimeout,
      int maxBodyBytes,
      int maxQueryChars,
      int maxClauses,
      int maxHits,
      int maxLabels,
      List<String> labels,
      int totalHitsThreshold) {

    /**
     * Checks the limits.
     *
     * @throws IllegalArgumentException naming the first limit out of range
     */
    public Options {
      Objects.requireNonNull(bind, "bind");
      Objects.requireNonNull(clientTimeout, "clientTimeout");
      labels = List.copyOf(labels);
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("port must be 0..65535, got " + port);
      }
      if (maxInFlight < 1 || maxInFlight >= threads) {
        throw new IllegalArgumentException(
            "need 1 <= maxInFlight < threads (threads must be left to refuse), got maxInFlight "
                + maxInFlight
                + " with "
                + threads
                + " threads");
      }
      positive("acceptQueue", acceptQueue);
      positive("maxBodyBytes", maxBodyBytes);
      positive("maxQueryChars", maxQueryChars);
      positive("maxClauses", maxClauses);
      positive("maxHits", maxHits);
      positive("totalHitsThreshold", totalHitsThreshold);
      if (clientTimeout.isNegative() || clientTimeout.isZero()) {
        throw new IllegalArgumentException("clientTimeout must be positive, got " + clientTimeout);
      }
      new LabelGroups(maxLabels, labels); // checks the labels and their number
    }

    private static void positive(String name, int value) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " must be >= 1, got " + value);
      }
    }

    /**
     * Loopback, any port; 64 threads, 48 searches in flight, 64 connections waiting; 10 s for a
     * client; 16 KiB bodies, 1,000 characters, 64 clauses, 1,000 hits; 32 labels, none known; hits
     * counted up to Lucene's default threshold.
     */
    public static Options defaults() {
      return new Options(
          "127.0.0.1",
          0,
          64,
          48,
          64,
          Duration.ofSeconds(10),
          16 * 1024,
          1_000,
          64,
          1_000,
          32,
          List.of(),
          TotalHits.LUCENE_DEFAULT);
    }

    /** These options on another address and port. */
    public Options at(String bind, int port) {
      return new Options(
          bind,
          port,
          threads,
          maxInFlight,
          acceptQueue,
          clientTimeout,
          maxBodyBytes,
          maxQueryChars,
          maxClauses,
          maxHits,
          maxLabels,
          labels,
          totalHitsThreshold);
    }
  }

  private final ClientDeadlines deadlines;
  private final RequestThreads requestThreads;
  private final HttpServer http;
  private final StatsPage statsPage;
  private final MetricsPage metricsPage;

  /**
   * Starts a server that predicts nothing.
   *
   * @param searcher the searcher, whose scheduler runs every search
   * @param analyzer the index's analyzer, to parse query text with
   * @param field the field queries search
   * @param options the address and limits
   * @throws IOException if the address cannot be bound
   */
  public SearchServer(TailorSearcher searcher, Analyzer analyzer, String field, Options options)
      throws IOException {
    this(searcher, analyzer, field, options, null);
  }

  /**
   * Starts a server.
   *
   * @param searcher the searcher, whose scheduler runs every search
   * @param analyzer the index's analyzer, to parse query text with
   * @param field the field queries search
   * @param options the address and limits
   * @param predictor predicts each query's sequential time for the policy, or null for none
   * @throws IOException if the address cannot be bound
   */
  public SearchServer(
      TailorSearcher searcher,
      Analyzer analyzer,
      String field,
      Options options,
      Predictor<Query> predictor)
      throws IOException {
    this(searcher, analyzer, field, options, predictor, null);
  }

  /**
   * Starts a server whose answers to searches carry a {@code Server-Timing} header: the queueing,
   * dispatch and run time of the search's request, from {@code timings}, which must be the listener
   * of the searcher's scheduler.
   *
   * @param searcher the searcher, whose scheduler runs every search
   * @param analyzer the index's analyzer, to parse query text with
   * @param field the field queries search
   * @param options the address and limits
   * @param predictor predicts each query's sequential time for the policy, or null for none
   * @param timings the scheduler's listener that hands each search its record, or null for no
   *     header
   * @throws IOException if the address cannot be bound
   */
  public SearchServer(
      TailorSearcher searcher,
      Analyzer analyzer,
      String field,
      Options options,
      Predictor<Query> predictor,
      ServerTimings timings)
      throws IOException {
    Objects.requireNonNull(searcher, "searcher");
    Objects.requireNonNull(analyzer, "analyzer");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(options, "options");
    InFlight inFlight = new InFlight(options.maxInFlight());
    LabelGroups labels = new LabelGroups(options.maxLabels(), options.labels());
    this.deadlines = new ClientDeadlines(options.clientTimeout());
    this.requestThreads = new RequestThreads(options.threads(), options.acceptQueue(), deadlines);
    this.statsPage =
        new StatsPage(
            searcher.scheduler(), options.threads(), inFlight, requestThreads, deadlines, labels);
    this.metricsPage = new MetricsPage(searcher.scheduler(), options.maxLabels());
    try {
      // The backlog bounds connections the kernel holds before the server accepts them.
      this.http =
          HttpServer.create(
              new InetSocketAddress(options.bind(), options.port()), options.acceptQueue());
    } catch (IOException | RuntimeException e) {
      metricsPage.close();
      requestThreads.shutdown();
      deadlines.close();
      throw e;
    }
    http.setExecutor(requestThreads);
    SearchRunner runner =
        new SearchRunner(searcher, analyzer, field, options, predictor, labels, timings);
    // One context: the JDK's matches paths by prefix.
    http.createContext(
        "/",
        new ExchangeHandler(
            options.maxBodyBytes(), inFlight, deadlines, statsPage, metricsPage, runner));
    http.start();
  }

  /** The address the server listens on. */
  public InetSocketAddress address() {
    return http.getAddress();
  }

  /**
   * Stops accepting connections and waits up to {@code grace} (in whole seconds, as the JDK's
   * server counts) for running exchanges, searches included, to finish; then closes every
   * connection. The JDK's server counts an exchange that never wrote its response (its client cut
   * off past the client timeout, or gone) as running forever, so once that has happened it waits
   * the whole grace.
   */
  public void stop(Duration grace) {
    long start = System.nanoTime();
    http.stop((int) Math.max(0, grace.toSeconds()));
    requestThreads.shutdown();
    try {
      requestThreads.awaitTermination(Math.max(0, grace.toNanos() - (System.nanoTime() - start)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      deadlines.close();
      metricsPage.close();
    }
  }

  /** {@link #stop(Duration) Stops} with five seconds' grace. */
  @Override
  public void close() {
    stop(Duration.ofSeconds(5));
  }

  /**
   * Shows a counter of the application's own in {@code /stats}, under {@code counters}: for
   * instance the documents indexed beside search on the cores an elastic budget returns. The
   * supplier is read on a request thread at every {@code /stats}; it must be thread-safe and quick.
   * A second counter of the same name replaces the first.
   */
  public void addCounter(String name, LongSupplier value) {
    statsPage.addCounter(name, value);
  }
}
