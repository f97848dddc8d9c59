package dev.tailor.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The few calls of OpenSearch's REST API that setting up a cluster needs, over the JDK's HTTP
 * client: JSON in, JSON out, a status other than 2xx an {@link IOException} naming the call, the
 * status and the start of the answer.
 */
final class RestClient {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int EXCERPT = 500;

  private final URI node;
  private final HttpClient client;
  private final Duration timeout;

  /**
   * A client of one node.
   *
   * @param node its HTTP address, e.g. {@code http://127.0.0.1:9200}
   * @param timeout how long one call may take
   */
  RestClient(URI node, Duration timeout) {
    this.node = node;
    this.timeout = timeout;
    this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
  }

  /** The node's address. */
  URI node() {
    return node;
  }

  /** {@code GET path}. */
  JsonNode get(String path) throws IOException {
    return call("GET", path, null, "application/json");
  }

  /** {@code PUT path} with a JSON body. */
  JsonNode put(String path, JsonNode body) throws IOException {
    return call("PUT", path, body.toString(), "application/json");
  }

  /** {@code POST path} with a body of the given type ({@code application/x-ndjson} for bulk). */
  JsonNode post(String path, String body, String contentType) throws IOException {
    return call("POST", path, body, contentType);
  }

  /** {@code DELETE path}. */
  JsonNode delete(String path) throws IOException {
    return call("DELETE", path, null, "application/json");
  }

  /** Whether {@code HEAD path} answers 200 (an index exists). */
  boolean exists(String path) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(node.resolve(path))
            .timeout(timeout)
            .method("HEAD", HttpRequest.BodyPublishers.noBody())
            .build();
    return send(request, "HEAD " + path).statusCode() == 200;
  }

  private JsonNode call(String method, String path, String body, String contentType)
      throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(node.resolve(path))
            .timeout(timeout)
            .header("Content-Type", contentType)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build();
    String what = method + " " + node.resolve(path);
    HttpResponse<String> r = send(request, what);
    if (r.statusCode() / 100 != 2) {
      throw new IOException(what + " answered HTTP " + r.statusCode() + ": " + excerpt(r.body()));
    }
    try {
      return JSON.readTree(r.body().isEmpty() ? "{}" : r.body());
    } catch (IOException e) {
      throw new IOException(what + " answered what is not JSON: " + excerpt(r.body()), e);
    }
  }

  private HttpResponse<String> send(HttpRequest request, String what) throws IOException {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IOException(what + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(what + ": interrupted", e);
    }
  }

  static String excerpt(String body) {
    return body.length() <= EXCERPT ? body : body.substring(0, EXCERPT) + "...";
  }
}
