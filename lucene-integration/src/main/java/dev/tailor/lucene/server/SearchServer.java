package dev.tailor.lucene.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tailor.core.Predictor;
import dev.tailor.core.RequestAttributes;
import dev.tailor.core.Scheduler;
import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.lucene.QueryShape;
import dev.tailor.lucene.SearchOutcome;
import dev.tailor.lucene.TailorSearcher;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;

/**
 * A small HTTP JSON search server over a {@link TailorSearcher}, for replaying traces against the
 * scheduler from another process. Built on the JDK's own HTTP server: it needs nothing more, and
 * the request threads it runs searches on are exactly the application threads a drop-in user has.
 *
 * <ul>
 *   <li>{@code GET /search?q=QUERY[&k=10][&timeout=100ms][&label=CATEGORY]}, or {@code POST
 *       /search} with {@code {"q": ..., "k": ..., "timeout": ..., "label": ...}}: the top hits.
 *   <li>{@code GET /stats}: latency and queueing percentiles, the degree distribution per class,
 *       the load.
 *   <li>{@code GET /policy}: the policy and its tables.
 * </ul>
 *
 * <p>A query longer than the limit, with too many clauses, or that does not parse is a 400 that
 * says why; a full admission queue is an immediate 503 with {@code Retry-After}. The server binds
 * to 127.0.0.1 unless told otherwise and {@link #stop(Duration)} lets running searches finish.
 *
 * <p>With a predictor, each parsed query's sequential time is predicted before it is submitted and
 * travels in its attributes to the policy; the response reports it as {@code predictedMicros}.
 * Without one nothing is predicted (unless the searcher has its own {@linkplain
 * TailorSearcher#setPredictor predictor}).
 */
public final class SearchServer implements AutoCloseable {

