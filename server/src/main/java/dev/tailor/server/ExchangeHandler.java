package dev.tailor.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * The server's HTTP side: routes each exchange to {@code /search}, {@code /stats}, {@code /metrics}
 * or {@code /policy}, enforces the method, body and in-flight limits before a search is read or
 * run, and writes every answer and error under the client's deadline: as JSON, but for {@code
 * /metrics}' Prometheus text. What each limit means to a client is described on {@link
 * SearchServer}.
 */
final class ExchangeHandler implements HttpHandler {

  private static final System.Logger LOG = System.getLogger(SearchServer.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  private final int maxBodyBytes;
  private final InFlight inFlight;
  private final ClientDeadlines deadlines;
  private final StatsPage statsPage;
  private final MetricsPage metricsPage;
  private final SearchRunner runner;

  ExchangeHandler(
      int maxBodyBytes,
      InFlight inFlight,
      ClientDeadlines deadlines,
      StatsPage statsPage,
      MetricsPage metricsPage,
      SearchRunner runner) {
    this.maxBodyBytes = maxBodyBytes;
    this.inFlight = inFlight;
    this.deadlines = deadlines;
    this.statsPage = statsPage;
    this.metricsPage = metricsPage;
    this.runner = runner;
  }

  /**
   * Answers one exchange. An {@code IOException} here is the client's (gone, or past its deadline):
   * no one is left to answer, and it goes back to the JDK's server, which then forgets the
   * connection; swallowed, the connection would stay in the server's books.
   */
  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      try {
        route(exchange);
      } catch (Problem p) {
        error(exchange, p);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "request failed: " + exchange.getRequestURI(), e);
        error(exchange, Problem.internal());
      }
    }
  }

  private void route(HttpExchange exchange) throws Problem, IOException {
    String path = Objects.requireNonNullElse(exchange.getRequestURI().getPath(), "");
    switch (path) {
      case "/search" -> search(exchange);
      case "/stats" -> {
        requireGet(exchange);
        send(exchange, 200, statsPage.render());
      }
      case "/metrics" -> {
        requireGet(exchange);
        send(
            exchange,
            200,
            MetricsPage.CONTENT_TYPE,
            metricsPage.render().getBytes(StandardCharsets.UTF_8));
      }
      case "/policy" -> {
        requireGet(exchange);
        send(exchange, 200, runner.policy());
      }
      default ->
          throw new Problem(
              404,
              "no endpoint " + Problem.quote(path) + ": use /search, /stats, /metrics or /policy");
    }
  }

  private static void requireGet(HttpExchange exchange) throws Problem {
    if (!"GET".equals(exchange.getRequestMethod())) {
      exchange.getResponseHeaders().set("Allow", "GET");
      throw new Problem(
          405,
          "use GET for "
              + exchange.getRequestURI().getPath()
              + ", not "
              + Problem.quote(exchange.getRequestMethod()));
    }
  }

  private void search(HttpExchange exchange) throws Problem, IOException {
    String method = exchange.getRequestMethod();
    boolean post = "POST".equals(method);
    if (!post && !"GET".equals(method)) {
      exchange.getResponseHeaders().set("Allow", "GET, POST");
      throw new Problem(405, "use GET or POST for /search, not " + Problem.quote(method));
    }
    if (post && declaredLength(exchange) > maxBodyBytes) {
      throw tooLarge(exchange);
    }
    if (!inFlight.tryEnter()) {
      if (post) {
        exchange.getResponseHeaders().set("Connection", "close"); // its body stays unread
      }
      throw new Problem(
          503,
          "overloaded: "
              + inFlight.limit()
              + " searches in flight, the server's limit; retry after a second");
    }
    try {
      Map<String, String> fields =
          post
              ? SearchRequest.fromJson(body(exchange), JSON)
              : SearchRequest.fromQueryString(exchange.getRequestURI().getRawQuery());
      // The request is in: from here the time is the search's, not the client's.
      deadlines.disarm();
      SearchRunner.Answer answer = runner.search(fields);
      if (answer.serverTiming() != null) {
        exchange.getResponseHeaders().set(ServerTimings.HEADER, answer.serverTiming());
      }
      send(exchange, 200, answer.body());
    } finally {
      inFlight.exit();
    }
  }

  /** The body's declared length, or 0 without one (a chunked body declares none). */
  private static long declaredLength(HttpExchange exchange) throws Problem {
    String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    try {
      return declared == null ? 0 : Long.parseLong(declared.trim());
    } catch (NumberFormatException e) { // the JDK's server refuses these before; to be sure
      throw new Problem(400, "Content-Length must be a number, got " + Problem.quote(declared));
    }
  }

  /** The body, read up to one byte past the limit under the client deadline. */
  private byte[] body(HttpExchange exchange) throws Problem, IOException {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(maxBodyBytes + 1);
      if (bytes.length > maxBodyBytes) {
        throw tooLarge(exchange);
      }
    }
    return bytes;
  }

  private Problem tooLarge(HttpExchange exchange) {
    exchange.getResponseHeaders().set("Connection", "close"); // the rest stays unread
    return new Problem(413, "request body over " + maxBodyBytes + " bytes, the limit");
  }

  private void error(HttpExchange exchange, Problem problem) throws IOException {
    if (problem.status() == 503) {
      exchange.getResponseHeaders().set("Retry-After", "1");
    }
    send(exchange, problem.status(), JSON.createObjectNode().put("error", problem.getMessage()));
  }

  /** Writes a response under a fresh client deadline: the client has it to take the response. */
  private void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
    send(exchange, status, "application/json", JSON.writeValueAsBytes(body));
  }

  private void send(HttpExchange exchange, int status, String contentType, byte[] bytes)
      throws IOException {
    deadlines.arm();
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
