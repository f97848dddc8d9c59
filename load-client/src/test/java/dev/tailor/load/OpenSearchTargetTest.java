package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tailor.measure.Failures;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenSearchTargetTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<HttpServer> servers = new ArrayList<>();

  /** Every search body a stand-in node received, with the node's name. */
  private final List<String> received = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
  }

  /**
   * A stand-in OpenSearch node: {@code GET /} answers as OpenSearch does (or as another server when
   * {@code distribution} is not {@code opensearch}); a search on {@code /idx/_search} answers as
   * the query text names it: {@code ok} a complete result, {@code full} 429 (the search queue is
   * full), {@code gone} 503, {@code bad} 400, {@code partial-rejected} 200 with a shard rejected,
   * {@code partial-broken} 200 with a shard that threw, {@code slow} 200 timed out.
   */
  private URI node(String name, String distribution) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          if (path.equals("/")) {
            respond(
                exchange,
                200,
                "{\"name\":\""
                    + name
                    + "\",\"version\":{\"distribution\":\""
                    + distribution
                    + "\",\"number\":\"3.8.0\"}}");
            return;
          }
          if (!path.equals("/idx/_search") || !exchange.getRequestMethod().equals("POST")) {
            respond(exchange, 404, "{}");
            return;
          }
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          received.add(name + " " + body);
          String text = JSON.readTree(body).path("query").path("match").path("body").asText();
          switch (text) {
            case "ok" -> respond(exchange, 200, result(2, 0, "", false));
            case "full" ->
                respond(exchange, 429, "{\"error\":{\"type\":\"rejected\"},\"status\":429}");
            case "gone" -> respond(exchange, 503, "{\"status\":503}");
            case "bad" -> respond(exchange, 400, "{\"status\":400}");
            case "partial-rejected" ->
                respond(
                    exchange,
                    200,
                    result(
                        2, 1, "{\"reason\":{\"type\":\"rejected_execution_exception\"}}", false));
            case "partial-broken" ->
                respond(
                    exchange,
                    200,
                    result(2, 1, "{\"reason\":{\"type\":\"query_shard_exception\"}}", false));
            case "slow" -> respond(exchange, 200, result(2, 0, "", true));
            default -> respond(exchange, 500, "{}");
          }
        });
    server.start();
    servers.add(server);
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private static String result(int total, int failed, String failure, boolean timedOut) {
    return "{\"took\":1,\"timed_out\":"
        + timedOut
        + ",\"_shards\":{\"total\":"
        + total
        + ",\"successful\":"
        + (total - failed)
        + ",\"skipped\":0,\"failed\":"
        + failed
        + (failed > 0 ? ",\"failures\":[" + failure + "]" : "")
        + "},\"hits\":{\"total\":{\"value\":1,\"relation\":\"eq\"},\"hits\":[]}}";
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    try (exchange) {
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length);
      exchange.getResponseBody().write(bytes);
    }
  }

  private static Failures.Kind failureOf(OpenSearchTarget target, int query) throws Exception {
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> target.send(query).get(1, TimeUnit.MINUTES));
    return RequestFailedException.kindOf(e);
  }

  @Test
  void sendsAMatchQueryForTopTenWithoutSourcesToEachNodeInTurn() throws Exception {
    List<URI> nodes = List.of(node("n1", "opensearch"), node("n2", "opensearch"));
    try (OpenSearchTarget target =
        new OpenSearchTarget(nodes, "idx", "body", List.of("ok"), "seq")) {
      assertEquals("seq", target.policy());
      for (int i = 0; i < 4; i++) {
        target.send(i).get(1, TimeUnit.MINUTES);
      }
    }
    assertEquals(4, received.size());
    for (int i = 0; i < 4; i++) {
      String line = received.get(i);
      assertTrue(line.startsWith(i % 2 == 0 ? "n1 " : "n2 "), line);
      JsonNode body = JSON.readTree(line.substring(3));
      assertEquals(OpenSearchTarget.SIZE, body.path("size").asInt());
      assertEquals(false, body.path("_source").asBoolean(true));
      assertEquals("ok", body.path("query").path("match").path("body").asText());
    }
  }

  @Test
  void queryTextIsSentAsJsonStringWhateverItHolds() throws Exception {
    String text = "who said \"to be\" \\ or not?";
    JsonNode body = JSON.readTree(OpenSearchTarget.searchBody("body", text));
    assertEquals(text, body.path("query").path("match").path("body").asText());
  }

  @Test
  void eachFailureIsClassifiedByKind() throws Exception {
    List<String> queries =
        List.of("ok", "full", "gone", "bad", "partial-rejected", "partial-broken", "slow");
    try (OpenSearchTarget target =
        new OpenSearchTarget(
            List.of(node("n1", "opensearch")), "idx", "body", queries, "opensearch")) {
      target.send(0).get(1, TimeUnit.MINUTES);
      assertEquals(Failures.Kind.REJECTED, failureOf(target, 1));
      assertEquals(Failures.Kind.REJECTED, failureOf(target, 2));
      assertEquals(Failures.Kind.STATUS, failureOf(target, 3));
      assertEquals(Failures.Kind.REJECTED, failureOf(target, 4));
      assertEquals(Failures.Kind.ERROR, failureOf(target, 5));
      assertEquals(Failures.Kind.ERROR, failureOf(target, 6));
    }
  }

  @Test
  void aServerThatIsNotOpenSearchIsRefusedBeforeAnyLoad() throws Exception {
    URI other = node("x", "elasticsearch");
    IOException e =
        assertThrows(
            IOException.class,
            () -> new OpenSearchTarget(List.of(other), "idx", "body", List.of("ok"), "seq"));
    assertTrue(e.getMessage().contains("is not an OpenSearch node"), e.getMessage());
    assertTrue(received.isEmpty());
  }
}
