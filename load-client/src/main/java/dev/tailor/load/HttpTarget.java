package dev.tailor.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tailor.measure.Failures;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The search server ({@code tailor serve}) over HTTP. Construction asks the server for its policy,
 * so an unreachable or wrong address fails within seconds, before any load is sent.
 */
public final class HttpTarget implements Target {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
  private static final int HTTP_OK = 200;
  private static final int HTTP_UNAVAILABLE = 503;

  private final URI base;
  private final List<String> queries;
  private final ExecutorService executor;
  private final HttpClient client;
  private final String policy;

  /**
   * Connects to the server at {@code base} (e.g. {@code http://127.0.0.1:8080}).
   *
   * @param queries the query texts, sent as they are
   * @throws IOException if the server does not answer {@code /policy} within seconds
   */
  public HttpTarget(URI base, List<String> queries) throws IOException {
    this.base = base;
    this.queries = List.copyOf(queries);
    this.executor = Executors.newVirtualThreadPerTaskExecutor();
    this.client =
        HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).executor(executor).build();
    try {
      HttpResponse<String> r =
          client.send(
              HttpRequest.newBuilder(base.resolve("/policy")).timeout(CONNECT_TIMEOUT).build(),
              HttpResponse.BodyHandlers.ofString());
      JsonNode body = new ObjectMapper().readTree(r.body());
      if (r.statusCode() != 200 || !body.hasNonNull("policy")) {
        throw new IOException(
            base + " is not a Tailor search server (GET /policy said " + r.statusCode() + ")");
      }
      this.policy = body.get("policy").asText();
    } catch (IOException e) {
      executor.shutdownNow();
      throw new IOException("cannot reach the search server at " + base + ": " + e, e);
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reaching " + base, e);
    }
  }

  /**
   * Sends a search; its future fails with a {@link RequestFailedException} saying why where the
   * server answers other than 200: {@link Failures.Kind#REJECTED} for a 503 (the server's full
   * admission queue), {@link Failures.Kind#STATUS} for any other status. An I/O error fails it with
   * the client's exception, which counts as {@link Failures.Kind#ERROR}.
   */
  @Override
  public CompletableFuture<?> send(int query) {
    String q = URLEncoder.encode(queries.get(query % queries.size()), StandardCharsets.UTF_8);
    HttpRequest request = HttpRequest.newBuilder(base.resolve("/search?q=" + q)).build();
    return client
        .sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .thenApply(HttpTarget::answer);
  }

  /** The response, if it is a result; else the failure its status says. */
  private static HttpResponse<Void> answer(HttpResponse<Void> r) {
    int status = r.statusCode();
    if (status == HTTP_OK) {
      return r;
    }
    throw new RequestFailedException(
        status == HTTP_UNAVAILABLE ? Failures.Kind.REJECTED : Failures.Kind.STATUS,
        "HTTP " + status,
        null);
  }

  /** The {@code Server-Timing} header of the response, where it gives the breakdown's parts. */
  @Override
  public ServerTiming timing(Object answer) {
    return answer instanceof HttpResponse<?> r
        ? ServerTiming.parse(r.headers().firstValue(ServerTiming.HEADER).orElse(null))
        : null;
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
