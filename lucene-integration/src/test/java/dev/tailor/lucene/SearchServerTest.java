package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tailor.core.Scheduler;
import dev.tailor.lucene.server.SearchServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.search.IndexSearcher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SearchServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static TestIndex index;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  static void build() throws IOException {
    index = TestIndex.build(3_000, 9);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  private record Response(int status, JsonNode body) {}

  private Response get(SearchServer server, String pathAndQuery) throws Exception {
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(uri(server, pathAndQuery))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new Response(r.statusCode(), JSON.readTree(r.body()));
  }

  private Response post(SearchServer server, String json) throws Exception {
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(uri(server, "/search"))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new Response(r.statusCode(), JSON.readTree(r.body()));
  }

  private static URI uri(SearchServer server, String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + server.address().getPort() + pathAndQuery);
  }

  private static String q(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  @Test
  void answersSearchesStatsAndPolicyOnLoopback() throws Exception {
    try (Scheduler scheduler = Scheduler.builder().policy("fixed:2").workers(2).build();
        SearchServer server =
            new SearchServer(
                new TailorSearcher(index.reader, scheduler),
                TestIndex.ANALYZER,
                "body",
                SearchServer.Options.defaults())) {
      assertTrue(server.address().getAddress().isLoopbackAddress());
      String word = index.vocabulary.get(4);
      Response r = get(server, "/search?q=" + q(word) + "&k=5");
      assertEquals(200, r.status(), r.body().toString());
      assertEquals(5, r.body().get("hits").size());
      // Hits are counted exactly up to 1,000, then as a lower bound, as Lucene's defaults do.
      int count = new IndexSearcher(index.reader).count(index.term(4));
      int totalHits = r.body().get("totalHits").asInt();
      if (r.body().get("totalHitsRelation").asText().equals("EQUAL_TO")) {
        assertEquals(count, totalHits);
      } else {
        assertEquals("GREATER_THAN_OR_EQUAL_TO", r.body().get("totalHitsRelation").asText());
        assertTrue(totalHits >= 1_000 && totalHits <= count, totalHits + " of " + count);
      }
      assertEquals(false, r.body().get("timedOut").asBoolean());

      Response posted =
          post(server, "{\"q\": \"" + word + "\", \"k\": 3, \"label\": \"HighTerm\"}");
      assertEquals(200, posted.status(), posted.body().toString());
      assertEquals(3, posted.body().get("hits").size());

      Response stats = get(server, "/stats");
      assertEquals(200, stats.status());
      assertEquals(2, stats.body().get("latencyMicros").get("count").asInt());
      assertTrue(stats.body().get("latencyMicros").has("p99"));
      assertTrue(stats.body().get("degreeDistribution").has("HighTerm"));
      assertEquals(2, stats.body().get("load").get("poolSize").asInt());

      Response policy = get(server, "/policy");
      assertEquals("fixed:2", policy.body().get("policy").asText());
    }
  }

  @Test
  void aPredictorsEstimateReachesThePolicyAndTheResponse() throws Exception {
    java.util.List<Long> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    dev.tailor.core.policy.Policy recording =
        new dev.tailor.core.policy.Policy() {
          @Override
          public dev.tailor.core.policy.Admission admit(
              dev.tailor.core.policy.RequestView request,
              dev.tailor.core.policy.SystemView system) {
            seen.add(request.predictedSequentialNanos());
            return dev.tailor.core.policy.Admission.start(1);
          }

          @Override
          public int degree(
              dev.tailor.core.policy.RequestView request,
              dev.tailor.core.policy.SystemView system) {
            return 1;
          }

          @Override
          public String spec() {
            return "recording";
          }
        };
    try (Scheduler scheduler = Scheduler.builder().policy(recording).workers(2).build();
        SearchServer server =
            new SearchServer(
                new TailorSearcher(index.reader, scheduler),
                TestIndex.ANALYZER,
                "body",
                SearchServer.Options.defaults(),
                q -> 2_500_000L)) {
      Response r = get(server, "/search?q=" + q(index.vocabulary.get(4)));
      assertEquals(200, r.status(), r.body().toString());
      assertEquals(2_500.0, r.body().get("predictedMicros").asDouble());
      assertEquals(java.util.List.of(2_500_000L), seen);
      assertTrue(get(server, "/policy").body().hasNonNull("predictor"));
    }
  }

  @Test
  void rejectsBadQueriesWithA400ThatSaysWhy() throws Exception {
    try (Scheduler scheduler = Scheduler.builder().workers(1).build();
        SearchServer server =
            new SearchServer(
                new TailorSearcher(index.reader, scheduler),
                TestIndex.ANALYZER,
                "body",
                SearchServer.Options.defaults())) {
      assertBad(get(server, "/search"), "missing query");
      assertBad(get(server, "/search?q=" + q("body:(unclosed")), "does not parse");
      assertBad(get(server, "/search?q=" + q("x".repeat(1_001))), "too long");
      assertBad(
          get(server, "/search?q=" + q(String.join(" ", index.vocabulary.subList(0, 80)))),
          "too complex");
      assertBad(get(server, "/search?q=a&k=0"), "k must be");
      assertBad(get(server, "/search?q=a&timeout=soon"), "bad k or timeout");
      assertBad(post(server, "{not json"), "not JSON");
    }
  }

  private static void assertBad(Response r, String why) {
    assertEquals(400, r.status(), r.body().toString());
    assertTrue(r.body().get("error").asText().contains(why), r.body().toString());
  }

  @Test
  void aFullAdmissionQueueIsAFast503() throws Exception {
    try (Scheduler scheduler = Scheduler.builder().workers(1).queueCapacity(1).build();
        SearchServer server =
            new SearchServer(
                new TailorSearcher(index.reader, scheduler),
                TestIndex.ANALYZER,
                "body",
                SearchServer.Options.defaults())) {
      CountDownLatch release = new CountDownLatch(1);
      CountDownLatch running = new CountDownLatch(1);
      scheduler.submit(
          ctx -> {
            running.countDown();
            return release.await(1, TimeUnit.MINUTES);
          });
      assertTrue(running.await(1, TimeUnit.MINUTES));
      scheduler.submit(ctx -> "fills the queue");
      Response r = get(server, "/search?q=" + q(index.vocabulary.get(0)));
      assertEquals(503, r.status(), r.body().toString());
      assertTrue(r.body().get("error").asText().contains("limit 1"), r.body().toString());
      release.countDown();
    }
  }

  @Test
  void stopsGracefully() throws Exception {
    Scheduler scheduler = Scheduler.builder().workers(1).build();
    SearchServer server =
        new SearchServer(
            new TailorSearcher(index.reader, scheduler),
            TestIndex.ANALYZER,
            "body",
            SearchServer.Options.defaults());
    assertEquals(200, get(server, "/search?q=" + q(index.vocabulary.get(0))).status());
    server.stop(Duration.ofSeconds(1));
    scheduler.close();
    assertThrows(IOException.class, () -> get(server, "/stats"));
  }
}
