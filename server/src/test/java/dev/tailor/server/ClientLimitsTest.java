package dev.tailor.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.Scheduler;
import dev.tailor.server.ServerFixture.Response;
import java.io.ByteArrayInputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a client that sends too slowly or too much meets over a real connection. The client timeout
 * is small here so the tests end soon; what they assert is what happens (the connection is closed,
 * the thread and the in-flight place are given back), never how long it took.
 */
class ClientLimitsTest {

  private static ServerFixture fixture() throws Exception {
    return new ServerFixture(
        Scheduler.builder().workers(1),
        ServerFixture.options(2, 1, 4, Duration.ofMillis(200), 32, List.of()));
  }

  @Test
  void aClientThatStopsInItsHeadersIsCutOff() throws Exception {
    try (ServerFixture f = fixture();
        Socket slow = f.connect()) {
      ServerFixture.write(slow, "GET /search?q=w1 HTTP/1.1\r\nHost: te");
      assertEquals("", ServerFixture.readToClose(slow), "closed without a response");
      assertFreedAfterTimeouts(f, 1);
    }
  }

  @Test
  void aClientThatStopsInItsBodyIsCutOffAndItsPlaceGivenBack() throws Exception {
    try (ServerFixture f = fixture();
        Socket slow = f.connect()) {
      ServerFixture.write(
          slow, "POST /search HTTP/1.1\r\nHost: test\r\nContent-Length: 40\r\n\r\n{\"q\": \"w");
      assertEquals("", ServerFixture.readToClose(slow), "closed without a response");
      // The only place in flight is freed once its thread sees the cut: a search is served.
      f.statsWhenIdle();
      assertEquals(200, f.get("/search?q=w1").status());
      assertFreedAfterTimeouts(f, 1);
    }
  }

  private static void assertFreedAfterTimeouts(ServerFixture f, int timeouts) throws Exception {
    JsonNode http = f.statsWhenIdle().get("http");
    assertEquals(timeouts, http.get("clientTimeouts").asInt(), http.toString());
  }

  @Test
  void aDeclaredBodyOverTheCapIs413BeforeAnyOfItIsRead() throws Exception {
    try (ServerFixture f = fixture();
        Socket big = f.connect()) {
      // Headers only: the answer comes from the declared length, with no body sent at all.
      ServerFixture.write(
          big, "POST /search HTTP/1.1\r\nHost: test\r\nContent-Length: 10000000\r\n\r\n");
      String head = ServerFixture.readHead(big);
      assertTrue(head.startsWith("HTTP/1.1 413 "), head);
      assertTrue(head.contains("Connection: close"), head);
      assertEquals(0, f.stats().get("http").get("inFlight").asInt());
    }
  }

  @Test
  void aChunkedBodyOverTheCapIs413() throws Exception {
    try (ServerFixture f = fixture()) {
      byte[] body = ("{\"q\": \"" + "w1 ".repeat(10_000) + "\"}").getBytes(StandardCharsets.UTF_8);
      // A body from a stream has no length: HTTP/1.1 sends it chunked.
      Response r =
          f.send(
              f.request("/search")
                  .POST(
                      HttpRequest.BodyPublishers.ofInputStream(
                          () -> new ByteArrayInputStream(body)))
                  .build());
      assertEquals(413, r.status(), r.text());
      assertEquals("request body over 16384 bytes, the limit", r.error());
      assertEquals(200, f.get("/search?q=w1").status());
    }
  }
}
