package dev.tailor.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.measure.Failures;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OpenSearch cluster over HTTP: each request is a {@code match} query of one trace text on the
 * body field, top {@value #SIZE} hits without their sources, sent to the cluster's nodes in turn
 * (each node coordinates the requests it receives, as a client behind a round-robin balancer would
 * have it). Construction asks every node for its identity, so an unreachable or wrong address fails
 * within seconds, before any load is sent.
 *
 * <p>OpenSearch answers a search with 200 even when some of its shards failed (rejected by a full
 * {@code search} queue, or threw), returning the other shards' hits; such a partial answer is not
 * the request's result, so it counts as a failure, as does a search that timed out.
 */
public final class OpenSearchTarget implements Target {

  /** Hits asked for per request. */
  public static final int SIZE = 10;

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
  private static final int HTTP_OK = 200;
  private static final int HTTP_TOO_MANY_REQUESTS = 429;
  private static final int HTTP_UNAVAILABLE = 503;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<URI> nodes;
  private final String index;
  private final String field;
  private final List<String> queries;
  private final String policy;
  private final ExecutorService executor;
  private final HttpClient client;
  private final AtomicInteger next = new AtomicInteger();

  /**
   * Connects to a cluster.
   *
   * @param nodes the nodes' HTTP addresses (e.g. {@code http://127.0.0.1:9200}), at least one
   * @param index the index searched
   * @param field the text field each query matches
   * @param queries the query texts, sent as they are
   * @param policy what decides on the cluster's side, as reports name it (e.g. {@code seq})
   * @throws IOException if a node does not answer {@code GET /} as OpenSearch within seconds
   */
  public OpenSearchTarget(
      List<URI> nodes, String index, String field, List<String> queries, String policy)
      throws IOException {
    if (nodes.isEmpty() || queries.isEmpty()) {
      throw new IllegalArgumentException("an OpenSearch target needs a node and a query");
    }
    this.nodes = List.copyOf(nodes);
    this.index = index;
    this.field = field;
    this.queries = List.copyOf(queries);
    this.policy = policy;
    this.executor = Executors.newVirtualThreadPerTaskExecutor();
    // HTTP/1.1, a connection per request in flight: the JDK client's default, HTTP/2, upgrades
    // the connection to OpenSearch to h2c and then fails every request beyond the server's limit
    // of concurrent streams ("too many concurrent streams") instead of waiting or opening another.
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .executor(executor)
            .build();
    try {
      for (URI node : this.nodes) {
        checkIsOpenSearch(node);
      }
    } catch (IOException e) {
      executor.shutdownNow();
      throw e;
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reaching " + nodes, e);
    }
  }

  private void checkIsOpenSearch(URI node) throws IOException, InterruptedException {
    HttpResponse<String> r;
    try {
      r =
          client.send(
              HttpRequest.newBuilder(node.resolve("/")).timeout(CONNECT_TIMEOUT).build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IOException("cannot reach OpenSearch at " + node + ": " + e, e);
    }
    JsonNode version = r.statusCode() == HTTP_OK ? JSON.readTree(r.body()).path("version") : null;
    if (version == null || !"opensearch".equals(version.path("distribution").asText())) {
      throw new IOException(
          node + " is not an OpenSearch node (GET / said " + r.statusCode() + ")");
    }
  }

  /** The body of the search for one text: a match query on the field, top hits, no sources. */
  static String searchBody(String field, String text) {
    ObjectNode body = JSON.createObjectNode();
    body.put("size", SIZE);
    body.put("_source", false);
    body.putObject("query").putObject("match").put(field, text);
    return body.toString();
  }

  /**
   * Sends a search to the next node; its future fails with a {@link RequestFailedException} saying
   * why where the answer is not a complete result: {@link Failures.Kind#REJECTED} for a 429 or 503
   * (a full queue or no shard available), or a partial answer whose shards were rejected; {@link
   * Failures.Kind#STATUS} for any other status; {@link Failures.Kind#ERROR} for a partial answer
   * whose shards failed otherwise, or a search that timed out. An I/O error fails it with the
   * client's exception, which counts as {@link Failures.Kind#ERROR}.
   */
  @Override
  public CompletableFuture<?> send(int query) {
    URI node = nodes.get(Math.floorMod(next.getAndIncrement(), nodes.size()));
    HttpRequest request =
        HttpRequest.newBuilder(node.resolve("/" + index + "/_search"))
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    searchBody(field, queries.get(query % queries.size()))))
            .build();
    return client
        .sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
        .thenApply(OpenSearchTarget::answer);
  }

  /** The response, if it is a complete result; else the failure it says. */
  static HttpResponse<byte[]> answer(HttpResponse<byte[]> r) {
    int status = r.statusCode();
    if (status != HTTP_OK) {
      throw new RequestFailedException(
          status == HTTP_TOO_MANY_REQUESTS || status == HTTP_UNAVAILABLE
              ? Failures.Kind.REJECTED
              : Failures.Kind.STATUS,
          "HTTP " + status,
          null);
    }
    JsonNode body;
    try {
      body = JSON.readTree(r.body());
    } catch (IOException e) {
      throw new RequestFailedException(Failures.Kind.ERROR, "unreadable answer: " + e, e);
    }
    int failed = body.path("_shards").path("failed").asInt(0);
    if (failed > 0) {
      boolean rejected = body.path("_shards").path("failures").toString().contains("rejected");
      throw new RequestFailedException(
          rejected ? Failures.Kind.REJECTED : Failures.Kind.ERROR,
          String.format(
              Locale.ROOT,
              "%d of %d shards failed%s",
              failed,
              body.path("_shards").path("total").asInt(),
              rejected ? " (rejected)" : ""),
          null);
    }
    if (body.path("timed_out").asBoolean(false)) {
      throw new RequestFailedException(Failures.Kind.ERROR, "the search timed out", null);
    }
    return r;
  }

  @Override
  public String policy() {
    return policy;
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
