package dev.tailor.server;

import static dev.tailor.server.ServerFixture.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.lucene.TotalHits;
import dev.tailor.server.ServerFixture.Response;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SearchServerTest {

  private static ServerFixture fixture(String policy, int workers) throws IOException {
    return new ServerFixture(
        SchedulerInternals.policy(Scheduler.builder(), policy).workers(workers),
        SearchServer.Options.defaults());
  }

  /** The defaults, counting hits up to {@code threshold}. */
  private static SearchServer.Options countingHitsUpTo(int threshold) {
    SearchServer.Options d = SearchServer.Options.defaults();
    return new SearchServer.Options(
        d.bind(),
        d.port(),
        d.threads(),
        d.maxInFlight(),
        d.acceptQueue(),
        d.clientTimeout(),
        d.maxBodyBytes(),
        d.maxQueryChars(),
        d.maxClauses(),
        d.maxHits(),
        d.maxLabels(),
        d.labels(),
        threshold);
  }

  @Test
  void searchesCountHitsAsFarAsTheServerIsTold() throws Exception {
    // "common" is in all 200 documents: past a threshold of 1 the count is a lower bound, with
    // every hit counted it is exact.
    try (ServerFixture f =
        new ServerFixture(
            SchedulerInternals.policy(Scheduler.builder(), "seq").workers(1),
            countingHitsUpTo(1))) {
      JsonNode body = f.get("/search?q=common+w3&k=1").json();
      assertEquals("GREATER_THAN_OR_EQUAL_TO", body.get("totalHitsRelation").asText());
      assertTrue(body.get("totalHits").asInt() < 200, body.toString());
    }
    try (ServerFixture f =
        new ServerFixture(
            SchedulerInternals.policy(Scheduler.builder(), "seq").workers(1),
            countingHitsUpTo(TotalHits.EXACT))) {
      JsonNode body = f.get("/search?q=common+w3&k=1").json();
      assertEquals("EQUAL_TO", body.get("totalHitsRelation").asText());
      assertEquals(200, body.get("totalHits").asInt());
    }
  }

  @Test
  void aThresholdBelowOneIsRefusedByName() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> countingHitsUpTo(0));
    assertEquals("totalHitsThreshold must be >= 1, got 0", e.getMessage());
  }

  @Test
  void answersSearchesStatsAndPolicyOnLoopback() throws Exception {
    try (ServerFixture f = fixture("fixed:2", 2)) {
      assertTrue(f.server.address().getAddress().isLoopbackAddress());
      Response r = f.get("/search?q=w3&k=5");
      assertEquals(200, r.status(), r.text());
      assertEquals("application/json", r.contentType());
      JsonNode body = r.json();
      assertEquals(5, body.get("hits").size());
      assertEquals(20, body.get("totalHits").asInt()); // every tenth of 200 documents
      assertEquals("EQUAL_TO", body.get("totalHitsRelation").asText());
      assertFalse(body.get("timedOut").asBoolean());
      f.statsWhenIdle(); // the first search has left, so the two come one after another

      Response posted = f.post("{\"q\": \"v2\", \"k\": 3, \"label\": \"HighTerm\"}");
      assertEquals(200, posted.status(), posted.text());
      assertEquals(3, posted.json().get("hits").size());

      JsonNode stats = f.statsWhenIdle();
      assertEquals(2, stats.get("latencyMicros").get("count").asInt());
      assertTrue(stats.get("latencyMicros").has("p99"));
      assertTrue(stats.get("degreeDistribution").has("HighTerm"));
      assertEquals(2, stats.get("load").get("workers").asInt());
      JsonNode http = stats.get("http");
      assertEquals(64, http.get("threads").asInt());
      assertEquals(48, http.get("maxInFlight").asInt());
      assertEquals(0, http.get("inFlight").asInt());
      assertEquals(1, http.get("peakInFlight").asInt()); // the two searches came one after another
      assertEquals(0, http.get("refused").asInt());
      assertEquals(1, http.get("labels").asInt());

      assertEquals("fixed:2", f.get("/policy").json().get("policy").asText());
    }
  }

  @Test
  void metricsAreThePrometheusTextOfTheSearchesRun() throws Exception {
    try (ServerFixture f = fixture("fixed:2", 2)) {
      assertEquals(200, f.get("/search?q=w1&k=5").status());
      assertEquals(200, f.get("/search?q=v2&k=3&label=HighTerm").status());

      f.get("/metrics"); // registers the label groups first seen since the server started
      Response metrics = f.get("/metrics");

      assertEquals(200, metrics.status(), metrics.text());
      assertEquals(MetricsPage.CONTENT_TYPE, metrics.contentType());
      List<String> lines = List.of(metrics.text().split("\n"));
      assertTrue(lines.contains("tailor_request_latency_seconds_count 2"), metrics.text());
      assertTrue(
          lines.contains("tailor_requests_total{outcome=\"completed\"} 2.0"), metrics.text());
      assertTrue(lines.contains("tailor_workers 2.0"), metrics.text());
      assertTrue(
          lines.stream()
              .anyMatch(
                  l -> l.startsWith("tailor_request_latency_quantile_seconds{quantile=\"0.99\"}")),
          metrics.text());
      assertTrue(
          lines.stream()
              .anyMatch(
                  l ->
                      l.startsWith("tailor_requests_by_degree_total{degree=")
                          && l.contains("group=\"HighTerm\"")),
          metrics.text());
      assertEquals(
          405,
          f.client
              .send(f.request("/metrics").DELETE().build(), HttpResponse.BodyHandlers.ofString())
              .statusCode());
    }
  }

  @Test
  void underAutoStatsAndMetricsShowWhatItLearned() throws Exception {
    try (ServerFixture f = fixture("auto:requests=100,period=0s", 2)) {
      for (int i = 0; i < 5; i++) {
        assertEquals(200, f.get("/search?q=w1&k=5").status());
      }
      JsonNode auto = f.stats().get("auto");
      assertEquals(5, auto.get("samplesHeld").asInt(), auto.toString());
      assertEquals(4096, auto.get("samplesCapacity").asInt());
      assertEquals(0, auto.get("rebuilds").asInt(), "fewer requests than a rebuild needs");
      assertEquals("wq-linear:2", auto.get("live").asText());
      assertFalse(auto.has("lastRebuild"));
      List<String> lines = List.of(f.get("/metrics").text().split("\n"));
      assertTrue(lines.contains("tailor_auto_samples 5.0"), lines.toString());
      assertTrue(lines.contains("tailor_auto_rebuilds{outcome=\"failed\"} 0.0"), lines.toString());
    }
  }

  @Test
  void theApplicationsCountersShowInStatsAsTheyAreNow() throws Exception {
    try (ServerFixture f = fixture("seq", 1)) {
      assertFalse(f.stats().has("counters"), "no counter, no section");
      AtomicLong indexed = new AtomicLong(7);
      f.server.addCounter("documentsIndexedBeside", indexed::get);
      assertEquals(7, f.stats().get("counters").get("documentsIndexedBeside").asLong());
      indexed.set(1_234);
      assertEquals(1_234, f.stats().get("counters").get("documentsIndexedBeside").asLong());
      f.server.addCounter("documentsIndexedBeside", () -> 5);
      assertEquals(5, f.stats().get("counters").get("documentsIndexedBeside").asLong());
    }
  }

  @Test
  void aPredictorsEstimateReachesThePolicyAndTheResponse() throws Exception {
    List<Long> seen = new CopyOnWriteArrayList<>();
    Policy recording =
        new Policy() {
          @Override
          public Admission admit(RequestView request, SystemView system) {
            seen.add(request.predictedSequentialNanos());
            return Admission.start(1);
          }

          @Override
          public int degree(RequestView request, SystemView system) {
            return 1;
          }

          @Override
          public String spec() {
            return "recording";
          }
        };
    try (ServerFixture f =
        new ServerFixture(
            Scheduler.builder().policy(recording).workers(2),
            SearchServer.Options.defaults(),
            q -> 2_500_000L)) {
      Response r = f.get("/search?q=w4");
      assertEquals(200, r.status(), r.text());
      assertEquals(2_500.0, r.json().get("predictedMicros").asDouble());
      assertEquals(List.of(2_500_000L), seen);
      assertTrue(f.get("/policy").json().hasNonNull("predictor"));
    }
  }

  @Test
  void aBackgroundSearchAnswersAsAnInteractiveOneDoes() throws Exception {
    try (ServerFixture f = fixture("fixed:2", 2)) {
      Response interactive = f.get("/search?q=w3&k=5&class=interactive");
      Response background = f.post("{\"q\": \"w3\", \"k\": 5, \"class\": \"background\"}");
      assertEquals(200, interactive.status(), interactive.text());
      assertEquals(200, background.status(), background.text());
      assertEquals(interactive.json().get("hits"), background.json().get("hits"));
    }
  }

  @Test
  void rejectsBadInputWithA400ThatSaysWhy() throws Exception {
    try (ServerFixture f = fixture("seq", 1)) {
      assertBad(f.get("/search"), "missing query");
      assertBad(f.get("/search?q=" + encode("body:(unclosed")), "does not parse at column");
      assertBad(f.get("/search?q=" + encode("x".repeat(1_001))), "too long: 1001 characters");
      StringBuilder many = new StringBuilder();
      for (int i = 0; i < 80; i++) {
        many.append(" t").append(i);
      }
      assertBad(f.get("/search?q=" + encode(many.toString())), "too complex: 80 clauses");
      assertBad(f.get("/search?q=w1&k=0"), "k must be a whole number from 1 to 1000, got '0'");
      assertBad(f.get("/search?q=w1&k=ten"), "got 'ten'");
      assertBad(f.get("/search?q=w1&timeout=soon"), "timeout must be a positive duration");
      assertBad(f.get("/search?q=w1&label=" + encode("no spaces")), "label must be");
      assertBad(f.get("/search?q=w1&label=" + "x".repeat(65)), "label must be");
      assertBad(f.get("/search?query=w1"), "unknown field 'query'");
      assertBad(
          f.get("/search?q=w1&class=urgent"),
          "class must be interactive or background, got 'urgent'");
      assertBad(f.post("{not json"), "body is not JSON (line 1, column 2)");
      assertBad(f.post("[\"w1\"]"), "body must be a JSON object");
      assertBad(f.post("{\"q\": {\"w1\": 1}}"), "field 'q' must be a string or a number");
      // Nothing was searched, and no search is left counted in flight.
      assertEquals(0, f.stats().get("latencyMicros").get("count").asInt());
      assertEquals(0, f.stats().get("http").get("inFlight").asInt());
    }
  }

  private static void assertBad(Response r, String why) throws IOException {
    assertEquals(400, r.status(), r.text());
    assertTrue(r.error().contains(why), r.text());
    assertNoInternals(r);
  }

  private static void assertNoInternals(Response r) {
    assertFalse(r.text().contains("Exception"), r.text());
    assertFalse(r.text().contains("dev.tailor"), r.text());
    assertFalse(r.text().contains("org.apache"), r.text());
  }

  @Test
  void unknownPathsAndMethodsAreJsonErrors() throws Exception {
    try (ServerFixture f = fixture("seq", 1)) {
      Response missing = f.get("/searches");
      assertEquals(404, missing.status(), missing.text());
      assertEquals("application/json", missing.contentType());
      assertTrue(
          missing.error().contains("use /search, /stats, /metrics or /policy"), missing.text());

      HttpResponse<String> delete =
          f.client.send(
              f.request("/search?q=w1").DELETE().build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(405, delete.statusCode());
      assertEquals("GET, POST", delete.headers().firstValue("Allow").orElseThrow());
      assertTrue(ServerFixture.response(delete).error().contains("not 'DELETE'"));

      Response postStats =
          f.send(f.request("/stats").POST(HttpRequest.BodyPublishers.ofString("{}")).build());
      assertEquals(405, postStats.status());
      assertNoInternals(postStats);
    }
  }

  @Test
  void aFailingIndexIsA500WhoseDetailIsOnlyLogged() throws Exception {
    try (ServerFixture f = fixture("seq", 1)) {
      f.gate.failing = true;
      Response r = f.get("/search?q=w1");
      assertEquals(500, r.status(), r.text());
      assertEquals("internal error: the server failed; its log says why", r.error());
      assertFalse(r.text().contains("secret"), r.text());
      f.gate.failing = false;
      assertEquals(200, f.get("/search?q=w1").status());
    }
  }

  @Test
  void aMalformedPercentEscapeIsA400() throws Exception {
    try (ServerFixture f = fixture("seq", 1);
        Socket socket = f.connect()) {
      // The JDK's server parses the request line as a URI and answers a bad escape itself.
      ServerFixture.write(socket, "GET /search?q=%zz HTTP/1.1\r\nHost: test\r\n\r\n");
      assertTrue(
          ServerFixture.readHead(socket).startsWith("HTTP/1.1 400 "),
          "the JDK's server refuses it");
    }
    // A server that let it through would meet the same refusal from Tailor's own decoding.
    Problem p = assertThrows(Problem.class, () -> SearchRequest.fromQueryString("q=%zz"));
    assertEquals(400, p.status());
    assertEquals(
        "malformed %-escape in '%zz': expected % and two hexadecimal digits", p.getMessage());
  }

  @Test
  void tenThousandLabelsLeaveAtMostTheLimitPlusOneClasses() throws Exception {
    int labels = 10_000;
    int limit = 32;
    try (ServerFixture f = fixture("seq", 2)) {
      Semaphore outstanding = new Semaphore(16); // a client that keeps 16 requests going
      List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
      for (int i = 0; i < labels; i++) {
        outstanding.acquire();
        sent.add(
            f.client
                .sendAsync(
                    f.request("/search?q=w1&k=1&label=client-" + i).build(),
                    HttpResponse.BodyHandlers.ofString())
                .whenComplete((r, e) -> outstanding.release()));
      }
      for (CompletableFuture<HttpResponse<String>> r : sent) {
        assertEquals(200, r.get(1, TimeUnit.MINUTES).statusCode());
      }
      JsonNode stats = f.stats();
      JsonNode classes = stats.get("degreeDistribution");
      assertTrue(classes.size() <= limit + 1, classes.size() + " classes");
      assertEquals(limit + 1, classes.size());
      long inOther = 0;
      for (Iterator<JsonNode> it = classes.get(LabelGroups.OTHER).elements(); it.hasNext(); ) {
        inOther += it.next().asLong();
      }
      assertEquals(labels - limit, inOther);
      assertEquals(limit, stats.get("http").get("labels").asInt());
    }
  }

  @Test
  void knownLabelsKeepTheirClassesWhenTheRestAreFolded() throws Exception {
    try (ServerFixture f =
        new ServerFixture(
            Scheduler.builder().workers(1),
            ServerFixture.options(64, 48, 64, Duration.ofSeconds(10), 2, List.of("HighTerm")))) {
      for (String label : List.of("a", "b", "c", "HighTerm")) {
        assertEquals(200, f.get("/search?q=w1&label=" + label).status());
      }
      JsonNode classes = f.stats().get("degreeDistribution");
      assertEquals(List.of("HighTerm", "a", "other"), sortedNames(classes));
    }
  }

  private static List<String> sortedNames(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    names.sort(null);
    return names;
  }

  @Test
  void optionsOutOfRangeAreRefusedNamingTheLimit() {
    Duration second = Duration.ofSeconds(1);
    assertRefused("maxInFlight < threads", () -> ServerFixture.admitting(4, 4, 1));
    assertRefused("acceptQueue", () -> ServerFixture.admitting(4, 2, 0));
    assertRefused(
        "more than maxLabels 1",
        () -> ServerFixture.options(4, 2, 1, second, 1, List.of("a", "b")));
    assertRefused("label must be", () -> ServerFixture.options(4, 2, 1, second, 4, List.of("a b")));
    assertRefused(
        "clientTimeout", () -> ServerFixture.options(4, 2, 1, Duration.ZERO, 4, List.of()));
  }

  private static void assertRefused(String why, org.junit.jupiter.api.function.Executable make) {
    String message = assertThrows(IllegalArgumentException.class, make).getMessage();
    assertTrue(message.contains(why), message);
  }

  @Test
  void stopsGracefully() throws Exception {
    ServerFixture f = fixture("seq", 1);
    try {
      assertEquals(200, f.get("/search?q=w1").status());
      f.server.stop(Duration.ofSeconds(1));
      assertThrows(IOException.class, () -> f.get("/stats"));
    } finally {
      f.close();
    }
  }
}