  /**
   * The server's limits and address.
   *
   * @param bind the address to bind, {@code 127.0.0.1} by default
   * @param port the port, 0 for any free one
   * @param threads request threads (searches waiting for admission hold one each)
   * @param maxQueryChars the longest query text accepted
   * @param maxClauses the most leaf clauses a parsed query may have
   * @param maxHits the largest {@code k}
   * @param maxBodyBytes the largest POST body
   */
  public record Options(
      String bind,
      int port,
      int threads,
      int maxQueryChars,
      int maxClauses,
      int maxHits,
      int maxBodyBytes) {

    /** Loopback, any port, 64 threads, 1,000 characters, 64 clauses, 1,000 hits, 16 KiB. */
    public static Options defaults() {
      return new Options("127.0.0.1", 0, 64, 1_000, 64, 1_000, 16 * 1024);
    }

    /** These options on another address and port. */
    public Options at(String bind, int port) {
      return new Options(bind, port, threads, maxQueryChars, maxClauses, maxHits, maxBodyBytes);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final TailorSearcher searcher;
  private final Analyzer analyzer;
  private final String field;
  private final Options options;
  private final HttpServer http;
  private final ExecutorService requestThreads;
  private final Predictor<Query> predictor;

  /**
   * Starts a server that predicts nothing.
   *
   * @param searcher the searcher, whose scheduler runs every search
   * @param analyzer the index's analyzer, to parse query text with
   * @param field the field queries search
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
    this.predictor = predictor;
    this.searcher = Objects.requireNonNull(searcher, "searcher");
    this.analyzer = Objects.requireNonNull(analyzer, "analyzer");
    this.field = Objects.requireNonNull(field, "field");
    this.options = options;
    this.http = HttpServer.create(new InetSocketAddress(options.bind(), options.port()), 128);
    this.requestThreads =
        Executors.newFixedThreadPool(
            options.threads(), Thread.ofPlatform().name("tailor-http-", 0).daemon().factory());
    http.setExecutor(requestThreads);
    http.createContext("/search", this::search);
    http.createContext("/stats", this::stats);
    http.createContext("/policy", this::policy);
    http.start();
  }

  /** The address the server listens on. */
  public InetSocketAddress address() {
    return http.getAddress();
  }

  /** Stops accepting requests and waits up to {@code grace} for running ones to finish. */
  public void stop(Duration grace) {
    http.stop((int) Math.max(0, grace.toSeconds()));
    requestThreads.shutdown();
    try {
      requestThreads.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stop(Duration.ofSeconds(5));
  }

  private void search(HttpExchange exchange) throws IOException {
    try (exchange) {
      Map<String, String> params;
      if ("GET".equals(exchange.getRequestMethod())) {
        params = query(exchange.getRequestURI());
      } else if ("POST".equals(exchange.getRequestMethod())) {
        params = body(exchange);
        if (params == null) {
          return;
        }
      } else {
        error(exchange, 405, "use GET or POST");
        return;
      }
      String text = params.get("q");
      if (text == null || text.isBlank()) {
        error(exchange, 400, "missing query: give q");
        return;
      }
      if (text.length() > options.maxQueryChars()) {
        error(
            exchange,
            400,
            "query too long: " + text.length() + " characters, limit " + options.maxQueryChars());
        return;
      }
      int k;
      Duration timeout;
      try {
        k = params.containsKey("k") ? Integer.parseInt(params.get("k")) : 10;
        timeout =
            params.containsKey("timeout")
                ? Duration.ofNanos(dev.tailor.core.Durations.parseNanos(params.get("timeout")))
                : null;
      } catch (IllegalArgumentException e) {
        error(exchange, 400, "bad k or timeout: " + e.getMessage());
        return;
      }
      if (k < 1 || k > options.maxHits()) {
        error(exchange, 400, "k must be 1.." + options.maxHits() + ", got " + k);
        return;
      }
      Query query;
      try {
        query = new QueryParser(field, analyzer).parse(text);
      } catch (ParseException | IllegalArgumentException e) {
        error(exchange, 400, "query does not parse: " + firstLine(e.getMessage()));
        return;
      } catch (IndexSearcher.TooManyClauses e) {
        error(exchange, 400, "query too complex: " + e.getMessage());
        return;
      }
      int clauses = QueryShape.of(query).clauses();
      if (clauses > options.maxClauses()) {
        error(
            exchange,
            400,
            "query too complex: " + clauses + " clauses, limit " + options.maxClauses());
        return;
      }
      long start = System.nanoTime();
      long predicted = predict(query);
      SearchOutcome<TopDocs> outcome;
      try {
        outcome =
            searcher.search(
                query,
                new TopScoreDocCollectorManager(k, 1000),
                new RequestAttributes(params.get("label"), predicted),
                timeout);
      } catch (RejectedExecutionException e) {
        exchange.getResponseHeaders().set("Retry-After", "1");
        error(exchange, 503, "overloaded: " + e.getMessage());
        return;
      } catch (CancellationException e) {
        error(exchange, 503, "shutting down");
        return;
      } catch (IndexSearcher.TooManyClauses e) {
        error(exchange, 400, "query too complex: " + e.getMessage());
        return;
      }
      ObjectNode out = JSON.createObjectNode();
      out.put("query", query.toString(field));
      TopDocs top = outcome.result();
      out.put("totalHits", top.totalHits.value());
      out.put("totalHitsRelation", top.totalHits.relation().name());
      out.put("timedOut", outcome.timedOut());
      out.put("tookMicros", (System.nanoTime() - start) / 1_000);
      if (predicted != RequestView.UNKNOWN) {
        out.put("predictedMicros", predicted / 1_000.0);
      }
      ArrayNode hits = out.putArray("hits");
      for (ScoreDoc sd : top.scoreDocs) {
        hits.addObject().put("doc", sd.doc).put("score", sd.score);
      }
      send(exchange, 200, out);
    } catch (RuntimeException e) {
      error(exchange, 500, "search failed: " + e);
    }
  }

  /** The predictor's estimate, or UNKNOWN without a predictor or when it cannot say. */
  private long predict(Query query) {
    if (predictor == null) {
      return RequestView.UNKNOWN;
    }
    try {
      long nanos = predictor.predictSequentialNanos(query);
      return nanos < 0 ? RequestView.UNKNOWN : nanos;
    } catch (RuntimeException e) {
      return RequestView
          .UNKNOWN; // the contract says it does not throw; a search never fails for it
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  private void stats(HttpExchange exchange) throws IOException {
    try (exchange) {
      Scheduler scheduler = searcher.scheduler();
      RunMetrics metrics = scheduler.metrics();
      ObjectNode out = JSON.createObjectNode();
      out.set("latencyMicros", percentiles(metrics.latency()));
      out.set("queueingMicros", percentiles(metrics.queueing()));
      ObjectNode degrees = out.putObject("degreeDistribution");
      metrics
          .degreeDistribution()
          .forEach(
              (cls, counts) -> {
                ObjectNode c = degrees.putObject(cls);
                for (int d = 0; d < counts.length; d++) {
                  if (counts[d] > 0) {
                    c.put(Integer.toString(d), counts[d]);
                  }
                }
              });
      SystemView load = scheduler.systemView();
      ObjectNode l = out.putObject("load");
      l.put("active", load.activeRequests());
      l.put("queued", load.queuedRequests());
      l.put("busyWorkers", load.busyWorkers());
      l.put("poolSize", load.poolSize());
      l.put("busyThreadsOnLong", load.busyThreadsOnLongRequests());
      l.put("meanBusyWorkers", scheduler.meanBusyWorkers());
      ObjectNode outcomes = out.putObject("outcomes");
      for (var o : dev.tailor.core.metrics.RequestRecord.Outcome.values()) {
        outcomes.put(o.name().toLowerCase(java.util.Locale.ROOT), metrics.count(o));
      }
      send(exchange, 200, out);
    }
  }

  private static ObjectNode percentiles(Histogram h) {
    ObjectNode out = JSON.createObjectNode();
    out.put("count", h.getTotalCount());
    if (h.getTotalCount() > 0) {
      out.put("mean", h.getMean() / 1_000);
      for (double p : new double[] {50, 90, 99, 99.9}) {
        out.put(
            "p" + (p == Math.rint(p) ? Integer.toString((int) p) : Double.toString(p)),
            h.getValueAtPercentile(p) / 1_000.0);
      }
      out.put("max", h.getMaxValue() / 1_000.0);
    }
    return out;
  }

  private void policy(HttpExchange exchange) throws IOException {
    try (exchange) {
      ObjectNode out = JSON.createObjectNode();
      out.put("policy", searcher.scheduler().policy().spec());
      out.putNull("tables"); // no table-driven policy exists yet
      out.put("slicing", searcher.slicing().toString());
      if (predictor != null) {
        out.put("predictor", predictor.toString());
      } else {
        out.putNull("predictor");
      }
      send(exchange, 200, out);
    }
  }

  private static Map<String, String> query(URI uri) {
    Map<String, String> params = new HashMap<>();
    String raw = uri.getRawQuery();
    if (raw == null) {
      return params;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      params.put(key, value);
    }
    return params;
  }

  /** The POST body's fields, or null after answering with an error. */
  private Map<String, String> body(HttpExchange exchange) throws IOException {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(options.maxBodyBytes() + 1);
    }
    if (bytes.length > options.maxBodyBytes()) {
      error(exchange, 413, "request body over " + options.maxBodyBytes() + " bytes");
      return null;
    }
    JsonNode node;
    try {
      node = JSON.readTree(bytes);
    } catch (IOException e) {
      error(exchange, 400, "body is not JSON: " + firstLine(e.getMessage()));
      return null;
    }
    if (node == null || !node.isObject()) {
      error(exchange, 400, "body must be a JSON object with a field q");
      return null;
    }
    Map<String, String> params = new HashMap<>();
    node.properties().forEach(e -> params.put(e.getKey(), e.getValue().asText()));
    return params;
  }

  private static void error(HttpExchange exchange, int status, String message) throws IOException {
    ObjectNode out = JSON.createObjectNode();
    out.put("error", message);
    out.put("status", status);
    send(exchange, status, out);
  }

  private static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
